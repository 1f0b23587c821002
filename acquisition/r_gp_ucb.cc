#include "gpbandit/acquisition/r_gp_ucb.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"

namespace gpbandit {

bool RGpUcbOptions::IsValid(std::string* error) const {
  using internal::Fail;
  if (reset_period < 0) return Fail(error, "reset_period", reset_period, "must be >= 0");
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
  const nlohmann::json own = internal::TakeOwnKeys(&ucb_params, {"reset_period", "epsilon"});
  RGpUcbOptions options;
  options.ucb = ReadOptions(ucb_params, who);
  internal::ReadOwnKeys(own, who, &options, [&](internal::OptionsReader& reader) {
    reader.Read("reset_period", &options.reset_period);
    reader.Read("epsilon", &options.epsilon);
  });
  return std::make_unique<RGpUcb>(options);
}

void RGpUcb::BeginRound(const RoundState& state) {
  RoundState in_epoch = state;
  // The round within the epoch, 1-based: GP-UCB restarted at the epoch's first round.
  const long n = r_options_.EpochLength();
  const long round = std::max(0L, state.round);
  in_epoch.t = static_cast<int>(round % n + 1);
  GpUcb::BeginRound(in_epoch);
}

std::unique_ptr<Strategy> RGpUcb::Clone() const { return std::make_unique<RGpUcb>(*this); }

std::string RGpUcb::OptionsJson() const {
  nlohmann::json j = nlohmann::json::parse(GpUcb::OptionsJson());
  j["reset_period"] = r_options_.reset_period;
  j["epsilon"] = r_options_.epsilon;
  return j.dump();
}

TimeModel RGpUcb::time_model() const {
  TimeModel m;
  m.kind = TimeModelKind::kEpochs;
  m.epoch_length = r_options_.EpochLength();
  return m;
}

}  // namespace gpbandit
