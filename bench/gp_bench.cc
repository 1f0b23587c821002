// Costs of the GP model: adding one observation incrementally versus refactorizing,
// single-point versus batched prediction, and one finite-set rank-one update.
//   build/bench/gp_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "gpbandit/gp/finite_set_posterior.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

constexpr int kDim = 6;

Eigen::MatrixXd Points(int n, Rng& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd X(kDim, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < kDim; ++i) X(i, j) = u(rng);
  return X;
}

Eigen::VectorXd Rewards(const Eigen::MatrixXd& X) {
  Eigen::VectorXd y(X.cols());
  for (int j = 0; j < X.cols(); ++j) y(j) = std::sin(3 * X(0, j)) + X.col(j).squaredNorm();
  return y;
}

GaussianProcess ModelWith(int t, Rng& rng) {
  GaussianProcessOptions options;
  options.noise_variance = 1e-3;
  GaussianProcess gp(MakeMatern52(FirstDims(kDim), true, 1.0, 0.5), kDim, options);
  const Eigen::MatrixXd X = Points(t, rng);
  gp.AddObservations(X, Rewards(X));
  return gp;
}

// One AddObservation at size t (O(t^2): one new factor row and two triangular solves).
void BM_AddObservationIncremental(benchmark::State& state) {
  Rng rng(1);
  const int t = static_cast<int>(state.range(0));
  GaussianProcess gp = ModelWith(t, rng);
  const Eigen::MatrixXd x = Points(1, rng);
  for (auto _ : state) {
    gp.AddObservation(x.col(0), 0.5);
    state.PauseTiming();
    gp.RemoveLastObservations(1);
    state.ResumeTiming();
  }
}

// The same observation added by refactorizing all t + 1 points (what a model without the
// incremental path does; also the cost of a hyperparameter change).
void BM_AddObservationRefactorize(benchmark::State& state) {
  Rng rng(1);
  const int t = static_cast<int>(state.range(0));
  GaussianProcess gp = ModelWith(t + 1, rng);
  const Eigen::VectorXd params = gp.kernel_log_params();
  for (auto _ : state) gp.SetHyperparameters(params, 1e-3);
}

// Mean and variance of one point at a time, at t = 1000.
void BM_PredictOnePoint(benchmark::State& state) {
  Rng rng(2);
  GaussianProcess gp = ModelWith(static_cast<int>(state.range(0)), rng);
  const Eigen::MatrixXd probes = Points(64, rng);
  int j = 0;
  for (auto _ : state) {
    double m, v;
    gp.MeanAndVariance(probes.col(j), &m, &v);
    benchmark::DoNotOptimize(m + v);
    j = (j + 1) % 64;
  }
  state.SetItemsProcessed(state.iterations());
}

// Mean and variance of 1000 points in one call (one multi-right-hand-side triangular solve).
void BM_PredictBatch(benchmark::State& state) {
  Rng rng(2);
  GaussianProcess gp = ModelWith(static_cast<int>(state.range(0)), rng);
  const int m = 1000;
  const Eigen::MatrixXd probes = Points(m, rng);
  Eigen::VectorXd means, variances;
  for (auto _ : state) {
    gp.Predict(probes, &means, &variances);
    benchmark::DoNotOptimize(means.data());
  }
  state.SetItemsProcessed(state.iterations() * m);
}

// One rank-one update of the finite-set posterior over N candidates (O(N^2)).
void BM_FiniteSetObserve(benchmark::State& state) {
  Rng rng(3);
  const int n = static_cast<int>(state.range(0));
  FiniteSetPosterior posterior(*MakeMatern52(FirstDims(kDim), true, 1.0, 0.5), Points(n, rng),
                               1e-2);
  int i = 0;
  for (auto _ : state) {
    posterior.Observe(i, 0.3);
    i = (i + 7) % n;
  }
}

BENCHMARK(BM_AddObservationIncremental)
    ->Arg(250)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AddObservationRefactorize)
    ->Arg(250)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PredictOnePoint)->Arg(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PredictBatch)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FiniteSetObserve)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
