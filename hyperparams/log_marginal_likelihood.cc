#include "gpbandit/hyperparams/log_marginal_likelihood.h"

#include <omp.h>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "numerics/cholesky.h"
#include "numerics/dense_kernels.h"
#include "numerics/thread_policy.h"

namespace gpbandit {
namespace {

constexpr double kLog2Pi = 1.8378770664093454835606594728112;
// Beyond this many observations the workspace is released after each call (it would hold
// ~5 n^2 doubles per thread): there the O(n^3) work dwarfs the cost of fresh allocations.
constexpr int kMaxRetainedSize = 512;

struct LikelihoodWorkspace {
  Eigen::MatrixXd Ky, W;
  JitteredCholesky chol;
  KernelGramCache parts;
};

void CheckArguments(const Kernel& kernel, const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                    double noise_variance, double max_relative_jitter, int num_threads) {
  if (num_threads < 0) {
    throw std::invalid_argument("LogMarginalLikelihood: num_threads must be >= 0, got " +
                                std::to_string(num_threads));
  }
  if (X.cols() != y.size()) {
    std::ostringstream out;
    out << "LogMarginalLikelihood: X has " << X.cols() << " columns (points) but y has " << y.size()
        << " entries";
    throw std::invalid_argument(out.str());
  }
  if (X.cols() > 0 && X.rows() < kernel.MinInputDim()) {
    std::ostringstream out;
    out << "LogMarginalLikelihood: X has " << X.rows() << " rows but the kernel "
        << kernel.Describe() << " needs at least " << kernel.MinInputDim();
    throw std::invalid_argument(out.str());
  }
  if (!std::isfinite(noise_variance) || noise_variance < 0.0) {
    std::ostringstream out;
    out << "LogMarginalLikelihood: noise_variance must be finite and >= 0, got " << noise_variance;
    throw std::invalid_argument(out.str());
  }
  if (!(max_relative_jitter > 0.0 && max_relative_jitter <= 1.0)) {
    std::ostringstream out;
    out << "LogMarginalLikelihood: max_relative_jitter must be in (0, 1], got "
        << max_relative_jitter;
    throw std::invalid_argument(out.str());
  }
}

// Below this size the recursions below stop splitting. Only their top level runs on two
// threads; the levels under it get num_threads = 1.
constexpr Eigen::Index kLeafSize = 48;

// Runs first() and second() (independent, writing disjoint data), on two threads when
// num_threads > 1. Either way each does exactly the same arithmetic.
template <typename First, typename Second>
void RunPair(int num_threads, const First& first, const Second& second) {
  if (num_threads <= 1) {  // no OpenMP region: one costs a system call even for one thread
    first();
    second();
    return;
  }
#pragma omp parallel sections num_threads(2)
  {
#pragma omp section
    first();
#pragma omp section
    second();
  }
}

// L <- L^-1 for a lower-triangular L (strict upper part zero, and left zero). A triangular solve
// against the identity would treat the identity as dense and cost n^3; splitting
// L = [A 0; B C], L^-1 = [A^-1 0; -C^-1 B A^-1 C^-1] costs n^3/3, mostly in matrix products.
// With num_threads > 1 the top level inverts A and C on two threads and then computes the
// columns of -C^-1 B A^-1 in two blocks on two threads. The blocks are fixed by n, so the
// result does not depend on num_threads.
void InvertLowerInPlace(Eigen::Ref<Eigen::MatrixXd> L, int num_threads = 1) {
  const Eigen::Index n = L.rows();
  if (n <= kLeafSize) {
    Eigen::MatrixXd inverse = Eigen::MatrixXd::Identity(n, n);
    L.triangularView<Eigen::Lower>().solveInPlace(inverse);
    L = inverse;
    return;
  }
  const Eigen::Index h = n / 2;
  RunPair(
      num_threads, [&] { InvertLowerInPlace(L.topLeftCorner(h, h)); },
      [&] { InvertLowerInPlace(L.bottomRightCorner(n - h, n - h)); });
  // Column block [c0, c1) of -C^-1 B A^-1 needs only columns c0.. of B and rows c0.. of A^-1's
  // columns [c0, c1) (A^-1 is lower triangular, with exact zeros above the diagonal). The
  // blocks write the columns of B they cover, so both read a copy of B. Splitting at 0.42 h
  // gives the two blocks about equal work.
  const Eigen::Index split = std::max<Eigen::Index>(1, (h * 42) / 100);
  const Eigen::MatrixXd B = L.bottomLeftCorner(n - h, h);
  auto block = [&](Eigen::Index c0, Eigen::Index c1) {
    const Eigen::MatrixXd BA = B.rightCols(h - c0) * L.block(c0, c0, h - c0, c1 - c0);
    L.block(h, c0, n - h, c1 - c0).noalias() =
        -(L.bottomRightCorner(n - h, n - h).triangularView<Eigen::Lower>() * BA);
  };
  RunPair(
      num_threads, [&] { block(0, split); }, [&] { block(split, h); });
}

// The lower triangle of M^T M for a lower-triangular M (the upper triangle is left alone).
// With M = [P 0; Q R]: M^T M = [P^T P + Q^T Q, .; R^T Q, R^T R], which costs n^3/3 against
// n^3/2 for a dense rank update. With num_threads > 1 the top level computes the top-left
// block (P^T P + Q^T Q) on one thread and the bottom blocks (R^T R, R^T Q) on the other: equal
// work, disjoint outputs, and the same arithmetic as on one thread.
void LowerGramOfLowerTriangular(const Eigen::Ref<const Eigen::MatrixXd>& M,
                                Eigen::Ref<Eigen::MatrixXd> out, int num_threads = 1) {
  const Eigen::Index n = M.rows();
  if (n <= kLeafSize) {
    const Eigen::MatrixXd dense = M.triangularView<Eigen::Lower>();
    out.triangularView<Eigen::Lower>() = dense.transpose() * dense;
    return;
  }
  const Eigen::Index h = n / 2;
  const auto Q = M.bottomLeftCorner(n - h, h);
  RunPair(
      num_threads,
      [&] {
        LowerGramOfLowerTriangular(M.topLeftCorner(h, h), out.topLeftCorner(h, h));
        out.topLeftCorner(h, h).selfadjointView<Eigen::Lower>().rankUpdate(Q.transpose(), 1.0);
      },
      [&] {
        LowerGramOfLowerTriangular(M.bottomRightCorner(n - h, n - h),
                                   out.bottomRightCorner(n - h, n - h));
        out.bottomLeftCorner(n - h, h).noalias() =
            M.bottomRightCorner(n - h, n - h).triangularView<Eigen::Lower>().transpose() * Q;
      });
}

// The lower triangle of Ky^-1 into *W from the factor L in *lower (destroyed): LAPACK's dpotri
// where the build has OpenBLAS (numerics/dense_kernels.h), else L^-T L^-1 from one triangular
// inversion in place of L and the Gram above.
void InverseFromFactor(Eigen::MatrixXd* lower, Eigen::MatrixXd* W, int threads) {
  if (CholeskyInverseLowerInPlace(*lower)) {
    W->swap(*lower);
    return;
  }
  InvertLowerInPlace(*lower, threads);
  W->resize(lower->rows(), lower->rows());
  LowerGramOfLowerTriangular(*lower, *W, threads);
}

// The gradient over (log params, log noise) from the factor in workspace->chol (destroyed):
// 0.5 tr(W dKy/dtheta) with W = alpha alpha^T - Ky^-1; alpha = Ky^-1 y.
Eigen::VectorXd GradientFromFactor(const Kernel& kernel, const Eigen::MatrixXd& X,
                                   const Eigen::VectorXd& alpha, double noise_variance, int threads,
                                   LikelihoodWorkspace* workspace) {
  const int num_params = kernel.NumParams();
  Eigen::MatrixXd& W = workspace->W;
  InverseFromFactor(&workspace->chol.lower, &W, threads);
  W.triangularView<Eigen::Lower>() *= -1.0;
  W.selfadjointView<Eigen::Lower>().rankUpdate(alpha, 1.0);
  W.triangularView<Eigen::StrictlyUpper>() = W.transpose();

  Eigen::VectorXd g(num_params + 1);
  if (num_params > 0) {
    g.head(num_params) = 0.5 * kernel.ContractGradientLogParamsFromParts(X, W, workspace->Ky,
                                                                         workspace->parts, threads);
  }
  // dKy / d log noise = noise I (the jitter is a constant of the ladder, not of theta).
  g(num_params) = 0.5 * noise_variance * W.trace();
  return g;
}

}  // namespace

double LogMarginalLikelihood(const Kernel& kernel, const Eigen::MatrixXd& X,
                             const Eigen::VectorXd& y, double noise_variance,
                             Eigen::VectorXd* gradient, double max_relative_jitter,
                             int num_threads) {
  CheckArguments(kernel, X, y, noise_variance, max_relative_jitter, num_threads);
  const int n = static_cast<int>(y.size());
  const int threads = ThreadsForFlops(num_threads, static_cast<double>(n) * n * n);
  const int num_params = kernel.NumParams();
  if (gradient != nullptr) gradient->setZero(num_params + 1);
  if (n == 0) return 0.0;

  // The n x n work matrices live on in a per-thread workspace: a fit evaluates the likelihood
  // many times at the same n, and fresh allocations of this size were returned to the system
  // and faulted back in on every call (a third of the time at n = 100).
  thread_local LikelihoodWorkspace workspace;
  struct ReleaseLarge {
    int n;
    ~ReleaseLarge() {
      if (n > kMaxRetainedSize) workspace = LikelihoodWorkspace();
    }
  } release{n};
  Eigen::MatrixXd& Ky = workspace.Ky;
  // With a gradient, the kernel keeps what its contraction reuses from the Gram pass (a
  // stationary kernel's slopes: its exponentials are taken once per evaluation).
  if (gradient != nullptr) {
    kernel.GramAndParts(X, &Ky, &workspace.parts, threads);
  } else {
    Ky = kernel.Gram(X);
  }
  Ky.diagonal().array() += noise_variance;
  JitteredCholesky& chol = workspace.chol;
  FactorizeWithJitter(Ky, max_relative_jitter, &chol);
  if (!chol.ok) return -std::numeric_limits<double>::infinity();

  const Eigen::MatrixXd& lower = chol.lower;
  const auto L = lower.triangularView<Eigen::Lower>();
  Eigen::VectorXd alpha = L.solve(y);
  const double quadratic = alpha.squaredNorm();  // y^T Ky^-1 y = |L^-1 y|^2
  L.transpose().solveInPlace(alpha);             // alpha is now Ky^-1 y
  const double half_log_det = chol.lower.diagonal().array().log().sum();
  const double lml = -0.5 * quadratic - half_log_det - 0.5 * n * kLog2Pi;
  if (gradient == nullptr) return lml;

  *gradient = GradientFromFactor(kernel, X, alpha, noise_variance, threads, &workspace);
  return lml;
}

}  // namespace gpbandit
