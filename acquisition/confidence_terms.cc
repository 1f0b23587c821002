#include "gpbandit/acquisition/confidence_terms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "acquisition/option_checks.h"

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
  double information_gain = state.information_gain;
  if (noise_bound >= 0.0) {
    terms.noise_bound = noise_bound;
  } else {
    terms.noise_bound =
        std::max(std::sqrt(state.noise_variance / state.signal_variance), min_noise_bound);
    // The floor's noise level, floor^2 k(x, x), when it exceeds the model's (written with the
    // floor rather than R, so that an unfloored R keeps the model's own gain exactly).
    const double lambda = min_noise_bound * min_noise_bound * state.signal_variance;
    if (gamma.source == GammaSource::kInformationGain && state.sequential_variances.size() > 0 &&
        lambda > state.noise_variance)
      information_gain = InformationGainAtNoise(state.sequential_variances, lambda);
  }
  terms.gamma = ResolveGamma(gamma, state.t, state.action_dim, information_gain);
  return terms;
}

}  // namespace gpbandit
