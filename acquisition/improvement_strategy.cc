#include "gpbandit/acquisition/improvement_strategy.h"

#include <cmath>

#include "gpbandit/acquisition/option_checks.h"
#include "gpbandit/acquisition/options_json.h"

namespace gpbandit {

void to_json(nlohmann::json& j, const ImprovementOptions& o) { j = {{"xi", o.xi}}; }

void from_json(const nlohmann::json& j, ImprovementOptions& o) {
  internal::OptionsReader reader(j);
  reader.Read("xi", &o.xi);
  reader.Finish();
}

bool ImprovementOptions::IsValid(std::string* error) const {
  if (!(xi >= 0.0) || !std::isfinite(xi))
    return internal::Fail(error, "xi", xi, "must be finite and >= 0");
  return true;
}

ImprovementStrategy::ImprovementStrategy(const ImprovementOptions& options) : options_(options) {
  internal::ThrowIfInvalid(options_, "ImprovementOptions");
}

ImprovementOptions ImprovementStrategy::ReadOptions(const StrategyParams& params,
                                                    const std::string& who) {
  return internal::ReadOptions<ImprovementOptions>(params, who);
}

std::string ImprovementStrategy::OptionsJson() const { return internal::WriteOptions(options_); }

void ImprovementStrategy::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  incumbent_ = state.incumbent;
}

}  // namespace gpbandit
