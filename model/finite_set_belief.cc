#include "model/finite_set_belief.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"

namespace gpbandit {

FiniteSetBelief::FiniteSetBelief(const Kernel& kernel, const Eigen::MatrixXd& unit_candidates,
                                 double lambda, bool standardize)
    : posterior_(kernel, unit_candidates, lambda), standardize_(standardize) {}

void FiniteSetBelief::Observe(int index, double y) {
  if (!std::isfinite(y))
    throw std::invalid_argument("FiniteSetBelief::Observe: y = " + FormatDouble(y) +
                                " is not finite");
  // Without standardization the outputs are used as given (prior mean 0), as the GP does.
  const double reference = standardize_ && num_observations() == 0 ? y : reference_;
  posterior_.Observe(index, y - reference);  // checks the index before any change
  reference_ = reference;
  if (!standardize_) return;
  // Welford's update: stable for a large mean and a small spread, and exactly zero squares
  // while every output is equal.
  const double delta = y - moment_mean_;
  moment_mean_ += delta / static_cast<double>(num_observations());
  moment_squares_ += delta * (y - moment_mean_);
}

void FiniteSetBelief::ScaleOutputs(int exponent) {
  posterior_.ScaleOutputs(exponent);
  reference_ = std::ldexp(reference_, exponent);
  moment_mean_ = std::ldexp(moment_mean_, exponent);
  moment_squares_ = std::ldexp(moment_squares_, 2 * exponent);
}

double FiniteSetBelief::output_offset() const {
  return standardize_ && num_observations() > 0 ? moment_mean_ : 0.0;
}

double FiniteSetBelief::output_scale() const {
  if (!standardize_ || num_observations() < 2 || !(moment_squares_ > 0.0)) return 1.0;
  return std::sqrt(moment_squares_ / static_cast<double>(num_observations()));
}

// The element-wise operations of FiniteSetPosterior::MeanUnderPriorMean and of
// FiniteSetCandidatePosterior, so that one candidate's mean has the bits of the vector's entry.
double FiniteSetBelief::Mean(int index) const {
  const double shift = output_offset() - reference_;
  double mean = posterior_.mean()(index);
  if (shift != posterior_.prior_mean())
    mean = mean + (shift - posterior_.prior_mean()) * (1.0 - posterior_.ones_response()(index));
  return mean + reference_;
}

double FiniteSetBelief::Variance(int index) const {
  const double scale = output_scale();
  return (scale * scale) * std::max(posterior_.covariance()(index, index), 0.0);
}

Eigen::VectorXd FiniteSetBelief::Means() const {
  return posterior_.MeanUnderPriorMean(output_offset() - reference_).array() + reference_;
}

}  // namespace gpbandit
