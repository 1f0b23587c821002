#include "gpbandit/acquisition/gp_ucb.h"

#include <cmath>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"

namespace gpbandit {

void to_json(nlohmann::json& j, const GpUcbOptions& o) {
  j = {{"beta_schedule", BetaScheduleKindName(o.beta.kind)},
       {"delta", o.beta.delta},
       {"a", o.beta.a},
       {"b", o.beta.b},
       {"r", o.beta.r},
       {"rkhs_bound", o.beta.rkhs_bound},
       {"constant_beta", o.beta.constant_beta},
       {"dim_log_coefficient", o.beta.dim_log_coefficient},
       {"dim_log_max_dim", o.beta.dim_log_max_dim},
       {"beta_scale", o.beta.scale}};
  internal::WriteGammaFields(o.gamma, &j);
}

void from_json(const nlohmann::json& j, GpUcbOptions& o) {
  internal::OptionsReader reader(j);
  reader.ReadEnum(
      "beta_schedule", &o.beta.kind, BetaScheduleKindName,
      {BetaScheduleKind::kAuto, BetaScheduleKind::kFinite, BetaScheduleKind::kCompact,
       BetaScheduleKind::kRkhs, BetaScheduleKind::kConstant, BetaScheduleKind::kDimLog});
  reader.Read("delta", &o.beta.delta);
  reader.Read("a", &o.beta.a);
  reader.Read("b", &o.beta.b);
  reader.Read("r", &o.beta.r);
  reader.Read("rkhs_bound", &o.beta.rkhs_bound);
  reader.Read("constant_beta", &o.beta.constant_beta);
  reader.Read("dim_log_coefficient", &o.beta.dim_log_coefficient);
  reader.Read("dim_log_max_dim", &o.beta.dim_log_max_dim);
  reader.Read("beta_scale", &o.beta.scale);
  internal::ReadGammaFields(&reader, &o.gamma);
  reader.Finish();
}

bool GpUcbOptions::IsValid(std::string* error) const {
  return beta.IsValid(error) && gamma.IsValid(error);
}

GpUcb::GpUcb(const GpUcbOptions& options) : options_(options) {
  internal::ThrowIfInvalid(options_, "GpUcbOptions");
}

void GpUcb::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  const double gamma =
      ResolveGamma(options_.gamma, state.t, state.action_dim, state.information_gain);
  const double beta =
      ComputeBeta(options_.beta, state.t, state.num_candidates, state.action_dim, gamma);
  beta_ = beta;
  sqrt_beta_ = std::sqrt(beta);
}

double GpUcb::Score(double mean, double variance, double* d_mean, double* d_variance) const {
  const double sigma = std::sqrt(std::max(variance, 0.0));
  if (d_mean != nullptr) *d_mean = 1.0;
  // d sigma / d variance = 1 / (2 sigma) is unbounded at 0; there the variance gradient of the
  // GP is 0 (clamped), so 0 is the consistent choice.
  if (d_variance != nullptr) *d_variance = sigma > 0.0 ? sqrt_beta_ / (2.0 * sigma) : 0.0;
  return mean + sqrt_beta_ * sigma;
}

std::unique_ptr<Strategy> GpUcb::Clone() const { return std::make_unique<GpUcb>(*this); }

GpUcbOptions GpUcb::ReadOptions(const StrategyParams& params, const std::string& who) {
  return internal::ReadOptions<GpUcbOptions>(params, who);
}

std::unique_ptr<Strategy> GpUcb::Create(const StrategyParams& params) {
  return std::make_unique<GpUcb>(ReadOptions(params, "gp-ucb"));
}

std::string GpUcb::OptionsJson() const { return internal::WriteOptions(options_); }

}  // namespace gpbandit
