// The cost of one round (ask + tell) of the Optimizer on a finite set of N = 1000 candidates at
// t = 1000, 10000 and 30000 observations, with the rank-one model over the candidates
// (OptimizerOptions::finite_set_rank_one_updates: no exact GP, O(N^2) per round whatever t)
// against the exact GP (O(N t^2) per round to predict at every candidate; at t = 1000 only, its
// Gram matrix at 30000 would take 7.2 GB). Fixed hyperparameters (no refits): the papers'
// setting, where the rank-one model applies. The optimizer is warm-started with t observations of
// candidates and one untimed round; each benchmark iteration is then one round. Counters: the
// process's peak resident memory, and t at the end. Run with --benchmark_repetitions=5 for
// medians.
// Args: rank_one (0 = exact GP, 1 = rank-one), strategy (0 = gp-ucb, 1 = gp-ts), t.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cmath>
#include <random>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace {

constexpr int kCandidates = 1000;

double Reward(const Eigen::VectorXd& x) { return std::sin(3 * x(0)) * std::cos(2 * x(1)); }

double PeakMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void BM_FiniteSetRound(benchmark::State& state) {
  const int observations = static_cast<int>(state.range(2));
  Rng rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd candidates(2, kCandidates);
  for (int j = 0; j < kCandidates; ++j) candidates.col(j) << u(rng), u(rng);
  OptimizerOptions o;
  o.seed = 1;
  o.initial_design_size = 0;
  o.sync_log = false;
  o.num_threads = 1;
  o.refit.enabled = false;
  o.gp.noise_variance = 0.01;
  o.finite_set_rank_one_updates = state.range(0) == 1;
  const char* strategy = state.range(1) == 0 ? "gp-ucb" : "gp-ts";
  Optimizer opt(Domain::FiniteSet(candidates), MakeMatern52(FirstDims(2), true, 1.0, 0.2), strategy,
                StrategyParams(), o);
  Eigen::MatrixXd X(2, observations);
  Eigen::VectorXd y(observations);
  std::uniform_int_distribution<int> pick(0, kCandidates - 1);
  std::normal_distribution<double> noise(0.0, 0.1);
  for (int j = 0; j < observations; ++j) {
    X.col(j) = candidates.col(pick(rng));
    y(j) = Reward(X.col(j)) + noise(rng);
  }
  opt.TellMany(X, Eigen::MatrixXd(), y);
  const Eigen::VectorXd first = opt.Ask();  // untimed
  opt.Tell(first, Reward(first) + noise(rng));
  for (auto _ : state) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Reward(x) + noise(rng));
  }
  state.counters["t_end"] = opt.t();
  state.counters["peak_mb"] = PeakMegabytes();
}

BENCHMARK(BM_FiniteSetRound)
    ->ArgNames({"rank_one", "strategy", "t"})
    ->Args({0, 0, 1000})
    ->Args({1, 0, 1000})
    ->Args({1, 0, 10000})
    ->Args({1, 0, 30000})
    ->Args({0, 1, 1000})
    ->Args({1, 1, 1000})
    ->Args({1, 1, 10000})
    ->Args({1, 1, 30000})
    ->Iterations(5)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
