// Regret study 1: Srinivas, Krause, Kakade & Seeger (ICML 2010), Figure 5a.
//
// f ~ GP(0, SE, lengthscale 0.2, unit variance) on 1000 grid points of [0, 1]; noise variance
// 0.025 (model lambda = 0.025 too, the paper's known-prior setting); delta = 0.1; T = 1000.
// Strategies: GP-UCB with the finite-D schedule of Theorem 1 scaled by 1/5 (as in the paper),
// EI, PI (margins 0 and 0.01), mean only, variance only. Reported: mean average regret R_T / T over
// the trials (mean and standard deviation) at a few checkpoints, and seconds per run.
//
// Each row is `gpbandit run --problem gp-sample` (examples/studies/regret_study.h: the same problem
// instances, noise and simulated bandit loop, the O(N^2)-per-round FiniteSetPosterior), so
// every figure here is the one the command line prints for the same options, e.g. GP-UCB's:
//   gpbandit run --problem gp-sample --kernel se --strategy gp-ucb --beta-schedule finite
//       --delta 0.1 --beta-scale 0.2 --rounds 1000 --trials 10 --seed 2010
// The strategies run in parallel (OpenMP), one thread each; the table does not depend on the
// thread count.
//
// Usage: srinivas_study [--full] [--trials N] [--horizon T] [--seed S]
//   default: 10 trials (about a minute on 2 cores); --full: the paper's 30 trials.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "examples/studies/regret_study.h"
#include "study_args.h"

namespace {

struct Settings {
  int trials = 10;
  int horizon = 1000;
  int grid = 1000;
  double noise_variance = 0.025;
  double lengthscale = 0.2;
  std::uint64_t seed = 2010;
};

Settings ParseArgs(int argc, char** argv) {
  Settings s;
  const gpbandit::bench::StudyArgs args =
      gpbandit::bench::ParseStudyArgs(argc, argv, {s.trials, s.horizon, s.seed}, 30, "horizon");
  s.trials = args.trials;
  s.horizon = args.length;
  s.seed = args.seed;
  return s;
}

struct Entry {
  const char* label;
  const char* name;
  gpbandit::StrategyParams options;
};

std::vector<Entry> Strategies() {
  const gpbandit::StrategyParams ucb(
      R"({"beta_schedule": "finite", "delta": 0.1, "beta_scale": 0.2})");
  // PI with xi = 0 is the pure "most probable improvement"; xi = 0.01 is Lizotte's (2008)
  // recommended margin. The paper does not state its MPI margin, so both are reported.
  const gpbandit::StrategyParams pi_margin = gpbandit::StrategyParams().With("xi", 0.01);
  return {{"GP-UCB (beta/5)", "gp-ucb", ucb},
          {"EI", "ei", {}},
          {"PI (xi=0)", "pi", {}},
          {"PI (xi=0.01)", "pi", pi_margin},
          {"mean only", "mean", {}},
          {"variance only", "variance", {}}};
}

// R_T / T of each trial at each checkpoint: [checkpoint][trial].
std::vector<std::vector<double>> RunEntry(const Settings& settings, const Entry& entry,
                                          const std::vector<int>& checkpoints, double* seconds) {
  gpbandit::examples::RegretStudyOptions o;
  o.problem = "gp-sample";
  o.strategies = {entry.name};
  o.kernel = "se";
  o.lengthscale = settings.lengthscale;
  o.noise = settings.noise_variance;
  o.T = settings.horizon;
  o.trials = settings.trials;
  o.seed = settings.seed;
  o.threads = 1;
  o.grid = settings.grid;
  o.strategy_options = entry.options;
  std::vector<std::vector<double>> average_regret(checkpoints.size(),
                                                  std::vector<double>(settings.trials));
  std::ostringstream progress;
  const gpbandit::examples::RegretStudyResult result = gpbandit::examples::RunRegretStudy(
      o,
      [&](const gpbandit::examples::RegretRow& row) {
        for (std::size_t c = 0; c < checkpoints.size(); ++c)
          if (row.t == checkpoints[c]) average_regret[c][row.trial] = row.cumulative / row.t;
      },
      progress);
  *seconds = 0.0;
  for (double s : result.summaries.front().seconds) *seconds += s / settings.trials;
  return average_regret;
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = ParseArgs(argc, argv);
  const std::vector<Entry> strategies = Strategies();
  const int num_strategies = static_cast<int>(strategies.size());
  std::vector<int> checkpoints;
  for (int c : {10, 100})
    if (c < settings.horizon) checkpoints.push_back(c);
  checkpoints.push_back(settings.horizon);

  // average_regret[s][c][trial]
  std::vector<std::vector<std::vector<double>>> average_regret(num_strategies);
  std::vector<double> seconds(num_strategies, 0.0);
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic)
  for (int s = 0; s < num_strategies; ++s)
    average_regret[s] = RunEntry(settings, strategies[s], checkpoints, &seconds[s]);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf(
      "Srinivas et al. 2010, Fig. 5a: f ~ GP(0, SE l=%.1f) on %d grid points, noise var "
      "%.3f, delta 0.1, T = %d, %d trials (seed %llu)\n",
      settings.lengthscale, settings.grid, settings.noise_variance, settings.horizon,
      settings.trials, static_cast<unsigned long long>(settings.seed));
  std::printf("Mean average regret R_T/T: mean (std over trials)\n");
  std::printf("%-18s", "strategy");
  for (int T : checkpoints) std::printf("   T=%-15d", T);
  std::printf("  s/run\n");
  for (int s = 0; s < num_strategies; ++s) {
    std::printf("%-18s", strategies[s].label);
    for (size_t c = 0; c < checkpoints.size(); ++c) {
      const auto& v = average_regret[s][c];
      double mean = 0.0, var = 0.0;
      for (double x : v) mean += x;
      mean /= v.size();
      for (double x : v) var += (x - mean) * (x - mean);
      const double sd = v.size() > 1 ? std::sqrt(var / (v.size() - 1)) : 0.0;
      std::printf("   %.4f (%.4f)    ", mean, sd);
    }
    std::printf("  %.3f\n", seconds[s]);
  }
  std::printf("wall time %.1f s with %d threads\n", wall, omp_get_max_threads());
  return 0;
}
