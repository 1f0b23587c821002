#include "gpbandit/acquisition/confidence_terms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpbandit/acquisition/option_checks.h"

namespace gpbandit {

using internal::FieldValue;

double InformationGainAtNoise(const Eigen::VectorXd& sequential_variances, double lambda) {
  if (!(lambda > 0.0) || !std::isfinite(lambda))
    throw std::invalid_argument(FieldValue("lambda", lambda) + ": must be finite and > 0");
  return 0.5 * (sequential_variances.array() / lambda).log1p().sum();
}

ConfidenceTerms ResolveConfidenceTerms(double noise_bound, double min_noise_bound,
                                       const GammaOptions& gamma, const RoundState& state) {
  if (!std::isfinite(noise_bound))
    throw std::invalid_argument(FieldValue("noise_bound", noise_bound) + ": must be finite");
  if (!(min_noise_bound >= 0.0) || !std::isfinite(min_noise_bound))
    throw std::invalid_argument(FieldValue("min_noise_bound", min_noise_bound) +
                                ": must be finite and >= 0");
  ConfidenceTerms terms;
  terms.noise_bound =
      noise_bound >= 0.0
          ? noise_bound
          : std::max(std::sqrt(state.noise_variance / state.signal_variance), min_noise_bound);
  // The noise level the bound assumes, R^2 k(x, x), or the model's if larger (written with the
  // floor rather than R for the model's bound, so that an unfloored R gives the model's exactly).
  const double r = InitialNoiseBound(noise_bound, min_noise_bound);
  const double lambda = std::max(state.noise_variance, r * r * state.signal_variance);
  double information_gain = state.information_gain;
  if (gamma.source == GammaSource::kInformationGain && state.sequential_variances.size() > 0 &&
      lambda > state.noise_variance) {
    information_gain = InformationGainAtNoise(state.sequential_variances, lambda);
  }
  terms.gamma = ResolveGamma(gamma, state.t, state.action_dim, information_gain);
  return terms;
}

}  // namespace gpbandit
