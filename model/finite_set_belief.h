// The posterior over a finite candidate set as an Optimizer reads it: the rank-one posterior of
// Chowdhury & Gopalan (2017), appendix F (gp/finite_set_posterior.h), with the output
// standardization of a GaussianProcess (gaussian_process.h) kept beside it, so that it answers
// what an exact GP holding the same observations would, without the exact GP: O(N^2) per
// observation and O(N^2) memory whatever t.
//
// Model. With standardization the GP is fitted to (y - c) / s, c and s the mean and standard
// deviation of its outputs (s = 1 with fewer than two outputs or equal ones), kernel and noise
// lambda in standardized units. Its mean in original units is c + k^T (K + lambda I)^-1 (y - c):
// the posterior mean under the constant prior mean c of the kernel k itself, whatever s; its
// variance is s^2 (k(x, x) - k^T (K + lambda I)^-1 k). So the rank-one posterior is fed the
// outputs minus a reference r (the first output, so that rewards with a large mean and a small
// spread lose no accuracy), and read with the current c and s: mean r +
// FiniteSetPosterior::MeanUnderPriorMean(c - r), covariance s^2 Sigma. Without standardization,
// c = 0, s = 1 and r = 0: the outputs as given, the papers' known prior (bit for bit the
// FiniteSetPosterior of the regret studies' loop, acquisition/finite_bandit_loop.h). The
// standardization is kept by Welford's running mean and sum of squared deviations (O(1) per
// observation): equal outputs give exactly s = 1, as the GP's.
//
// Hallucinating a pending point (GP-BUCB) is Observe at its own mean on a copy (O(N^2)): the
// copy's standardization takes the hallucinated output in, as the exact GP's does.
//
// Outputs' magnitudes must stay below 2^500 (the Optimizer's reward unit keeps them below 2^256)
// so that the running sums cannot overflow. Deterministic: the state is a function of the
// observations in order (a log replayed rebuilds the same bits). Thread safety: const members
// may run concurrently; Observe and ScaleOutputs need exclusive access. Internal to model/.
#ifndef GPBANDIT_MODEL_FINITE_SET_BELIEF_H_
#define GPBANDIT_MODEL_FINITE_SET_BELIEF_H_

#include <Eigen/Core>

#include "gpbandit/gp/finite_set_posterior.h"
#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

class FiniteSetBelief {
 public:
  // unit_candidates: input_dim x N (N >= 1), as the kernel sees them; lambda: the noise
  // variance, finite and > 0 (standardized units when standardize). Throws
  // std::invalid_argument as FiniteSetPosterior does.
  FiniteSetBelief(const Kernel& kernel, const Eigen::MatrixXd& unit_candidates, double lambda,
                  bool standardize);

  int size() const { return posterior_.size(); }
  int num_observations() const { return posterior_.num_observations(); }
  double noise_variance() const { return posterior_.noise_variance(); }

  // Observes output y (finite) at candidate `index`: O(N^2). Throws std::invalid_argument for
  // an index out of range or a non-finite y; unchanged then.
  void Observe(int index, double y);
  // Multiplies every output so far by 2^exponent (GaussianProcess::ScaleOutputs): O(N), exact.
  void ScaleOutputs(int exponent);

  // The standardization's offset c and scale s (0 and 1 without standardization).
  double output_offset() const;
  double output_scale() const;
  // The posterior of the outputs minus reference(), kernel and noise in standardized units.
  const FiniteSetPosterior& posterior() const { return posterior_; }
  double reference() const { return reference_; }
  // The posterior mean and variance of f at candidate `index`, original units (unchecked
  // index); and the means at every candidate (O(N)).
  double Mean(int index) const;
  double Variance(int index) const;
  Eigen::VectorXd Means() const;

 private:
  FiniteSetPosterior posterior_;
  bool standardize_;
  double reference_ = 0.0;
  // Welford: the running mean of the outputs and the sum of their squared deviations from it.
  double moment_mean_ = 0.0;
  double moment_squares_ = 0.0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_FINITE_SET_BELIEF_H_
