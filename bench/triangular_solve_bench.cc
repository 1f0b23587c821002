// The linear algebra of one acquisition evaluation with its gradient (GaussianProcess::
// MeanAndVariance): v = L^-1 k and w = L^-T v for a Cholesky factor L of a t x t Gram matrix,
// against what could replace the two triangular solves. Each row computes v and w (or w and
// k^T w, all the variance and its gradient need) for one k; the alternatives that keep an
// explicit inverse would update it once per observation (O(t^2)), not counted here.
//   BM_EigenSolves      Eigen's two vector triangular solves, as the GP runs them
//   BM_OpenBlasSolves   OpenBLAS's dtrsv twice (built with GPBANDIT_WITH_OPENBLAS only)
//   BM_InverseFactor    two triangular products with an explicit L^-1
//   BM_InverseGram      one product with an explicit K^-1 (w = K^-1 k, var = k(x,x) - k^T w)
//   BM_EigenSolve32, BM_OpenBlasSolve32: the raw-sample scoring's solve, 32 right-hand sides
//   BM_Avx2Solve32      the same with numerics/vector_solve_avx2.h's two-column kernel (on a CPU
//                       with AVX2 and FMA)
//   BM_LibrarySolve32   the same through numerics/dense_kernels.h, whichever kernel it chooses
// Arg: t. The figures and what was concluded: docs/benchmarks.md, "Where the time goes".
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <cmath>

#include "numerics/cpu_features.h"
#include "numerics/dense_kernels.h"
#include "numerics/vector_solve_avx2.h"

#ifdef GPBANDIT_HAVE_OPENBLAS
extern "C" {
void dtrsv_(const char* uplo, const char* trans, const char* diag, const int* n, const double* a,
            const int* lda, double* x, const int* incx);
void dtrsm_(const char* side, const char* uplo, const char* trans, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b,
            const int* ldb);
void openblas_set_num_threads(int num_threads);
}
#endif

namespace {

// The Cholesky factor of a squared-exponential Gram matrix in 6-D (lengthscale 0.5, noise
// 1e-6), one cross-covariance column k, and 32 right-hand sides for the scoring's solve (any
// values: the solve's time does not depend on them).
struct Factor {
  explicit Factor(int t) {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Random(6, t);
    const Eigen::VectorXd x = Eigen::VectorXd::Random(6);
    Eigen::MatrixXd K(t, t);
    k.resize(t);
    for (int i = 0; i < t; ++i) {
      k(i) = std::exp(-(X.col(i) - x).squaredNorm() / 0.5);
      for (int j = 0; j < t; ++j) K(i, j) = std::exp(-(X.col(i) - X.col(j)).squaredNorm() / 0.5);
    }
    K.diagonal().array() += 1e-6;
    L = K.llt().matrixL();
    cross = Eigen::MatrixXd::Random(t, 32).cwiseAbs();
  }
  Eigen::MatrixXd InverseFactor() const {
    return L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(L.rows(), L.cols()));
  }
  Eigen::MatrixXd L;
  Eigen::VectorXd k;
  Eigen::MatrixXd cross;
};

void BM_EigenSolves(benchmark::State& state) {
  const Factor f(static_cast<int>(state.range(0)));
  Eigen::VectorXd v, w;
  for (auto _ : state) {
    v = f.k;
    f.L.triangularView<Eigen::Lower>().solveInPlace(v);
    w = v;
    f.L.transpose().triangularView<Eigen::Upper>().solveInPlace(w);
    benchmark::DoNotOptimize(w.data());
  }
}

void BM_InverseFactor(benchmark::State& state) {
  const Factor f(static_cast<int>(state.range(0)));
  const Eigen::MatrixXd inverse = f.InverseFactor();
  Eigen::VectorXd v(f.k.size()), w(f.k.size());
  for (auto _ : state) {
    v.noalias() = inverse.triangularView<Eigen::Lower>() * f.k;
    w.noalias() = inverse.transpose().triangularView<Eigen::Upper>() * v;
    benchmark::DoNotOptimize(w.data());
  }
}

