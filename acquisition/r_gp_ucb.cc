#include "gpbandit/acquisition/r_gp_ucb.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"

namespace gpbandit {

std::string RestartRuleName(RestartRule rule) {
  return rule == RestartRule::kEpochs ? "epochs" : "residuals";
}

bool RGpUcbOptions::IsValid(std::string* error) const {
  using internal::Fail;
  if (restart != RestartRule::kResiduals && restart != RestartRule::kEpochs)
    return Fail(error, "restart", static_cast<int>(restart), "must be residuals or epochs");
  if (restart_window < 1) return Fail(error, "restart_window", restart_window, "must be >= 1");
  if (!(restart_threshold > 0.0 && std::isfinite(restart_threshold)))
    return Fail(error, "restart_threshold", restart_threshold, "must be finite and > 0");
  if (reset_period < 0) return Fail(error, "reset_period", reset_period, "must be >= 0");
  if (reset_period > 0 && restart != RestartRule::kEpochs)
    return Fail(error, "reset_period", reset_period, "needs restart = epochs");
  if (!(epsilon > 0.0 && epsilon < 1.0))
    return Fail(error, "epsilon", epsilon, "must be in (0, 1)");
  return ucb.IsValid(error);
}

long RGpUcbOptions::EpochLength() const {
  if (reset_period > 0) return reset_period;
  return static_cast<long>(std::ceil(12.0 * std::pow(epsilon, -0.25)));
}

RGpUcb::RGpUcb(const RGpUcbOptions& options) : GpUcb(options.ucb), r_options_(options) {
  internal::ThrowIfInvalid(r_options_, "RGpUcbOptions");
}

std::unique_ptr<Strategy> RGpUcb::Create(const StrategyParams& params) {
  const std::string who = "r-gp-ucb";
  StrategyParams ucb_params = params;
  const nlohmann::json own = internal::TakeOwnKeys(
      &ucb_params, {"restart", "restart_window", "restart_threshold", "reset_period", "epsilon"});
  RGpUcbOptions options;
  options.ucb = ReadOptions(ucb_params, who);
  internal::ReadOwnKeys(own, who, &options, [&](internal::OptionsReader& reader) {
    reader.ReadEnum("restart", &options.restart, RestartRuleName,
                    {RestartRule::kResiduals, RestartRule::kEpochs});
    reader.Read("restart_window", &options.restart_window);
    reader.Read("restart_threshold", &options.restart_threshold);
    reader.Read("reset_period", &options.reset_period);
    reader.Read("epsilon", &options.epsilon);
  });
  return std::make_unique<RGpUcb>(options);
}

void RGpUcb::BeginRound(const RoundState& state) {
  RoundState in_epoch = state;
  // The round within the epoch, 1-based: GP-UCB restarted at the epoch's first round.
  const long round = std::max(0L, state.round);
  const long start = r_options_.restart == RestartRule::kEpochs
                         ? round - round % r_options_.EpochLength()
                         : std::min(round, std::max(0L, state.epoch_start));
  in_epoch.t = static_cast<int>(round - start + 1);
  GpUcb::BeginRound(in_epoch);
}

std::unique_ptr<Strategy> RGpUcb::Clone() const { return std::make_unique<RGpUcb>(*this); }

std::string RGpUcb::OptionsJson() const {
  nlohmann::json j = nlohmann::json::parse(GpUcb::OptionsJson());
  j["restart"] = RestartRuleName(r_options_.restart);
  j["restart_window"] = r_options_.restart_window;
  j["restart_threshold"] = r_options_.restart_threshold;
  j["reset_period"] = r_options_.reset_period;
  j["epsilon"] = r_options_.epsilon;
  return j.dump();
}

TimeModel RGpUcb::time_model() const {
  TimeModel m;
  if (r_options_.restart == RestartRule::kEpochs) {
    m.kind = TimeModelKind::kEpochs;
    m.epoch_length = r_options_.EpochLength();
  } else {
    m.kind = TimeModelKind::kRestarts;
    m.restart_window = r_options_.restart_window;
    m.restart_threshold = r_options_.restart_threshold;
  }
  return m;
}

}  // namespace gpbandit
