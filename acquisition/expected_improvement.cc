#include "gpbandit/acquisition/expected_improvement.h"

#include <cmath>

#include "acquisition/normal_tails.h"

namespace gpbandit {
namespace {

using namespace normal_tails;  // NOLINT: the shared constants and tails

// h(z) = phi(z) + z Phi(z) = E[max(Z + z, 0)], Z ~ N(0, 1).
double ImprovementFactor(double z) {
  if (z > -8.0) return NormalPdf(z) + z * NormalCdf(z);
  // For z <= -8 the two terms cancel to 1 part in z^2 and beyond; use
  // h(z) = phi(z) (1 - u R(u)), u = -z, with the asymptotic series of the Mills ratio:
  // 1 - u R(u) = sum_k (-1)^(k+1) (2k - 1)!! / u^(2k). At u >= 8 the terms shrink fast for the
  // first dozen k, so 12 terms give ~1e-9 relative accuracy.
  const double u = -z;
  const double inv_u2 = 1.0 / (u * u);
  double term = inv_u2;  // k = 1
  double sum = 0.0;
  for (int k = 1; k <= 12; ++k) {
    sum += (k % 2 == 1) ? term : -term;
    term *= (2.0 * k + 1.0) * inv_u2;
  }
  return NormalPdf(z) * sum;
}

}  // namespace

double ExpectedImprovementValue(double mean, double sigma, double best, double* d_mean,
                                double* d_sigma) {
  const double diff = mean - best;
  if (!(sigma > 0.0)) {
    if (d_mean != nullptr) *d_mean = diff > 0.0 ? 1.0 : 0.0;
    if (d_sigma != nullptr) *d_sigma = diff == 0.0 ? kInvSqrt2Pi : 0.0;
    return std::max(diff, 0.0);
  }
  const double z = diff / sigma;
  // Derivatives: dEI/dmu = Phi(z), dEI/dsigma = phi(z).
  if (d_mean != nullptr) *d_mean = NormalCdf(z);
  if (d_sigma != nullptr) *d_sigma = NormalPdf(z);
  return sigma * ImprovementFactor(z);
}

ExpectedImprovement::ExpectedImprovement(const ImprovementOptions& options)
    : ImprovementStrategy(options) {}

double ExpectedImprovement::Score(double mean, double variance, double* d_mean,
                                  double* d_variance) const {
  if (!std::isfinite(incumbent())) {
    if (d_mean != nullptr) *d_mean = 1.0;
    if (d_variance != nullptr) *d_variance = 0.0;
    return mean;
  }
  const double sigma = std::sqrt(std::max(variance, 0.0));
  double d_sigma = 0.0;
  const double value =
      ExpectedImprovementValue(mean, sigma, incumbent() + margin(), d_mean, &d_sigma);
  if (d_variance != nullptr) *d_variance = sigma > 0.0 ? d_sigma / (2.0 * sigma) : 0.0;
  return value;
}

std::unique_ptr<Strategy> ExpectedImprovement::Clone() const {
  return std::make_unique<ExpectedImprovement>(*this);
}

std::unique_ptr<Strategy> ExpectedImprovement::Create(const StrategyParams& params) {
  return std::make_unique<ExpectedImprovement>(ReadOptions(params, "ei"));
}

}  // namespace gpbandit
