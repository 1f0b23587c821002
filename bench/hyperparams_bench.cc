// Cost of a hyperparameter fit (hyperparams/fit.h): Matern-5/2 ARD, 1 + 5 starts, default
// options, on t noisy observations of a smooth function of the unit cube (Branin rescaled to
// [0, 1]^2 for d = 2, Hartmann-6 for d = 6). Each fit is O(t^3) per objective evaluation
// (factorization and Ky^-1), so the large cases run one fit per repetition; report the median.
//
//   hyperparams_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
//
// Args: t, d, threads (OpenMP threads of each likelihood evaluation, at most: fit.h's num_threads,
// 0 = the default, which the thread policy of numerics/thread_policy.h applies; the
// Cholesky factorization stays on one thread, the Gram matrix, the inverse and the gradient's
// contraction are split over them; the results do not depend on the count).
// Counters: iterations (L-BFGS iterations over all starts), failed (failed starts). The last
// fit's BriefReport() goes to stderr (Google Benchmark 1.7's console format prints negative
// counters as -0, and a log likelihood is often negative).
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <cmath>
#include <iostream>
#include <memory>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/hyperparams/log_marginal_likelihood.h"
#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

// Noisy observations of the test function at t uniform points of the unit cube.
GaussianProcess MakeData(int t, int d) {
  const problems::SyntheticFunction problem =
      d == 2 ? problems::MakeBranin() : problems::MakeHartmann6();
  Rng rng(1234 + t + d);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, 1.0);
  Eigen::MatrixXd X(d, t);
  Eigen::VectorXd y(t);
  for (int j = 0; j < t; ++j) {
    for (int i = 0; i < d; ++i) X(i, j) = uniform(rng);
    const Eigen::VectorXd x =
        problem.lower + (problem.upper - problem.lower).cwiseProduct(X.col(j));
    y(j) = problem.reward(x);
  }
  // Noise at 1% of the output spread, so that the noise variance has something to fit.
  const double spread = std::sqrt((y.array() - y.mean()).square().mean());
  for (int j = 0; j < t; ++j) y(j) += 0.01 * spread * noise(rng);
  GaussianProcess gp(MakeMatern52(FirstDims(d), true), d);
  gp.AddObservations(X, y);
  return gp;
}

void BM_FitHyperparameters(benchmark::State& state) {
  const int t = static_cast<int>(state.range(0));
  const int d = static_cast<int>(state.range(1));
  const GaussianProcess data = MakeData(t, d);
  HyperparameterFitOptions options;
  options.num_restarts = 5;
  options.num_threads = static_cast<int>(state.range(2));
  HyperparameterFitReport report;
  for (auto _ : state) {
    state.PauseTiming();
    GaussianProcess gp = data;
    Rng rng(7);
    state.ResumeTiming();
    // The fit mutates gp, so nothing can be optimized away (and DoNotOptimize on a double
    // lvalue can clobber it in this Google Benchmark version).
    report = FitHyperparameters(options, rng, &gp);
  }
  std::cerr << "t = " << t << ", d = " << d << ", " << options.num_threads
            << " threads: " << report.BriefReport() << std::endl;
  state.counters["iterations"] = report.iterations;
  state.counters["failed"] = static_cast<double>(report.failed_starts.size());
}

// One objective evaluation (value and gradient): the unit of a fit's cost.
void BM_LogMarginalLikelihoodWithGradient(benchmark::State& state) {
  const int t = static_cast<int>(state.range(0));
  const int d = static_cast<int>(state.range(1));
  const GaussianProcess data = MakeData(t, d);
  const Eigen::MatrixXd X = data.inputs();
  const Eigen::VectorXd y = data.standardized_outputs();
  const int threads = static_cast<int>(state.range(2));
  Eigen::VectorXd gradient;
  for (auto _ : state) {
    benchmark::DoNotOptimize(LogMarginalLikelihood(data.kernel(), X, y, data.noise_variance(),
                                                   &gradient, 1e-2, threads));
  }
}

BENCHMARK(BM_FitHyperparameters)
    ->ArgNames({"t", "d", "threads"})
    ->ArgsProduct({{100, 500, 1000}, {2, 6}, {1, 2}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(BM_LogMarginalLikelihoodWithGradient)
    ->ArgNames({"t", "d", "threads"})
    ->ArgsProduct({{100, 160, 500, 1000}, {2, 6}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
