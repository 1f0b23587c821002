#include "numerics/cholesky.h"

#include <algorithm>
#include <cmath>

#include "numerics/dense_kernels.h"

namespace gpbandit {
namespace {

// A pivot this small relative to the matrix scale makes the triangular solves amplify roundoff
// by ~1e6 or more; treat it as a failed factorization and climb the jitter ladder instead.
constexpr double kMinRelativePivotSquared = 1e-12;

bool PivotsAcceptable(const Eigen::MatrixXd& lower, double scale) {
  for (Eigen::Index i = 0; i < lower.rows(); ++i) {
    const double p = lower(i, i);
    if (!std::isfinite(p) || p * p <= kMinRelativePivotSquared * scale) return false;
  }
  return true;
}

}  // namespace

bool PivotAcceptable(double pivot_squared, double scale) {
  return std::isfinite(pivot_squared) && pivot_squared > kMinRelativePivotSquared * scale;
}

double CholeskyScale(const Eigen::MatrixXd& A) {
  if (A.rows() == 0) return 1.0;
  const double m = A.diagonal().cwiseAbs().mean();
  return (m > 0.0 && std::isfinite(m)) ? m : 1.0;
}

JitteredCholesky FactorizeWithJitter(const Eigen::MatrixXd& A, double max_relative_jitter) {
  JitteredCholesky result;
  FactorizeWithJitter(A, max_relative_jitter, &result);
  return result;
}

void FactorizeWithJitter(const Eigen::MatrixXd& A, double max_relative_jitter,
                         JitteredCholesky* result) {
  result->jitter = 0.0;
  result->ok = false;
  const Eigen::Index n = A.rows();
  const double scale = CholeskyScale(A);
  double relative = 0.0;
  // One working copy, factorized in place (an LLT object and matrixL() would copy twice more;
  // at t of a few hundred those copies and their page faults cost as much as the factorization),
  // by OpenBLAS where the build has it (numerics/dense_kernels.h).
  Eigen::MatrixXd& work = result->lower;
  while (true) {
    const double jitter = relative * scale;
    work = A;
    work.diagonal().array() += jitter;
    if (CholeskyLowerInPlace(work)) {
      work.triangularView<Eigen::StrictlyUpper>().setZero();
      if (PivotsAcceptable(work, scale)) {
        result->jitter = jitter;
        result->ok = true;
        return;
      }
    }
    if (n == 0 || relative >= max_relative_jitter) {
      work.resize(0, 0);
      return;
    }
    relative = (relative == 0.0) ? 1e-10 : std::min(relative * 10.0, max_relative_jitter);
  }
}

}  // namespace gpbandit
