// The posterior of a GP over a fixed finite candidate set D = {x_1..x_N}, kept as a mean vector
// and a covariance matrix and updated in O(N^2) per observation, independently of t.
//
// Chowdhury & Gopalan (2017), appendix F: after observing y at candidate i,
//   mu_t     = mu_{t-1} + Sigma_{t-1}(:, i) (y - mu_{t-1}(i)) / (lambda + Sigma_{t-1}(i, i))
//   Sigma_t  = Sigma_{t-1} - Sigma_{t-1}(:, i) Sigma_{t-1}(i, :) / (lambda + Sigma_{t-1}(i, i))
// starting from mu_0 = prior_mean (a constant) and Sigma_0 = K(D, D). This equals exact GP
// regression on the same observations (tested against GaussianProcess). Works with any kernel,
// the index kernel included. There is no output standardization here: this is the papers'
// known-prior setting.
//
// Thread safety: const members may run concurrently; Observe needs exclusive access.
// Determinism: no random numbers but those SampleJoint draws from the caller's rng.
#ifndef GPBANDIT_GP_FINITE_SET_POSTERIOR_H_
#define GPBANDIT_GP_FINITE_SET_POSTERIOR_H_

#include <Eigen/Core>

#include "gpbandit/kernel/kernel.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {

class FiniteSetPosterior {
 public:
  // candidates: dim x N (N >= 1); noise_variance lambda > 0. Throws std::invalid_argument for
  // an empty candidate set, a candidate the kernel rejects, or lambda <= 0 / non-finite.
  FiniteSetPosterior(const Kernel& kernel, const Eigen::MatrixXd& candidates, double noise_variance,
                     double prior_mean = 0.0);

  int size() const { return static_cast<int>(mean_.size()); }
  int num_observations() const { return t_; }
  double noise_variance() const { return noise_variance_; }
  const Eigen::VectorXd& mean() const { return mean_; }
  const Eigen::MatrixXd& covariance() const { return covariance_; }
  // The diagonal of the covariance, clamped at 0.
  Eigen::VectorXd variances() const;

  // Observes y at candidate `index` (rank-one update, O(N^2)). Throws std::invalid_argument for
  // an index out of range or a non-finite y; unchanged on throw.
  void Observe(int index, double y);

  // Multiplies the outputs observed so far, and the prior mean, by 2^exponent: the mean vector
  // and the prior mean scale exactly (bit for bit what the same observations scaled would have
  // given, barring overflow and underflow), the covariance does not change. O(N).
  void ScaleOutputs(int exponent);

  // 1/2 sum_t log(1 + Sigma_{t-1}(i_t, i_t) / lambda).
  double InformationGain() const { return information_gain_; }

  // r_t = K(D, X) (K(X, X) + lambda I)^-1 1: the posterior mean of a zero-mean prior had every
  // observation been 1, kept by the same rank-one steps (O(N) each). The posterior mean under
  // another constant prior mean c follows from it: mean() + (c - prior_mean) (1 - r_t)
  // (MeanUnderPriorMean), which is what a model whose output offset moves with every
  // observation (GaussianProcess's standardization) needs.
  const Eigen::VectorXd& ones_response() const { return ones_response_; }
  double prior_mean() const { return prior_mean_; }
  // The posterior mean at D under constant prior mean c (same kernel, noise and observations).
  Eigen::VectorXd MeanUnderPriorMean(double c) const;

  // Samples of f over D from N(mean, scale^2 Sigma): N x num_samples.
  Eigen::MatrixXd SampleJoint(int num_samples, double scale, Rng& rng) const;
  // Zero-mean draws from N(0, scale^2 Sigma): N x num_samples (SampleJoint minus the mean).
  Eigen::MatrixXd SampleDeviations(int num_samples, double scale, Rng& rng) const;

 private:
  Eigen::VectorXd mean_;
  Eigen::VectorXd ones_response_;
  double prior_mean_;
  Eigen::MatrixXd covariance_;
  double noise_variance_;
  double information_gain_ = 0.0;
  int t_ = 0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_GP_FINITE_SET_POSTERIOR_H_
