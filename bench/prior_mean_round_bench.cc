// The cost of one round (ask + tell) of a study with a prior mean function
// (OptimizerOptions::prior_mean_function) whose every call costs about `call_us` microseconds
// of CPU, as a small simulator would, at t = 20 and t = 60 observations on Branin (2-D, one
// thread, hyperparameters refitted every 10 rounds). Counter: the function's calls per round.
// Args: t (observations before the timed rounds), call_us.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cmath>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace {

// Spins for about `microseconds` of wall time (a simulator's cost) and returns Branin's reward
// with a bias, so that the prior is informative but not exact.
double SlowPrior(const Eigen::VectorXd& x, int microseconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
  while (std::chrono::steady_clock::now() < until) {
  }
  return -problems::Branin(x) + 3.0 * std::sin(x(0));
}

void BM_PriorMeanRound(benchmark::State& state) {
  const auto f = problems::MakeBranin();
  const int t = static_cast<int>(state.range(0));
  const int call_us = static_cast<int>(state.range(1));
  std::atomic<long> calls{0};
  OptimizerOptions o;
  o.seed = 1;
  o.initial_design_size = 0;
  o.sync_log = false;
  o.num_threads = 1;
  o.refit.every_while_small = 10;
  o.refit.small_until = 0;
  o.refit.every = 10;
  o.prior_mean_function.name = "slow_branin";
  o.prior_mean_function.value = [&](const Eigen::VectorXd& x, const Eigen::VectorXd&) {
    ++calls;
    return SlowPrior(x, call_us);
  };
  Optimizer opt(Domain::Box(f.lower, f.upper), nullptr, "gp-ucb", StrategyParams(), o);
  Rng rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd X(2, t);
  Eigen::VectorXd y(t);
  for (int j = 0; j < t; ++j) {
    for (int i = 0; i < 2; ++i) X(i, j) = f.lower(i) + (f.upper(i) - f.lower(i)) * u(rng);
    y(j) = f.reward(X.col(j));
  }
  opt.TellMany(X, Eigen::MatrixXd(), y);
  const Eigen::VectorXd first = opt.Ask();  // the first fit happens here, untimed
  opt.Tell(first, f.reward(first));
  calls = 0;
  for (auto _ : state) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, f.reward(x));
  }
  state.counters["calls_per_round"] = static_cast<double>(calls) / state.iterations();
}

BENCHMARK(BM_PriorMeanRound)
    ->ArgNames({"t", "call_us"})
    ->Args({20, 0})
    ->Args({60, 0})
    ->Args({20, 10})
    ->Args({60, 10})
    ->Iterations(10)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
