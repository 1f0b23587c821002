#include "gpbandit/acquisition/improvement_strategy.h"

#include <cmath>
#include <stdexcept>

#include "gpbandit/acquisition/option_checks.h"

namespace gpbandit {

std::string IncumbentRuleName(IncumbentRule rule) {
  switch (rule) {
    case IncumbentRule::kPosteriorMean: return "posterior-mean";
    case IncumbentRule::kBestObserved: return "best-observed";
  }
  return "unknown";
}

IncumbentRule ParseIncumbentRule(const std::string& name) {
  for (IncumbentRule rule : {IncumbentRule::kPosteriorMean, IncumbentRule::kBestObserved})
    if (IncumbentRuleName(rule) == name) return rule;
  throw std::invalid_argument("incumbent rule = '" + name +
                              "': unknown; known: posterior-mean, best-observed");
}

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
  incumbent_ = options_.incumbent_rule == IncumbentRule::kBestObserved ? state.best_observed
                                                                       : state.incumbent;
}

}  // namespace gpbandit
