#include "gpbandit/acquisition/improvement_strategy.h"

#include <cmath>

#include "gpbandit/acquisition/option_checks.h"

namespace gpbandit {

bool ImprovementOptions::IsValid(std::string* error) const {
  if (!(xi >= 0.0) || !std::isfinite(xi))
    return internal::Fail(error, "xi", xi, "must be finite and >= 0");
  return true;
}

ImprovementStrategy::ImprovementStrategy(const ImprovementOptions& options) : options_(options) {
  internal::ThrowIfInvalid(options_, "ImprovementOptions");
}

void ImprovementStrategy::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  incumbent_ = state.incumbent;
}

}  // namespace gpbandit
