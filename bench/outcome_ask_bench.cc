// Time per round (ask + tell) of a study with several outcomes at t = 100: k = 2 or 3 objectives
// (DTLZ2 in 5-D, minimized) and m = 0 or 2 outcome constraints (two planes), under "ehvi" and
// under GP-UCB's random scalarization. The study is told 100 evaluations of uniform points
// outside the timed region (and asked once, for its first fit); each iteration is one round with
// the default refit schedule.
// Args: objectives, constraints, strategy (0 = ehvi, 1 = gp-ucb).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace {

// DTLZ2 with k objectives over [0, 1]^5, then the planes sum(x) <= 3 and x0 - x1 >= -0.6.
Eigen::VectorXd Outcomes(const Eigen::VectorXd& x, int k, int m) {
  double g = 0.0;
  for (Eigen::Index i = k - 1; i < x.size(); ++i) g += std::pow(x(i) - 0.5, 2);
  Eigen::VectorXd v(k + m);
  for (int i = 0; i < k; ++i) {
    double f = 1.0 + g;
    for (int j = 0; j < k - 1 - i; ++j) f *= std::cos(x(j) * M_PI / 2);
    if (i > 0) f *= std::sin(x(k - 1 - i) * M_PI / 2);
    v(i) = f;
  }
  if (m > 0) v(k) = x.sum();
  if (m > 1) v(k + 1) = x(0) - x(1);
  return v;
}

void BM_OutcomeRound(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0)), m = static_cast<int>(state.range(1));
  const std::string strategy = state.range(2) == 0 ? "ehvi" : "gp-ucb";
  OptimizerOptions o;
  o.seed = 1;
  o.initial_design_size = 0;
  o.sync_log = false;
  o.num_threads = 1;
  for (int i = 0; i < k; ++i) o.outcomes.objectives.push_back({"f" + std::to_string(i), true});
  if (m > 0) o.outcomes.constraints.push_back({"sum", ConstraintSense::kLessEqual, 3.0});
  if (m > 1) o.outcomes.constraints.push_back({"diff", ConstraintSense::kGreaterEqual, -0.6});
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(5), Eigen::VectorXd::Ones(5)), nullptr, strategy,
                o);
  Rng rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int j = 0; j < 100; ++j) {
    Eigen::VectorXd x(5);
    for (int i = 0; i < 5; ++i) x(i) = u(rng);
    opt.TellOutcomes(x, Eigen::VectorXd(), Outcomes(x, k, m));
  }
  const Eigen::VectorXd first = opt.Ask();  // the first fit on 100 points, untimed
  opt.TellOutcomes(first, Eigen::VectorXd(), Outcomes(first, k, m));
  for (auto _ : state) {
    const Eigen::VectorXd x = opt.Ask();
    opt.TellOutcomes(x, Eigen::VectorXd(), Outcomes(x, k, m));
  }
  state.counters["t_end"] = opt.t();
}

BENCHMARK(BM_OutcomeRound)
    ->ArgNames({"objectives", "constraints", "ucb"})
    ->ArgsProduct({{2, 3}, {0, 2}, {0, 1}})
    ->Iterations(10)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
