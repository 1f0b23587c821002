#include "gpbandit/acquisition/mean_only.h"

#include "acquisition/options_json.h"

namespace gpbandit {

void MeanOnly::BeginRound(const RoundState& state) { ValidateRoundState(state); }

double MeanOnly::Score(double mean, double /*variance*/, double* d_mean, double* d_variance) const {
  if (d_mean != nullptr) *d_mean = 1.0;
  if (d_variance != nullptr) *d_variance = 0.0;
  return mean;
}

std::unique_ptr<Strategy> MeanOnly::Clone() const { return std::make_unique<MeanOnly>(*this); }

std::unique_ptr<Strategy> MeanOnly::Create(const StrategyParams& params) {
  internal::ExpectNoOptions(params, "mean");
  return std::make_unique<MeanOnly>();
}

}  // namespace gpbandit
