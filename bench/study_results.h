// The results of an optimization study as a table of runs: one line per (problem, method, seed),
// "problem method seed score ..." (the fields after the score are free), and the tables the
// held-out study prints from them (bench/pagmo_heldout_study.cc): median gaps per problem and
// method, mean ranks, wins against the reference methods with paired sign tests, and pairwise
// comparisons. Lower scores are better.
#ifndef GPBANDIT_BENCH_STUDY_RESULTS_H_
#define GPBANDIT_BENCH_STUDY_RESULTS_H_

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/ranking.h"
#include "bench/run_table.h"

namespace gpbandit {
namespace bench {

// Scores by (problem, method, seed).
class StudyResults {
 public:
  // Adds the line's score; returns false (adding nothing) for a line that does not start with
  // "problem method seed score".
  bool Add(const std::string& line) {
    std::istringstream in(line);
    std::string problem, method;
    unsigned seed = 0;
    double score = 0.0;
    if (!(in >> problem >> method >> seed >> score)) return false;
    scores_[{problem, method}][seed] = score;
    std::vector<double>& fields = fields_[{problem, method}][seed];
    fields.clear();
    for (double v; in >> v;) fields.push_back(v);
    return true;
  }
  // Field k (0 = the first after the score) of the lines of (problem, method) in the order of
  // `seeds`; throws std::invalid_argument naming the first run that lacks it.
  std::vector<double> Fields(const std::string& problem, const std::string& method,
                             const std::vector<unsigned>& seeds, std::size_t k) const {
    std::vector<double> out;
    const auto it = fields_.find({problem, method});
    for (unsigned seed : seeds) {
      if (it == fields_.end() || it->second.count(seed) == 0 || it->second.at(seed).size() <= k)
        throw std::invalid_argument("no field " + std::to_string(k) + " in the run of " + problem +
                                    " " + method + " seed " + std::to_string(seed));
      out.push_back(it->second.at(seed)[k]);
    }
    return out;
  }
  // Adds every line of the files (comma-separated paths) that Add accepts; throws
  // std::invalid_argument naming a file that cannot be read.
  void AddFiles(const std::vector<std::string>& paths) {
    for (const std::string& path : paths) {
      std::ifstream in(path);
      if (!in) throw std::invalid_argument("--lines: cannot read '" + path + "'");
      for (std::string line; std::getline(in, line);) Add(line);
    }
  }
  // The scores of (problem, method) in the order of `seeds`; throws std::invalid_argument naming
  // the first missing run.
  std::vector<double> Scores(const std::string& problem, const std::string& method,
                             const std::vector<unsigned>& seeds) const {
    std::vector<double> out;
    const auto it = scores_.find({problem, method});
    for (unsigned seed : seeds) {
      if (it == scores_.end() || it->second.count(seed) == 0)
        throw std::invalid_argument("no run of " + problem + " " + method + " seed " +
                                    std::to_string(seed));
      out.push_back(it->second.at(seed));
    }
    return out;
  }

 private:
  std::map<std::pair<std::string, std::string>, std::map<unsigned, double>> scores_;
  std::map<std::pair<std::string, std::string>, std::map<unsigned, std::vector<double>>> fields_;
};

// What the tables are printed over.
struct StudyTable {
  std::vector<std::string> problems, methods;
  std::vector<unsigned> seeds;
  // scores[p][m]: the seeds' scores of problem p and method m.
  std::vector<std::vector<std::vector<double>>> scores;
  // The reference of each problem's gaps: its known minimum, or the lowest score of any run in
  // the table when the minimum is not known (then `estimated`).
  std::vector<double> reference;
  std::vector<bool> estimated;

