// Kernel batch forms at the sizes the GP and the marginal-likelihood fit use (d = 6): the
// vectorized overrides of StationaryKernel / CompositeKernel against the base-class pairwise
// loops (one virtual Value / GradientLogParams call per pair), reached through a wrapper that
// forwards only the pairwise methods.
//
// The plain kernel against the Optimizer's default contextual kernel (a product of Matern-5/2
// ARD parts over 4 action and 2 context dims), at the two places a kernel's cost shows:
//   BM_LikelihoodGradient/model/t/threads   one log marginal likelihood with its gradient
//                                           (a fit's unit of work); model 0 = plain 6-D
//                                           Matern-5/2 ARD, 1 = the contextual product.
//   BM_MeanAndVarianceGradient/model/t      one posterior mean and variance with gradients
//                                           (an acquisition evaluation's unit of work).
// Timing: kernel_bench --benchmark_filter='Likelihood|MeanAndVariance'
//           --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <memory>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/log_marginal_likelihood.h"
#include "gpbandit/kernel/kernel.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/numerics/random.h"
#include "tests/user_kernel.h"

namespace gpbandit {
namespace {

constexpr int kDim = 6;

// Hides every batch override of the wrapped kernel, so that Kernel's pairwise defaults run.
using PairwiseOnly = testing::UserKernel;

Eigen::MatrixXd Points(int n, std::uint64_t seed) {
  Rng rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd X(kDim, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < kDim; ++i) X(i, j) = u(rng);
  return X;
}

std::unique_ptr<Kernel> Matern52() { return MakeMatern52(FirstDims(kDim), true, 1.0, 0.3); }

// SE over 5 action dims times an index kernel over 8 contexts in the last coordinate.
std::unique_ptr<Kernel> ActionContextProduct() {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential(FirstDims(kDim - 1), true, 1.0, 0.3));
  parts.push_back(MakeIndexKernel(
      kDim - 1, Eigen::MatrixXd::Identity(8, 8) * 0.5 + Eigen::MatrixXd::Constant(8, 8, 0.5)));
  return MakeProduct(std::move(parts));
}

Eigen::MatrixXd ContextPoints(int n) {
  Eigen::MatrixXd X = Points(n, 3);
  for (int j = 0; j < n; ++j) X(kDim - 1, j) = j % 8;
  return X;
}

void BM_GramMatern52(benchmark::State& state) {
  const auto kernel = Matern52();
  const Eigen::MatrixXd X = Points(static_cast<int>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(kernel->Gram(X));
}
BENCHMARK(BM_GramMatern52)->Arg(250)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond);

void BM_GramMatern52Pairwise(benchmark::State& state) {
  const PairwiseOnly kernel(Matern52());
  const Eigen::MatrixXd X = Points(static_cast<int>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(kernel.Gram(X));
}
BENCHMARK(BM_GramMatern52Pairwise)->Arg(250)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond);

// Cross-covariance of t = 1000 observations with 1000 candidates (batched prediction).
void BM_CrossMatern52(benchmark::State& state) {
  const auto kernel = Matern52();
  const Eigen::MatrixXd X = Points(1000, 1), C = Points(1000, 2);
  for (auto _ : state) benchmark::DoNotOptimize(kernel->Cross(X, C));
}
BENCHMARK(BM_CrossMatern52)->Unit(benchmark::kMillisecond);

void BM_CrossMatern52Pairwise(benchmark::State& state) {
  const PairwiseOnly kernel(Matern52());
  const Eigen::MatrixXd X = Points(1000, 1), C = Points(1000, 2);
  for (auto _ : state) benchmark::DoNotOptimize(kernel.Cross(X, C));
}
BENCHMARK(BM_CrossMatern52Pairwise)->Unit(benchmark::kMillisecond);

void BM_ContractMatern52(benchmark::State& state) {
  const auto kernel = Matern52();
  const int n = static_cast<int>(state.range(0));
  const Eigen::MatrixXd X = Points(n, 1);
  const Eigen::MatrixXd R = Points(n, 4).transpose() * Points(n, 5);
  const Eigen::MatrixXd W = R + R.transpose();
  for (auto _ : state) benchmark::DoNotOptimize(kernel->ContractGradientLogParams(X, W));
}
BENCHMARK(BM_ContractMatern52)->Arg(250)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_ContractMatern52Pairwise(benchmark::State& state) {
  const PairwiseOnly kernel(Matern52());
  const int n = static_cast<int>(state.range(0));
  const Eigen::MatrixXd X = Points(n, 1);
  const Eigen::MatrixXd R = Points(n, 4).transpose() * Points(n, 5);
  const Eigen::MatrixXd W = R + R.transpose();
  for (auto _ : state) benchmark::DoNotOptimize(kernel.ContractGradientLogParams(X, W));
}
BENCHMARK(BM_ContractMatern52Pairwise)->Arg(250)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_GramProduct(benchmark::State& state) {
  const auto kernel = ActionContextProduct();
  const Eigen::MatrixXd X = ContextPoints(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(kernel->Gram(X));
}
BENCHMARK(BM_GramProduct)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_ContractProduct(benchmark::State& state) {
  const auto kernel = ActionContextProduct();
  const int n = static_cast<int>(state.range(0));
  const Eigen::MatrixXd X = ContextPoints(n);
  const Eigen::MatrixXd W = Eigen::MatrixXd::Ones(n, n);
  for (auto _ : state) benchmark::DoNotOptimize(kernel->ContractGradientLogParams(X, W));
}
BENCHMARK(BM_ContractProduct)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_ContractProductPairwise(benchmark::State& state) {
  const PairwiseOnly kernel(ActionContextProduct());
  const int n = static_cast<int>(state.range(0));
  const Eigen::MatrixXd X = ContextPoints(n);
  const Eigen::MatrixXd W = Eigen::MatrixXd::Ones(n, n);
  for (auto _ : state) benchmark::DoNotOptimize(kernel.ContractGradientLogParams(X, W));
}
BENCHMARK(BM_ContractProductPairwise)->Arg(1000)->Unit(benchmark::kMillisecond);

// Model 0: Matern-5/2 ARD over the 6 dims; model 1: Matern-5/2 ARD over dims 0-3 times
// Matern-5/2 ARD over dims 4-5 (the Optimizer's default kernel with 2 context dims).
std::unique_ptr<Kernel> PlainOrContextual(int model) {
  if (model == 0) return Matern52();
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeMatern52(FirstDims(4), true, 1.0, 0.3));
  parts.push_back(MakeMatern52(DimRange(4, 2), true, 1.0, 0.3));
  return MakeProduct(std::move(parts));
}

// Named functions, so that callgrind can collect exactly their cost:
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*LikelihoodOnce*'
//     kernel_bench --benchmark_filter='BM_LikelihoodGradient/model:1/t:200/threads:1/'
//     --benchmark_min_time=0
// (and '*MeanAndVarianceOnce*' for BM_MeanAndVarianceGradient). Each benchmark makes one call
// outside them first, so that one-time costs (lazy symbol binding, first allocations) are not
// counted.
__attribute__((noinline)) double LikelihoodOnce(const Kernel& kernel, const Eigen::MatrixXd& X,
                                                const Eigen::VectorXd& y, int threads,
                                                Eigen::VectorXd* gradient) {
  return LogMarginalLikelihood(kernel, X, y, 0.01, gradient, 1e-2, threads);
}

__attribute__((noinline)) void MeanAndVarianceOnce(const GaussianProcess& gp,
                                                   const ConstVectorRef& x, double* mean,
                                                   double* variance, Eigen::VectorXd* d_mean,
                                                   Eigen::VectorXd* d_variance) {
  gp.MeanAndVariance(x, mean, variance, d_mean, d_variance);
}

void BM_LikelihoodGradient(benchmark::State& state) {
  const auto kernel = PlainOrContextual(static_cast<int>(state.range(0)));
  const int n = static_cast<int>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  const Eigen::MatrixXd X = Points(n, 1);
  const Eigen::VectorXd y = Points(n, 6).colwise().sum().transpose().array() - 3.0;
  Eigen::VectorXd gradient;
  LogMarginalLikelihood(*kernel, X, y, 0.01, &gradient, 1e-2, threads);
  for (auto _ : state) {
    benchmark::DoNotOptimize(LikelihoodOnce(*kernel, X, y, threads, &gradient));
  }
}
BENCHMARK(BM_LikelihoodGradient)
    ->ArgNames({"model", "t", "threads"})
    ->ArgsProduct({{0, 1}, {200, 500}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_MeanAndVarianceGradient(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  GaussianProcess gp(PlainOrContextual(static_cast<int>(state.range(0))), kDim);
  gp.AddObservations(Points(n, 1), Points(n, 6).colwise().sum().transpose());
  const Eigen::MatrixXd queries = Points(64, 8);
  double mean = 0.0, variance = 0.0;
  Eigen::VectorXd d_mean, d_variance;
  Eigen::Index next = 0;
  gp.MeanAndVariance(queries.col(1), &mean, &variance, &d_mean, &d_variance);
  for (auto _ : state) {
    MeanAndVarianceOnce(gp, queries.col(next), &mean, &variance, &d_mean, &d_variance);
    benchmark::DoNotOptimize(d_variance.data());
    next = (next + 1) % queries.cols();
  }
}
BENCHMARK(BM_MeanAndVarianceGradient)
    ->ArgNames({"model", "t"})
    ->ArgsProduct({{0, 1}, {200}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
