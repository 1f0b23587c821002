#include "gpbandit/acquisition/gp_ucb.h"

#include <cmath>

#include "gpbandit/acquisition/option_checks.h"

namespace gpbandit {

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

}  // namespace gpbandit