void BM_InverseGram(benchmark::State& state) {
  const Factor f(static_cast<int>(state.range(0)));
  const Eigen::MatrixXd inverse_factor = f.InverseFactor();
  const Eigen::MatrixXd inverse = inverse_factor.transpose() * inverse_factor;
  Eigen::VectorXd w(f.k.size());
  for (auto _ : state) {
    w.noalias() = inverse * f.k;
    benchmark::DoNotOptimize(f.k.dot(w));
  }
}

void BM_EigenSolve32(benchmark::State& state) {
  const Factor f(static_cast<int>(state.range(0)));
  Eigen::MatrixXd V;
  for (auto _ : state) {
    V = f.cross;
    f.L.triangularView<Eigen::Lower>().solveInPlace(V);
    benchmark::DoNotOptimize(V.data());
  }
}

void BM_Avx2Solve32(benchmark::State& state) {
  if (!gpbandit::internal::Avx2FmaAvailable()) {
    state.SkipWithError("no AVX2 and FMA on this CPU");
    return;
  }
  const Factor f(static_cast<int>(state.range(0)));
  const long t = static_cast<long>(f.k.size());
  Eigen::MatrixXd V;
  for (auto _ : state) {
    V = f.cross;
    gpbandit::internal::ForwardSolveColumnsAvx2(t, f.L.data(), t, V.cols(), V.data(), t);
    benchmark::DoNotOptimize(V.data());
  }
}

void BM_LibrarySolve32(benchmark::State& state) {
  const Factor f(static_cast<int>(state.range(0)));
  Eigen::MatrixXd V;
  for (auto _ : state) {
    V = f.cross;
    gpbandit::LowerTriangularSolveInPlace(f.L, V);
    benchmark::DoNotOptimize(V.data());
  }
}

#ifdef GPBANDIT_HAVE_OPENBLAS
void BM_OpenBlasSolves(benchmark::State& state) {
  openblas_set_num_threads(1);
  const Factor f(static_cast<int>(state.range(0)));
  const int t = static_cast<int>(f.k.size()), one = 1;
  const char lower = 'L', plain = 'N', transposed = 'T', non_unit = 'N';
  Eigen::VectorXd w;
  for (auto _ : state) {
    w = f.k;
    dtrsv_(&lower, &plain, &non_unit, &t, f.L.data(), &t, w.data(), &one);
    dtrsv_(&lower, &transposed, &non_unit, &t, f.L.data(), &t, w.data(), &one);
    benchmark::DoNotOptimize(w.data());
  }
}

void BM_OpenBlasSolve32(benchmark::State& state) {
  openblas_set_num_threads(1);
  const Factor f(static_cast<int>(state.range(0)));
  const int t = static_cast<int>(f.k.size()), columns = 32;
  const char left = 'L', lower = 'L', plain = 'N', non_unit = 'N';
  const double one = 1.0;
  Eigen::MatrixXd V;
  for (auto _ : state) {
    V = f.cross;
    dtrsm_(&left, &lower, &plain, &non_unit, &t, &columns, &one, f.L.data(), &t, V.data(), &t);
    benchmark::DoNotOptimize(V.data());
  }
}
BENCHMARK(BM_OpenBlasSolves)->Arg(50)->Arg(100)->Arg(200)->Arg(400);
BENCHMARK(BM_OpenBlasSolve32)->Arg(50)->Arg(100)->Arg(200)->Arg(400);
#endif

BENCHMARK(BM_EigenSolves)->Arg(50)->Arg(100)->Arg(200)->Arg(400);
BENCHMARK(BM_InverseFactor)->Arg(50)->Arg(100)->Arg(200)->Arg(400);
BENCHMARK(BM_InverseGram)->Arg(50)->Arg(100)->Arg(200)->Arg(400);
BENCHMARK(BM_EigenSolve32)->Arg(50)->Arg(100)->Arg(200)->Arg(400);
BENCHMARK(BM_Avx2Solve32)->Arg(50)->Arg(100)->Arg(200)->Arg(400)->Arg(800)->Arg(1600);
BENCHMARK(BM_LibrarySolve32)->Arg(50)->Arg(100)->Arg(200)->Arg(400)->Arg(800)->Arg(1600);

}  // namespace

BENCHMARK_MAIN();