  double Median(std::size_t p, std::size_t m) const { return MedianOf(scores[p][m]); }
  int IndexOf(const std::string& method) const {
    for (std::size_t m = 0; m < methods.size(); ++m)
      if (methods[m] == method) return static_cast<int>(m);
    return -1;
  }
};

// Fills the table's scores and references from the results; known_minimum(problem) is NaN when
// the minimum is not known.
template <typename KnownMinimum>
StudyTable MakeStudyTable(const StudyResults& results, std::vector<std::string> problems,
                          std::vector<std::string> methods, std::vector<unsigned> seeds,
                          const KnownMinimum& known_minimum) {
  StudyTable t{std::move(problems), std::move(methods), std::move(seeds), {}, {}, {}};
  for (const std::string& problem : t.problems) {
    std::vector<std::vector<double>> row;
    double lowest = HUGE_VAL;
    for (const std::string& method : t.methods) {
      row.push_back(results.Scores(problem, method, t.seeds));
      for (double v : row.back()) lowest = std::min(lowest, v);
    }
    t.scores.push_back(std::move(row));
    const double known = known_minimum(problem);
    t.estimated.push_back(std::isnan(known));
    t.reference.push_back(std::isnan(known) ? lowest : known);
  }
  return t;
}

// | problem | method ... | with each method's median gap (median score - reference); "*" marks
// an estimated reference.
inline void PrintGapTable(const StudyTable& t) {
  std::printf("| problem |");
  for (const std::string& m : t.methods) std::printf(" %s |", m.c_str());
  std::printf("\n|---|");
  for (std::size_t m = 0; m < t.methods.size(); ++m) std::printf("---|");
  std::printf("\n");
  for (std::size_t p = 0; p < t.problems.size(); ++p) {
    std::printf("| %s%s |", t.problems[p].c_str(), t.estimated[p] ? "*" : "");
    for (std::size_t m = 0; m < t.methods.size(); ++m)
      std::printf(" %.3g |", t.Median(p, m) - t.reference[p]);
    std::printf("\n");
  }
}

inline void PrintMeanRanks(const StudyTable& t) {
  std::vector<std::vector<double>> medians(t.problems.size());
  for (std::size_t p = 0; p < t.problems.size(); ++p)
    for (std::size_t m = 0; m < t.methods.size(); ++m) medians[p].push_back(t.Median(p, m));
  const std::vector<double> ranks = MeanRanks(medians);
  std::printf("\n| method | mean rank of %zu (by median, over %zu problems) |\n|---|---|\n",
              t.methods.size(), t.problems.size());
  for (std::size_t m = 0; m < t.methods.size(); ++m)
    std::printf("| %s | %.2f |\n", t.methods[m].c_str(), ranks[m]);
}

// Method a against method b over the problems: on how many a's median is lower, and on how many
// the paired sign test over the seeds says a is better (p < 0.05) or worse.
struct HeadToHead {
  int median_wins = 0, significant_wins = 0, significant_losses = 0;
};

inline HeadToHead Compare(const StudyTable& t, std::size_t a, std::size_t b) {
  HeadToHead h;
  for (std::size_t p = 0; p < t.problems.size(); ++p) {
    if (Lower(t.Median(p, a), t.Median(p, b))) ++h.median_wins;
    const SignTest s = PairedSignTest(t.scores[p][a], t.scores[p][b]);
    if (s.p_value < 0.05) (s.wins > s.losses ? h.significant_wins : h.significant_losses)++;
  }
  return h;
}

// Problems on which method a's median beats every one of `others` present in the table.
inline int BeatsAll(const StudyTable& t, std::size_t a, const std::vector<std::string>& others) {
  int count = 0;
  for (std::size_t p = 0; p < t.problems.size(); ++p) {
    bool all = true;
    for (const std::string& o : others) {
      const int b = t.IndexOf(o);
      if (b >= 0 && !Lower(t.Median(p, a), t.Median(p, static_cast<std::size_t>(b)))) all = false;
    }
    count += all;
  }
  return count;
}

// One row per method in `rows`, one column per reference present in the table: "W/P (+S, -L)",
// W problems won on medians, S won and L lost significantly by the sign test; then the problems
// on which the row beats every reference in `all_of` at once.
inline void PrintChecks(const StudyTable& t, const std::vector<std::string>& rows,
                        const std::vector<std::string>& references,
                        const std::vector<std::string>& all_of) {
  std::printf("\n| strategy |");
  for (const std::string& r : references)
    if (t.IndexOf(r) >= 0) std::printf(" vs %s |", r.c_str());
  std::printf(" beats each of");
  for (const std::string& o : all_of) std::printf(" %s", o.c_str());
  std::printf(" |\n|---|");
  for (const std::string& r : references)
    if (t.IndexOf(r) >= 0) std::printf("---|");
  std::printf("---|\n");
  const std::size_t n = t.problems.size();
  for (const std::string& row : rows) {
    const int a = t.IndexOf(row);
    if (a < 0) continue;
    std::printf("| %s |", row.c_str());
    for (const std::string& r : references) {
      const int b = t.IndexOf(r);
      if (b < 0) continue;
      const HeadToHead h = Compare(t, static_cast<std::size_t>(a), static_cast<std::size_t>(b));
      std::printf(" %d/%zu (+%d, -%d) |", h.median_wins, n, h.significant_wins,
                  h.significant_losses);
    }
    std::printf(" %d/%zu |\n", BeatsAll(t, static_cast<std::size_t>(a), all_of), n);
  }
}

// The square table of `names` against each other: cell (row, column) = "W (+S)", W problems on
// which the row's median beats the column's, S of them significant by the sign test.
inline void PrintPairwise(const StudyTable& t, const std::vector<std::string>& names) {
  std::vector<std::size_t> present;
  for (const std::string& name : names)
    if (t.IndexOf(name) >= 0) present.push_back(static_cast<std::size_t>(t.IndexOf(name)));
  std::printf("\n| row beats column on (significantly) |");
  for (std::size_t b : present) std::printf(" %s |", t.methods[b].c_str());
  std::printf("\n|---|");
  for (std::size_t k = 0; k < present.size(); ++k) std::printf("---|");
  std::printf("\n");
  for (std::size_t a : present) {
    std::printf("| %s |", t.methods[a].c_str());
    for (std::size_t b : present) {
      if (a == b) {
        std::printf(" - |");
        continue;
      }
      const HeadToHead h = Compare(t, a, b);
      std::printf(" %d (+%d) |", h.median_wins, h.significant_wins);
    }
    std::printf("\n");
  }
}

// A study's main: every combination of run(problem, name, seed) (RunEveryCombination), or, when
// the flags' strings["lines"] names files, the lines of earlier runs read from them; then
// print(results). Returns 0, or 2 after printing what went wrong (bad flags included).
inline int RunOrReadStudy(
    const char* program, const std::function<StudyFlags()>& parse_flags,
    const std::function<std::string(const StudyFlags&, const std::string&, const std::string&,
                                    unsigned)>& run,
    const std::function<void(const StudyFlags&, const StudyResults&)>& print) {
  return ReportingErrors(program, [&] {
    const StudyFlags s = parse_flags();
    StudyResults results;
    const auto lines = s.strings.find("lines");
    if (lines != s.strings.end() && !lines->second.empty()) {
      results.AddFiles(SplitList(lines->second));
      print(s, results);
      return;
    }
    RunEveryCombination(
        s,
        [&](const std::string& problem, const std::string& name, unsigned seed) {
          return run(s, problem, name, seed);
        },
        [&](const std::vector<std::string>& all) {
          for (const std::string& line : all) results.Add(line);
          print(s, results);
        });
  });
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_STUDY_RESULTS_H_
