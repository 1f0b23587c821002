// Cholesky factorization with a jitter ladder, shared by the GP, the finite-set posterior, the
// samplers and the marginal likelihood: one place decides how ill-conditioned matrices
// (duplicate points, zero noise) are made factorizable.
#ifndef GPBANDIT_NUMERICS_CHOLESKY_H_
#define GPBANDIT_NUMERICS_CHOLESKY_H_

#include <Eigen/Core>

namespace gpbandit {

struct JitteredCholesky {
  Eigen::MatrixXd lower;  // L with L L^T = A + jitter I (lower triangle; upper is zero)
  double jitter = 0.0;    // absolute jitter that was added (0 if none was needed)
  bool ok = false;        // false if even the largest jitter failed
};

// Factorizes the symmetric matrix A (only its lower triangle is read). Tries A itself, then
// A + j I for j = 1e-10 m, 1e-9 m, ..., up to max_relative_jitter * m, where m = mean |diag A|
// (1 if that is 0). A factorization counts as failed when a pivot is not positive and finite.
JitteredCholesky FactorizeWithJitter(const Eigen::MatrixXd& A, double max_relative_jitter = 1e-2);
// The same into *result, reusing the storage of result->lower when its size already fits
// (for callers that factorize same-size matrices in a loop, like the likelihood's optimizer).
void FactorizeWithJitter(const Eigen::MatrixXd& A, double max_relative_jitter,
                         JitteredCholesky* result);

// The scale m used above: mean |diag A|, or 1 if that is 0 or not finite.
double CholeskyScale(const Eigen::MatrixXd& A);

// Whether a pivot squared (a new diagonal entry of L, squared) is safely positive for a matrix of
// scale m: the same test FactorizeWithJitter applies, for incremental appends.
bool PivotAcceptable(double pivot_squared, double scale);

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_CHOLESKY_H_
