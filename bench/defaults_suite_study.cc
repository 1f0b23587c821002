// Every strategy with its defaults only: the strategy's name is the one setting. Each run is an
// Optimizer on the function's box with default OptimizerOptions (seed = the run's seed) and
// default StrategyOptions: the default kernel and fits, the default initial design, then
// model-driven rounds up to --evaluations evaluations in all. Reported per problem and
// strategy: the median simple regret (max f - best f found, the function's own units), how many
// seeds ended within 1e-3 of the optimum, and for Hartmann-6 how many ended in the global
// optimum's basin (regret < 0.1: the best other local maximum is 0.119 below it), with the
// median wall time per run; then per problem, which strategy beats which: on how many seeds
// each has the lower regret, and whether the paired sign test over the seeds says they differ
// (bench/ranking.h).
//
// Usage: defaults_suite_study [--problems branin,hartmann3,hartmann6,levy10]
//          [--strategies gp-ucb,igp-ucb,gp-ts,ei,log-ei,pi] [--seeds 0-19]
//          [--evaluations 200] [--threads 1] [--jobs 1] [--raw-sample-design latin-hypercube]
// --threads: OpenMP threads per run; --jobs: runs in that many forked processes at once (the
// machine's cores are shared: jobs * threads should not exceed the idle cores).
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/study_results.h"
#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"
#include "run_table.h"

namespace gpbandit {
namespace {

using Settings = bench::StudyFlags;

Settings ParseArgs(int argc, char** argv) {
  Settings defaults;
  defaults.problems = {"branin", "hartmann3", "hartmann6", "levy10"};
  defaults.names = {"gp-ucb", "igp-ucb", "gp-ts", "ei", "log-ei", "pi"};
  defaults.seeds = bench::ParseSeeds("0-19");
  defaults.raw_sample_design = OptimizerOptions().maximizer_raw_sample_design;
  defaults.ints["evaluations"] = 200;
  return bench::ParseStudyFlags(argc, argv, defaults, "strategies");
}

// One run: "problem strategy seed regret seconds".
std::string Run(const std::string& problem, const std::string& strategy, unsigned seed,
                const Settings& s) {
  omp_set_num_threads(s.threads);
  const problems::SyntheticFunction f = problems::MakeSyntheticFunction(problem);
  OptimizerOptions options;
  options.seed = seed;
  options.sync_log = false;
  options.maximizer_raw_sample_design = s.raw_sample_design;
  const auto start = std::chrono::steady_clock::now();
  Optimizer opt(Domain::Box(f.lower, f.upper), nullptr, strategy, options);
  double best = -HUGE_VAL;
  for (int i = 0; i < s.ints.at("evaluations"); ++i) {
    const Eigen::VectorXd x = opt.Ask();
    const double y = f.reward(x);
    opt.Tell(x, y);
    best = std::max(best, y);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream line;
  line.precision(6);
  line << problem << " " << strategy << " " << seed << " " << f.max_reward - best << " " << seconds;
  return line.str();
}

void PrintTable(const Settings& s, const std::vector<std::string>& lines) {
  std::printf(
      "| problem | strategy | median simple regret | within 1e-3 | in the global basin |"
      " median s/run |\n|---|---|---|---|---|---|\n");
  std::size_t next = 0;
  for (const std::string& problem : s.problems) {
    for (const std::string& strategy : s.names) {
      std::vector<double> regrets, seconds;
      for (std::size_t k = 0; k < s.seeds.size(); ++k, ++next) {
        std::istringstream in(lines[next]);
        std::string p, st;
        unsigned seed;
        double regret, sec;
        in >> p >> st >> seed >> regret >> sec;
        regrets.push_back(regret);
        seconds.push_back(sec);
      }
      int within = 0, basin = 0;
      for (double r : regrets) {
        within += r < 1e-3;
        basin += r < 0.1;
      }
      std::printf("| %s | %s | %.2g | %d/%zu | %s | %.2f |\n", problem.c_str(), strategy.c_str(),
                  bench::Median(regrets), within, regrets.size(),
                  problem == "hartmann6"
                      ? (std::to_string(basin) + "/" + std::to_string(regrets.size())).c_str()
                      : "",
                  bench::Median(seconds));
    }
  }
}

// Per problem, every pair of strategies: "W-L (p)", W seeds where the row's regret is lower, L
// where it is higher (ties left out), p the two-sided sign test's p-value.
void PrintSignTests(const Settings& s, const std::vector<std::string>& lines) {
  bench::StudyResults results;
  for (const std::string& line : lines) results.Add(line);
  for (const std::string& problem : s.problems) {
    std::printf("\n%s: row against column, seeds won-lost (sign test p)\n\n|  |", problem.c_str());
    for (const std::string& b : s.names) std::printf(" %s |", b.c_str());
    std::printf("\n|---|");
    for (std::size_t k = 0; k < s.names.size(); ++k) std::printf("---|");
    std::printf("\n");
    for (const std::string& a : s.names) {
      std::printf("| %s |", a.c_str());
      for (const std::string& b : s.names) {
        const bench::SignTest t = bench::PairedSignTest(results.Scores(problem, a, s.seeds),
                                                        results.Scores(problem, b, s.seeds));
        if (a == b)
          std::printf(" - |");
        else
          std::printf(" %d-%d (%.2g) |", t.wins, t.losses, t.p_value);
      }
      std::printf("\n");
    }
  }
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  return bench::RunStudyMain(
      "defaults_suite_study", [&] { return ParseArgs(argc, argv); },
      [](const Settings& s, const std::string& problem, const std::string& name, unsigned seed) {
        return Run(problem, name, seed, s);
      },
      [](const Settings& s, const std::vector<std::string>& lines) {
        PrintTable(s, lines);
        PrintSignTests(s, lines);
      });
}
