#include "gpbandit/acquisition/candidate_posterior.h"

#include <stdexcept>
#include <string>

#include "gpbandit/gp/format.h"

namespace gpbandit {
namespace {

void CheckSamplingArgs(int num_samples, double scale) {
  if (num_samples < 1)
    throw std::invalid_argument("num_samples = " + std::to_string(num_samples) + ": must be >= 1");
  if (!(scale >= 0.0) || !std::isfinite(scale))
    throw std::invalid_argument("scale = " + FormatDouble(scale) + ": must be finite and >= 0");
}

}  // namespace

FiniteSetCandidatePosterior::FiniteSetCandidatePosterior(const FiniteSetPosterior& posterior)
    : posterior_(posterior), variances_(posterior.variances()) {}

Eigen::MatrixXd FiniteSetCandidatePosterior::SampleJoint(int num_samples, double scale,
                                                         Rng& rng) const {
  CheckSamplingArgs(num_samples, scale);
  return posterior_.SampleJoint(num_samples, scale, rng);
}

GpCandidatePosterior::GpCandidatePosterior(const GaussianProcess& gp,
                                           const Eigen::MatrixXd& candidates)
    : gp_(gp), candidates_(candidates) {
  if (candidates.cols() < 1) throw std::invalid_argument("candidates: no column (N = 0)");
  if (candidates.rows() != gp.input_dim())
    throw std::invalid_argument("candidates: " + std::to_string(candidates.rows()) +
                                " rows, the GP's input_dim is " + std::to_string(gp.input_dim()));
  gp.Predict(candidates, &means_, &variances_);
  variances_ = variances_.cwiseMax(0.0);
}

Eigen::MatrixXd GpCandidatePosterior::SampleJoint(int num_samples, double scale, Rng& rng) const {
  CheckSamplingArgs(num_samples, scale);
  // GaussianProcess draws from N(mu, Sigma); scaling the deviation gives N(mu, scale^2 Sigma).
  Eigen::MatrixXd samples = gp_.SampleJoint(candidates_, num_samples, rng);
  samples.colwise() -= means_;
  samples *= scale;
  samples.colwise() += means_;
  return samples;
}

}  // namespace gpbandit
