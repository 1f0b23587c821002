#include "gpbandit/acquisition/log_expected_improvement.h"

#include <algorithm>
#include <cmath>

#include "acquisition/normal_tails.h"

namespace gpbandit {

using namespace normal_tails;  // NOLINT: the shared constants and tails

double LogImprovementFactor(double z, double* derivative) {
  if (z > -kContinuedFractionFrom) {
    const double pdf = kInvSqrt2Pi * std::exp(-0.5 * z * z);
    const double cdf = 0.5 * std::erfc(-z * kInvSqrt2);
    const double h = pdf + z * cdf;
    if (derivative != nullptr) *derivative = cdf / h;
    return std::log(h);
  }
  const double u = -z;
  if (u > kAsymptoticFrom) {
    if (derivative != nullptr) *derivative = u;  // u + 2/u to the last bit
    return -0.5 * u * u - kLogSqrt2Pi - 2.0 * std::log(u);
  }
  // h(z) = phi(z) (1 - u R(u)) = phi(z) / (1 + u T(u)); d log h / dz = R / (1 - u R) = T(u).
  const double t = MillsTail(u);
  if (derivative != nullptr) *derivative = t;
  return -0.5 * u * u - kLogSqrt2Pi - std::log1p(u * t);
}

double LogExpectedImprovementValue(double mean, double sigma, double best, double* d_mean,
                                   double* d_sigma) {
  const double z = (mean - best) / sigma;
  double d_log_h = 0.0;
  const double value = std::log(sigma) + LogImprovementFactor(z, &d_log_h);
  // log EI = log sigma + log h(z), z = (mean - best) / sigma.
  if (d_mean != nullptr) *d_mean = d_log_h / sigma;
  if (d_sigma != nullptr) *d_sigma = (1.0 - z * d_log_h) / sigma;
  return value;
}

LogExpectedImprovement::LogExpectedImprovement(const ImprovementOptions& options)
    : ImprovementStrategy(options) {}

void LogExpectedImprovement::BeginRound(const RoundState& state) {
  ImprovementStrategy::BeginRound(state);
  min_variance_ = kLogEiMinRelativeVariance * state.signal_variance;
}

double LogExpectedImprovement::Score(double mean, double variance, double* d_mean,
                                     double* d_variance) const {
  if (!std::isfinite(incumbent())) {
    if (d_mean != nullptr) *d_mean = 1.0;
    if (d_variance != nullptr) *d_variance = 0.0;
    return mean;
  }
  const bool clamped = !(variance > min_variance_);
  const double sigma = std::sqrt(clamped ? min_variance_ : variance);
  double d_sigma = 0.0;
  const double value =
      LogExpectedImprovementValue(mean, sigma, incumbent() + margin(), d_mean, &d_sigma);
  if (d_variance != nullptr) *d_variance = clamped ? 0.0 : d_sigma / (2.0 * sigma);
  return value;
}

std::unique_ptr<Strategy> LogExpectedImprovement::Create(const StrategyParams& params) {
  return std::make_unique<LogExpectedImprovement>(ReadOptions(params, "log-ei"));
}

std::unique_ptr<Strategy> LogExpectedImprovement::Clone() const {
  return std::make_unique<LogExpectedImprovement>(*this);
}

std::unique_ptr<Strategy> LogExpectedHypervolumeImprovement::Create(const StrategyParams& params) {
  return std::make_unique<LogExpectedHypervolumeImprovement>(ReadOptions(params, "ehvi"));
}

std::unique_ptr<Strategy> LogExpectedHypervolumeImprovement::Clone() const {
  return std::make_unique<LogExpectedHypervolumeImprovement>(*this);
}

}  // namespace gpbandit
