#include "gpbandit/acquisition/igp_ucb.h"

#include <cmath>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"
#include "gpbandit/acquisition/beta_schedule.h"

namespace gpbandit {

void to_json(nlohmann::json& j, const IgpUcbOptions& o) {
  j = nlohmann::json::object();
  internal::WriteBoundFields(o, &j);
}

void from_json(const nlohmann::json& j, IgpUcbOptions& o) {
  internal::OptionsReader reader(j);
  internal::ReadBoundFields(&reader, &o);
  reader.Finish();
}

bool IgpUcbOptions::IsValid(std::string* error) const {
  return internal::BoundFieldsAreValid(*this, error);
}

IgpUcb::IgpUcb(const IgpUcbOptions& options) : options_(options) {
  internal::ThrowIfInvalid(options_, "IgpUcbOptions");
  beta_ = IgpUcbBeta(options_.rkhs_bound,
                     InitialNoiseBound(options_.noise_bound, options_.min_noise_bound), 0.0,
                     options_.delta);
}

void IgpUcb::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  const ConfidenceTerms terms =
      ResolveConfidenceTerms(options_.noise_bound, options_.min_noise_bound, options_.gamma, state);
  beta_ = IgpUcbBeta(options_.rkhs_bound, terms.noise_bound, terms.gamma, options_.delta);
}

double IgpUcb::Score(double mean, double variance, double* d_mean, double* d_variance) const {
  const double sigma = std::sqrt(std::max(variance, 0.0));
  if (d_mean != nullptr) *d_mean = 1.0;
  if (d_variance != nullptr) *d_variance = sigma > 0.0 ? beta_ / (2.0 * sigma) : 0.0;
  return mean + beta_ * sigma;
}

std::unique_ptr<Strategy> IgpUcb::Clone() const { return std::make_unique<IgpUcb>(*this); }

std::unique_ptr<Strategy> IgpUcb::Create(const StrategyParams& params) {
  return std::make_unique<IgpUcb>(internal::ReadOptions<IgpUcbOptions>(params, "igp-ucb"));
}

std::string IgpUcb::OptionsJson() const { return internal::WriteOptions(options_); }

}  // namespace gpbandit
