#include "gpbandit/acquisition/probability_of_improvement.h"

#include <cmath>

#include "acquisition/normal_tails.h"

namespace gpbandit {

using namespace normal_tails;  // NOLINT: the shared constants and tails

ProbabilityOfImprovement::ProbabilityOfImprovement(const ImprovementOptions& options)
    : ImprovementStrategy(options) {}

ImprovementOptions ProbabilityOfImprovement::DefaultOptions() {
  ImprovementOptions options;
  options.relative_xi_per_dim = 0.005;
  return options;
}

double ProbabilityOfImprovement::Score(double mean, double variance, double* d_mean,
                                       double* d_variance) const {
  if (d_mean != nullptr) *d_mean = 0.0;
  if (d_variance != nullptr) *d_variance = 0.0;
  if (!std::isfinite(incumbent())) return 1.0;
  const double diff = mean - incumbent() - margin();
  const double sigma = std::sqrt(std::max(variance, 0.0));
  if (!(sigma > 0.0)) return diff > 0.0 ? 1.0 : (diff == 0.0 ? 0.5 : 0.0);
  const double z = diff / sigma;
  const double pdf = kInvSqrt2Pi * std::exp(-0.5 * z * z);
  // dPI/dmu = phi(z) / sigma; dPI/dvariance = -phi(z) z / (2 variance).
  if (d_mean != nullptr) *d_mean = pdf / sigma;
  if (d_variance != nullptr) *d_variance = -pdf * z / (2.0 * sigma * sigma);
  return 0.5 * std::erfc(-z * kInvSqrt2);
}

std::unique_ptr<Strategy> ProbabilityOfImprovement::Clone() const {
  return std::make_unique<ProbabilityOfImprovement>(*this);
}

std::unique_ptr<Strategy> ProbabilityOfImprovement::Create(const StrategyParams& params) {
  return std::make_unique<ProbabilityOfImprovement>(ReadOptions(params, "pi", DefaultOptions()));
}

}  // namespace gpbandit
