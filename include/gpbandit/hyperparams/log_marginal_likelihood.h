// The log marginal likelihood of a Gaussian process and its gradient with respect to the
// log-hyperparameters (Rasmussen & Williams 2006, eqs. 2.30 and 5.9):
//
//   log p(y | X, theta) = -1/2 y^T Ky^-1 y - 1/2 log det Ky - n/2 log(2 pi),
//   Ky = K(X, X) + (noise_variance + jitter) I,
//   d/d theta_j = 1/2 tr((alpha alpha^T - Ky^-1) dKy/d theta_j),   alpha = Ky^-1 y.
//
// theta = [kernel log-params..., log noise_variance]. The gradient never forms one n x n
// matrix per hyperparameter: the Gram matrix comes from Kernel::GramAndParts, which keeps what
// the kernel's contraction reuses (a stationary kernel's slopes; a composite's parts), and
// W = alpha alpha^T - Ky^-1 goes to Kernel::ContractGradientLogParamsFromParts once; the noise
// entry is noise_variance/2 tr(W).
//
// The jitter is the smallest rung of numerics/cholesky.h's ladder that factorizes Ky (0 for any
// well-conditioned Ky); it is held constant in the gradient, which is therefore exact wherever
// the jitter does not change (everywhere, once the noise is above the ladder's first rung).
//
// Cost: O(n^3) for the factorization and Ky^-1, plus the kernel's O(n^2 d) contraction.
// Thread safety: a pure function; safe to call concurrently with distinct output pointers.
// Called from inside a parallel region it stays on the calling thread (OpenMP's default of no
// nested teams).
// Determinism: the value and gradient do not depend on num_threads (splits fixed by n).
#ifndef GPBANDIT_HYPERPARAMS_LOG_MARGINAL_LIKELIHOOD_H_
#define GPBANDIT_HYPERPARAMS_LOG_MARGINAL_LIKELIHOOD_H_

#include <Eigen/Core>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

// log p(y | X, theta) at the kernel's current log-params and the given noise variance, and (if
// gradient is non-null) its gradient, resized to kernel.NumParams() + 1: d/d kernel log-params,
// then d/d log noise_variance.
//
// X: input_dim x n, one point per column (input_dim >= kernel.MinInputDim()), in the units the
//    kernel expects (the unit cube inside the optimizer).
// y: n outputs, as the model sees them (standardized outputs for a standardizing GP).
// noise_variance >= 0 and finite (0 relies on the jitter ladder).
// max_relative_jitter: the largest jitter tried, relative to the mean Gram diagonal (as in
//    GaussianProcessOptions); in (0, 1].
// num_threads: OpenMP threads for the gradient's O(n^3) and O(n^2) work (the Gram matrix, the
//    inverse, the contraction; the Cholesky factorization stays on one thread); 0 = the OpenMP
//    default. The work is split the same way for any thread count, so the value and gradient
//    do not depend on it. >= 0, default 1.
//
// Returns -infinity (and leaves *gradient as zeros) when Ky cannot be factorized even with the
// largest jitter; may return a non-finite value when the data overflow (e.g. |y| ~ 1e200), which
// callers must treat as a failed evaluation. n = 0 gives 0 with a zero gradient.
// Throws std::invalid_argument (naming the argument and the values) for X.cols() != y.size(),
// X.rows() < kernel.MinInputDim(), a negative or non-finite noise_variance, a
// max_relative_jitter outside (0, 1], or a negative num_threads.
double LogMarginalLikelihood(const Kernel& kernel, const Eigen::MatrixXd& X,
                             const Eigen::VectorXd& y, double noise_variance,
                             Eigen::VectorXd* gradient /* may be null */,
                             double max_relative_jitter = 1e-2, int num_threads = 1);

}  // namespace gpbandit

#endif  // GPBANDIT_HYPERPARAMS_LOG_MARGINAL_LIKELIHOOD_H_
