// The Cholesky factorization of a Gram matrix (d = 6, squared exponential, lengthscale 0.5, noise
// 1e-3): Eigen's LLT as this build compiles it against numerics/dense_kernels.h's (OpenBLAS's
// dpotrf when the build has it). In a -DGPBANDIT_NATIVE=ON build, BM_EigenLlt is Eigen compiled as
// limbo compiles it (-march=native), the factorization of limbo's refactorization. Arg: n.
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <cmath>

#include "numerics/dense_kernels.h"

namespace gpbandit {
namespace {

Eigen::MatrixXd Gram(int n) {
  const Eigen::MatrixXd X = Eigen::MatrixXd::Random(6, n);
  Eigen::MatrixXd K(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) K(i, j) = std::exp(-(X.col(i) - X.col(j)).squaredNorm() / 0.5);
  K.diagonal().array() += 1e-3;
  return K;
}

// Times factorize(A) on a fresh copy of the Gram matrix each iteration.
template <typename Factorize>
void TimeFactorization(benchmark::State& state, Factorize factorize) {
  const Eigen::MatrixXd K = Gram(static_cast<int>(state.range(0)));
  Eigen::MatrixXd A = K;
  for (auto _ : state) {
    state.PauseTiming();
    A = K;
    state.ResumeTiming();
    benchmark::DoNotOptimize(factorize(A));
  }
}

void BM_EigenLlt(benchmark::State& state) {
  TimeFactorization(state, [](Eigen::MatrixXd& A) {
    return Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>>(A).info() == Eigen::Success;
  });
}

void BM_DenseKernelsCholesky(benchmark::State& state) {
  TimeFactorization(state, [](Eigen::MatrixXd& A) { return CholeskyLowerInPlace(A); });
  state.SetLabel(DenseKernelsDescription());
}

BENCHMARK(BM_EigenLlt)->Arg(500)->Arg(1000)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseKernelsCholesky)->Arg(500)->Arg(1000)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpbandit

BENCHMARK_MAIN();
