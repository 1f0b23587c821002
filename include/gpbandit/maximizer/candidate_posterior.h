// CandidatePosterior (strategy.h) implementations: the posterior over a finite candidate set as
// the strategies see it.
//
// FiniteSetCandidatePosterior views a FiniteSetPosterior (the O(N^2)-per-round rank-one
// posterior of Chowdhury & Gopalan appendix F; the one to use for long finite-set runs). It
// copies the means and clamped variances at construction (O(N)) and keeps a reference to the
// posterior for sampling, so build a new one after every Observe. The second constructor
// reads the posterior as a GaussianProcess with standardized outputs does (gaussian_process.h):
// the posterior was fed y - reference with kernel and noise in standardized units, and the
// model's current output offset c and scale s give means reference + MeanUnderPriorMean(c -
// reference) and covariance s^2 Sigma: the GaussianProcess's own predictions, by rank-one
// steps.
//
// GpCandidatePosterior evaluates a GaussianProcess at a candidate matrix (dim x N, one point
// per column, in the model's input units) once at construction: O(N t^2). It keeps references
// to the GP and the candidates, which must outlive it and stay unchanged.
//
// SampleJoint returns draws from N(means, scale^2 Sigma), N x num_samples. Const members are
// thread-safe.
#ifndef GPBANDIT_MAXIMIZER_CANDIDATE_POSTERIOR_H_
#define GPBANDIT_MAXIMIZER_CANDIDATE_POSTERIOR_H_

#include <Eigen/Core>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/gp/finite_set_posterior.h"
#include "gpbandit/gp/gaussian_process.h"

namespace gpbandit {

class FiniteSetCandidatePosterior : public CandidatePosterior {
 public:
  explicit FiniteSetCandidatePosterior(const FiniteSetPosterior& posterior);
  // reference, output_offset: finite; output_scale: finite and > 0 (original units).
  FiniteSetCandidatePosterior(const FiniteSetPosterior& posterior, double reference,
                              double output_offset, double output_scale);
  int size() const override { return posterior_.size(); }
  const Eigen::VectorXd& means() const override { return means_; }
  const Eigen::VectorXd& variances() const override { return variances_; }
  Eigen::MatrixXd SampleJoint(int num_samples, double scale, Rng& rng) const override;

 private:
  const FiniteSetPosterior& posterior_;
  double output_scale_ = 1.0;
  Eigen::VectorXd means_;
  Eigen::VectorXd variances_;
};

class GpCandidatePosterior : public CandidatePosterior {
 public:
  // Throws std::invalid_argument if candidates has no column or the wrong number of rows.
  GpCandidatePosterior(const GaussianProcess& gp, const Eigen::MatrixXd& candidates);
  int size() const override { return static_cast<int>(means_.size()); }
  const Eigen::VectorXd& means() const override { return means_; }
  const Eigen::VectorXd& variances() const override { return variances_; }
  Eigen::MatrixXd SampleJoint(int num_samples, double scale, Rng& rng) const override;

 private:
  const GaussianProcess& gp_;
  const Eigen::MatrixXd& candidates_;
  Eigen::VectorXd means_;
  Eigen::VectorXd variances_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_CANDIDATE_POSTERIOR_H_
