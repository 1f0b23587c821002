#include "gpbandit/maximizer/candidate_posterior.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"

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
    : posterior_(posterior), means_(posterior.mean()), variances_(posterior.variances()) {}

FiniteSetCandidatePosterior::FiniteSetCandidatePosterior(const FiniteSetPosterior& posterior,
                                                         double reference, double output_offset,
                                                         double output_scale)
    : posterior_(posterior), output_scale_(output_scale) {
  if (!std::isfinite(reference) || !std::isfinite(output_offset))
    throw std::invalid_argument("reference = " + FormatDouble(reference) + ", output_offset = " +
                                FormatDouble(output_offset) + ": must be finite");
  if (!(output_scale > 0.0) || !std::isfinite(output_scale))
    throw std::invalid_argument("output_scale = " + FormatDouble(output_scale) +
                                ": must be finite and > 0");
  means_ = posterior.MeanUnderPriorMean(output_offset - reference).array() + reference;
  variances_ = (output_scale * output_scale) * posterior.variances();
}

Eigen::MatrixXd FiniteSetCandidatePosterior::SampleJoint(int num_samples, double scale,
                                                         Rng& rng) const {
  CheckSamplingArgs(num_samples, scale);
  Eigen::MatrixXd samples = posterior_.SampleDeviations(num_samples, scale * output_scale_, rng);
  samples.colwise() += means_;
  return samples;
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
