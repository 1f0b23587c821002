// Time per evaluation of the outcome primitives (acquisition/ehvi.h, hypervolume.h): log EHVI
// with its gradient and the box decomposition, for non-dominated fronts of n points on the
// positive orthant of the unit sphere in k = 2 and 3 objectives.
#include <benchmark/benchmark.h>

#include "gpbandit/acquisition/ehvi.h"
#include "gpbandit/acquisition/hypervolume.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace {

Eigen::MatrixXd SphereFront(int k, int n) {
  Rng rng(SeededRng({32, static_cast<std::uint64_t>(k), static_cast<std::uint64_t>(n)}));
  Eigen::MatrixXd front = StandardNormalMatrix(k, n, rng).cwiseAbs();
  for (int j = 0; j < n; ++j) front.col(j).normalize();
  return front;
}

void BM_LogEhvi(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
  const ExpectedHypervolumeImprovement ehvi(SphereFront(k, n), Eigen::VectorXd::Zero(k));
  const Eigen::VectorXd mean = Eigen::VectorXd::Constant(k, 0.6);
  const Eigen::VectorXd sigma = Eigen::VectorXd::Constant(k, 0.1);
  Eigen::VectorXd d_mean, d_sigma;
  for (auto _ : state) benchmark::DoNotOptimize(ehvi.Log(mean, sigma, &d_mean, &d_sigma));
  state.counters["boxes"] = ehvi.boxes().size();
}
BENCHMARK(BM_LogEhvi)->ArgsProduct({{2, 3}, {10, 50, 100}})->Unit(benchmark::kMicrosecond);

void BM_Ehvi(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
  const ExpectedHypervolumeImprovement ehvi(SphereFront(k, n), Eigen::VectorXd::Zero(k));
  const Eigen::VectorXd mean = Eigen::VectorXd::Constant(k, 0.6);
  const Eigen::VectorXd sigma = Eigen::VectorXd::Constant(k, 0.1);
  Eigen::VectorXd d_mean, d_sigma;
  for (auto _ : state) benchmark::DoNotOptimize(ehvi.Value(mean, sigma, &d_mean, &d_sigma));
}
BENCHMARK(BM_Ehvi)->ArgsProduct({{2, 3}, {10, 50, 100}})->Unit(benchmark::kMicrosecond);

void BM_BoxDecomposition(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
  const Eigen::MatrixXd front = SphereFront(k, n);
  for (auto _ : state)
    benchmark::DoNotOptimize(ExpectedHypervolumeImprovement(front, Eigen::VectorXd::Zero(k)));
}
BENCHMARK(BM_BoxDecomposition)->ArgsProduct({{2, 3}, {10, 50, 100}})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
