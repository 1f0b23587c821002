// The forgetting strategies' defaults on drifting objectives nobody tuned for: the drift family
// of bench/drift_family.h (tuning half with --half tuning, held-out half by default). Each run is
// an Optimizer on [0, 1]^d with default OptimizerOptions (seed derived from the run's seed) and
// the method's strategy and options, for the problem's 150 episodes: ask, observe f_t(x_t) plus
// noise (the noise stream drawn from the seed, the same for every method), tell. A run's score
// is its mean regret over episodes 51-150 (max_x f_t - f_t(x_t), bench/drift_family.h).
//
// The tail: an episode is harmful when its regret exceeds kHarmFraction = 0.1 of the episode's
// range max_x f_t - min_x f_t (0.05-0.5 on these problems, where a settled episode costs
// 0.001-0.05: on a robot, a crash). Late episodes are the last 50 (101-150). A harmful late
// episode is an excursion when the run had found the good region (the median regret of the 10
// episodes before it below the harm level) and the plant did not just change (not from a ramp's
// or jump's change start to kSettleEpisodes = 20 after its end): re-finding a moved optimum may
// cost, leaving a known good region should not. An excursion is a departure when its point lies
// farther than kDepartureRadius = 0.2 (the family's shortest lengthscale) from each of the 10
// points played before it: the run left the region it had found, where other excursions are the
// plant sinking under a run that stayed (a fast markov drift moves its optimum by more than the
// harm level within a few episodes).
//
// Printed: the median score per problem and method; then per method its mean score over the
// problems and seeds, that mean over the lowest such mean among the methods of the same
// strategy (so tv-gp-ucb's default against its best fixed epsilon), and its wins against
// gp-ucb, the strategy that does not forget (median wins, and significant wins and losses by the
// paired sign test over the seeds, bench/ranking.h).
//
// Usage: drift_family_study [--half heldout|tuning] [--problems NAME,...]
//          [--methods gp-ucb,tv-gp-ucb,r-gp-ucb] [--variants 'LABEL=STRATEGY:{json};...']
//          [--seeds 0-9] [--jobs 1] [--threads 1] [--lines FILE,...]
// --variants and --lines as in pagmo_heldout_study. Each run's line goes to stderr: "problem
// method seed score mean-regret-over-all-episodes seconds mean-regret-over-the-last-50
// harmful-late-episodes excursions worst-late-regret/range
// its-distance-to-the-box's-boundary departures".
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/drift_family.h"
#include "bench/study_results.h"
#include "bench/variants.h"
#include "gpbandit/optimizer/optimizer.h"
#include "run_table.h"

namespace gpbandit {
namespace {

using Settings = bench::StudyFlags;
constexpr int kFirstMeasuredEpisode = 50;
constexpr int kLateEpisodes = 50;
constexpr double kHarmFraction = 0.1;
constexpr int kSettleEpisodes = 20;
constexpr int kFoundWindow = 10;
constexpr double kDepartureRadius = 0.2;

// Where the run's late episodes stand: their mean regret, how many were harmful, how many of
// those were excursions (harmful although the run had found the good region, away from a
// change), and the worst one's regret over its episode's range and its point's distance to the
// boundary of [0, 1]^d.
struct Tail {
  double regret = 0.0;
  int harmful = 0, excursions = 0, departures = 0;
  double worst = 0.0, worst_edge_distance = 0.5;
  std::vector<double> history;          // regret / range of every episode so far
  std::vector<Eigen::VectorXd> played;  // every episode's point so far

  // True when x lies farther than kDepartureRadius from each of the last kFoundWindow points.
  bool Departs(const Eigen::VectorXd& x) const {
    for (std::size_t i = played.size() - kFoundWindow; i < played.size(); ++i)
      if ((played[i] - x).norm() <= kDepartureRadius) return false;
    return true;
  }

