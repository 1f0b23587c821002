#include "gpbandit/acquisition/variance_only.h"

#include <algorithm>

#include "acquisition/options_json.h"

namespace gpbandit {

void VarianceOnly::BeginRound(const RoundState& state) { ValidateRoundState(state); }

double VarianceOnly::Score(double /*mean*/, double variance, double* d_mean,
                           double* d_variance) const {
  if (d_mean != nullptr) *d_mean = 0.0;
  if (d_variance != nullptr) *d_variance = 1.0;
  return std::max(variance, 0.0);
}

std::unique_ptr<Strategy> VarianceOnly::Clone() const {
  return std::make_unique<VarianceOnly>(*this);
}

std::unique_ptr<Strategy> VarianceOnly::Create(const StrategyParams& params) {
  internal::ExpectNoOptions(params, "variance");
  return std::make_unique<VarianceOnly>();
}

}  // namespace gpbandit
