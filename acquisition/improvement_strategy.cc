#include "gpbandit/acquisition/improvement_strategy.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"

namespace gpbandit {

std::string IncumbentRuleName(IncumbentRule rule) {
  switch (rule) {
    case IncumbentRule::kPosteriorMean:
      return "posterior-mean";
    case IncumbentRule::kBestObserved:
      return "best-observed";
  }
  return "unknown";
}

IncumbentRule ParseIncumbentRule(const std::string& name) {
  for (IncumbentRule rule : {IncumbentRule::kPosteriorMean, IncumbentRule::kBestObserved})
    if (IncumbentRuleName(rule) == name) return rule;
  throw std::invalid_argument("incumbent rule = '" + name +
                              "': unknown; known: posterior-mean, best-observed");
}

void to_json(nlohmann::json& j, const ImprovementOptions& o) {
  j = {{"xi", o.xi},
       {"relative_xi", o.relative_xi},
       {"relative_xi_per_dim", o.relative_xi_per_dim},
       {"incumbent_rule", IncumbentRuleName(o.incumbent_rule)}};
}

void from_json(const nlohmann::json& j, ImprovementOptions& o) {
  internal::OptionsReader reader(j);
  reader.Read("xi", &o.xi);
  reader.Read("relative_xi", &o.relative_xi);
  reader.Read("relative_xi_per_dim", &o.relative_xi_per_dim);
  reader.ReadEnum("incumbent_rule", &o.incumbent_rule, IncumbentRuleName,
                  {IncumbentRule::kPosteriorMean, IncumbentRule::kBestObserved});
  reader.Finish();
}

bool ImprovementOptions::IsValid(std::string* error) const {
  const std::pair<const char*, double> margins[] = {
      {"xi", xi}, {"relative_xi", relative_xi}, {"relative_xi_per_dim", relative_xi_per_dim}};
  for (const auto& [name, value] : margins)
    if (!(value >= 0.0) || !std::isfinite(value))
      return internal::Fail(error, name, value, "must be finite and >= 0");
  return true;
}

ImprovementStrategy::ImprovementStrategy(const ImprovementOptions& options)
    : options_(options), margin_(options.xi) {
  internal::ThrowIfInvalid(options_, "ImprovementOptions");
}

ImprovementOptions ImprovementStrategy::ReadOptions(const StrategyParams& params,
                                                    const std::string& who,
                                                    const ImprovementOptions& defaults) {
  return internal::ReadOptions<ImprovementOptions>(params, who, defaults);
}

std::string ImprovementStrategy::OptionsJson() const { return internal::WriteOptions(options_); }

void ImprovementStrategy::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  incumbent_ = options_.incumbent_rule == IncumbentRule::kBestObserved ? state.best_observed
                                                                       : state.incumbent;
  const double relative = options_.relative_xi + options_.relative_xi_per_dim * state.action_dim;
  margin_ = options_.xi + relative * std::sqrt(state.signal_variance);
}

}  // namespace gpbandit