  void Add(const bench::DriftingProblem& problem, int t, const Eigen::VectorXd& x,
           double regret_t) {
    const double ratio = regret_t / (problem.EpisodeMax(t) - problem.EpisodeMin(t));
    history.push_back(ratio);
    played.push_back(x);
    if (t < problem.episodes() - kLateEpisodes) return;
    regret += regret_t / kLateEpisodes;
    if (ratio > worst)
      worst = ratio, worst_edge_distance = std::min(x.minCoeff(), 1.0 - x.maxCoeff());
    if (ratio <= kHarmFraction) return;
    ++harmful;
    const bool near_change = problem.change_end() < problem.episodes() &&
                             t >= problem.change_start() &&
                             t < problem.change_end() + kSettleEpisodes;
    const std::vector<double> before(history.end() - 1 - kFoundWindow, history.end() - 1);
    if (near_change || bench::MedianOf(before) > kHarmFraction) return;
    ++excursions;
    played.pop_back();  // the points before this one
    departures += Departs(x);
    played.push_back(x);
  }
};

Settings ParseArgs(int argc, char** argv) {
  Settings defaults;
  defaults.names = {"gp-ucb", "tv-gp-ucb", "r-gp-ucb"};
  defaults.seeds = bench::ParseSeeds("0-9");
  defaults.strings = {{"half", "heldout"}, {"variants", ""}, {"lines", ""}};
  Settings s = bench::ParseStudyFlags(argc, argv, defaults, "methods");
  bench::ParseVariants(s.strings.at("variants"));  // refused here rather than in every run
  for (const std::string& name : s.problems) bench::DriftingProblem{name};  // checks the names
  if (s.problems.empty())
    s.problems = bench::DriftProblemNames(bench::ParseFamilyHalf(s.strings.at("half")));
  return s;
}

std::string Run(const std::string& problem_name, const std::string& method, unsigned seed,
                const Settings& s, const bench::Variants& variants) {
  omp_set_num_threads(s.threads);
  const bench::DriftingProblem problem(problem_name);
  const bench::Variant v = bench::ResolveMethod(method, variants);
  OptimizerOptions options;
  options.seed = DerivedSeed({seed, 0x6f7074ULL});
  options.sync_log = false;
  options.initial_design_size = v.InitialDesignSize(problem.dim());
  const auto start = std::chrono::steady_clock::now();
  const int d = problem.dim();
  Optimizer tuner(Domain::Box(Eigen::VectorXd::Zero(d), Eigen::VectorXd::Ones(d)), nullptr,
                  v.strategy, v.params, options);
  Rng noise = SeededRng({seed, 0x6e6f697365ULL});
  std::normal_distribution<double> normal(0.0, problem.noise_sd());
  double measured = 0.0, all = 0.0;
  Tail tail;
  for (int t = 0; t < problem.episodes(); ++t) {
    const Eigen::VectorXd x = tuner.Ask();
    const double value = problem.Value(t, x);
    tuner.Tell(x, value + normal(noise));
    const double regret = std::max(problem.EpisodeMax(t), value) - value;
    all += regret;
    if (t >= kFirstMeasuredEpisode) measured += regret;
    tail.Add(problem, t, x, regret);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream line;
  line.precision(8);
  line << problem_name << " " << method << " " << seed << " "
       << measured / (problem.episodes() - kFirstMeasuredEpisode) << " " << all / problem.episodes()
       << " " << seconds << " " << tail.regret << " " << tail.harmful << " " << tail.excursions
       << " " << tail.worst << " " << tail.worst_edge_distance << " " << tail.departures;
  return line.str();
}

double MeanScore(const bench::StudyTable& t, std::size_t m) {
  double sum = 0.0;
  int n = 0;
  for (std::size_t p = 0; p < t.problems.size(); ++p)
    for (double v : t.scores[p][m]) sum += v, ++n;
  return sum / n;
}

void PrintSummary(const bench::StudyTable& t, const bench::Variants& variants) {
  std::map<std::string, double> best_of_strategy;
  std::vector<double> means;
  for (std::size_t m = 0; m < t.methods.size(); ++m) {
    means.push_back(MeanScore(t, m));
    const std::string strategy = bench::ResolveMethod(t.methods[m], variants).strategy;
    if (best_of_strategy.count(strategy) == 0 || means[m] < best_of_strategy[strategy])
      best_of_strategy[strategy] = means[m];
  }
  const int stationary = t.IndexOf("gp-ucb");
  std::printf(
      "\n| method | strategy | mean regret, episodes 51-150 | / best of its strategy | vs "
      "gp-ucb |\n|---|---|---|---|---|\n");
  for (std::size_t m = 0; m < t.methods.size(); ++m) {
    const std::string strategy = bench::ResolveMethod(t.methods[m], variants).strategy;
    std::string versus = "";
    if (stationary >= 0 && static_cast<std::size_t>(stationary) != m) {
      const bench::HeadToHead h = bench::Compare(t, m, static_cast<std::size_t>(stationary));
      versus = std::to_string(h.median_wins) + "/" + std::to_string(t.problems.size()) + " (+" +
               std::to_string(h.significant_wins) + ", -" + std::to_string(h.significant_losses) +
               ")";
    }
    std::printf("| %s | %s | %.4f | %.2f | %s |\n", t.methods[m].c_str(), strategy.c_str(),
                means[m], means[m] / best_of_strategy[strategy], versus.c_str());
  }
}

// Field k of the lines (after the score): 2 = last-50 regret, 3 = harmful late episodes, 4 =
// excursions, 5 = the worst late regret over its range, 7 = departures.
std::vector<double> RunFields(const bench::StudyResults& results, const bench::StudyTable& t,
                              std::size_t p, std::size_t m, std::size_t k) {
  return results.Fields(t.problems[p], t.methods[m], t.seeds, k);
}

// Per method: the median over problems of the median last-50 regret, the harmful late episodes
// and excursions (of problems x seeds x 50), the departures among them, the runs with an
// excursion, the problem with the most excursions and the worst late regret over its range.
void PrintTail(const bench::StudyTable& t, const bench::StudyResults& results) {
  std::printf(
      "\n| method | median last-50 regret (median over problems) | harmful late episodes | "
      "excursions | departures | runs with one | most on one problem | worst regret / range |\n"
      "|---|---|---|---|---|---|---|---|\n");
  for (std::size_t m = 0; m < t.methods.size(); ++m) {
    std::vector<double> medians;
    int harmful = 0, excursions = 0, departures = 0, runs = 0, most = 0;
    double worst = 0.0;
    std::string most_problem = "-";
    for (std::size_t p = 0; p < t.problems.size(); ++p) {
      medians.push_back(bench::MedianOf(RunFields(results, t, p, m, 2)));
      int here = 0;
      for (double v : RunFields(results, t, p, m, 3)) harmful += static_cast<int>(v);
      for (double v : RunFields(results, t, p, m, 4)) here += static_cast<int>(v), runs += v > 0;
      for (double v : RunFields(results, t, p, m, 5)) worst = std::max(worst, v);
      for (double v : RunFields(results, t, p, m, 7)) departures += static_cast<int>(v);
      excursions += here;
      if (here > most) most = here, most_problem = t.problems[p];
    }
    const int late = static_cast<int>(t.problems.size() * t.seeds.size()) * kLateEpisodes;
    std::printf("| %s | %.4f | %d / %d | %d | %d | %d / %zu | %d (%s) | %.2f |\n",
                t.methods[m].c_str(), bench::MedianOf(medians), harmful, late, excursions,
                departures, runs, t.problems.size() * t.seeds.size(), most, most_problem.c_str(),
                worst);
  }
}

void PrintTables(const Settings& s, const bench::Variants& variants,
                 const bench::StudyResults& results) {
  const bench::StudyTable t = bench::MakeStudyTable(results, s.problems, s.names, s.seeds,
                                                    [](const std::string&) { return 0.0; });
  std::printf("%zu problems x %zu seeds; median regret per episode, episodes 51-150\n\n",
              t.problems.size(), t.seeds.size());
  bench::PrintGapTable(t);
  PrintSummary(t, variants);
  std::printf(
      "\nThe tail: late = episodes 101-150; harmful = regret above %.2f of the episode's "
      "range; excursion = harmful after %d episodes of median regret below that, not from a "
      "ramp's or jump's change to %d episodes after it\n",
      kHarmFraction, kFoundWindow, kSettleEpisodes);
  PrintTail(t, results);
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  return bench::RunOrReadStudy(
      "drift_family_study", [&] { return ParseArgs(argc, argv); },
      [](const Settings& s, const std::string& problem, const std::string& method, unsigned seed) {
        return Run(problem, method, seed, s, bench::ParseVariants(s.strings.at("variants")));
      },
      [](const Settings& s, const bench::StudyResults& results) {
        PrintTables(s, bench::ParseVariants(s.strings.at("variants")), results);
      });
}
