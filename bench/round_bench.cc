// The cost of one full round (ask + tell) at t = 200 in d = 6 (Hartmann-6), refitting the
// hyperparameters every round versus every 10 rounds. The optimizer is warm-started
// with 200 uniform observations outside the timed region, then each benchmark iteration is one
// round; 20 rounds (t = 200..219) so that the every-10 schedule fits twice.
// Args: refit period (1 or 10), threads (OpenMP threads of the maximizer).
#include <benchmark/benchmark.h>

#include <vector>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace {

void BM_Round(benchmark::State& state) {
  const auto f = problems::MakeHartmann6();
  OptimizerOptions o;
  o.seed = 1;
  o.initial_design_size = 0;
  o.sync_log = false;
  o.num_threads = static_cast<int>(state.range(1));
  o.refit.every_while_small = static_cast<int>(state.range(0));
  o.refit.small_until = 0;
  o.refit.every = static_cast<int>(state.range(0));
  Optimizer opt(Domain::Box(f.lower, f.upper), nullptr, "gp-ucb", StrategyParams(), o);
  Rng rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd X(6, 200);
  Eigen::VectorXd y(200);
  for (int j = 0; j < 200; ++j) {
    for (int i = 0; i < 6; ++i) X(i, j) = u(rng);
    y(j) = f.reward(X.col(j));
  }
  opt.TellMany(X, Eigen::MatrixXd(), y);
  opt.Tell(opt.Ask(), 0.0);  // the first fit on 200 points happens here, untimed
  for (auto _ : state) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, f.reward(x));
  }
  state.counters["t_end"] = opt.t();
}

BENCHMARK(BM_Round)
    ->ArgNames({"refit_every", "threads"})
    ->Args({1, 1})
    ->Args({10, 1})
    ->Args({1, 2})
    ->Args({10, 2})
    ->Iterations(20)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
