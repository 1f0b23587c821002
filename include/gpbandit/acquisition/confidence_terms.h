// What IGP-UCB and GP-TS (Chowdhury & Gopalan, ICML 2017) take from each round: the noise bound
// R and the information gain gamma_{t-1} of beta_t = B + R sqrt(2 (gamma_{t-1} + 1 + ln(1/delta)))
// (and of GP-TS's v_t).
//
// Units: the paper's kernel has k(x, x) <= 1, so B and R are measured against the prior standard
// deviation of f; here, against sqrt(RoundState::signal_variance) (about the standard deviation
// of the standardized rewards under the optimizer's defaults). beta_t multiplies the posterior
// standard deviation, whatever its units.
//
// R:
//   noise_bound >= 0: R = noise_bound (the paper's experiments: the noise standard deviation,
//                     with a unit-variance kernel);
//   noise_bound <  0: from the model, every round: R = max(sqrt(noise_variance /
//                     signal_variance), min_noise_bound). The floor matters on noiseless
//                     objectives, where the fitted noise is ~0 (the optimizer's fits stop at
//                     1e-10): without it R -> 0, beta_t -> B and the strategy repeats its
//                     incumbent for ever. R is a sub-Gaussian constant, an upper bound, so
//                     taking it above a noise that is too small to estimate keeps the
//                     confidence bound valid.
// gamma_{t-1} (GammaSource::kInformationGain): with R from the model, the information gain at
// the noise level the bound assumes, lambda = max(noise_variance, min_noise_bound^2
// signal_variance) (the paper's experiments set the model's lambda = R^2): 1/2 sum_i log(1 +
// sigma_{i-1}^2(x_i) / lambda) over RoundState::sequential_variances, a lower bound of 1/2
// log det(I + K / lambda). With the model's own noise a noiseless objective gains ~1/2 log(sigma^2
// / 1e-10) ~ 10 nats per observation, and beta_t would grow like sqrt(20 t) R. With a fixed R,
// or when sequential_variances is empty (finite-set loops), it is RoundState::information_gain
// (the papers' setting, where the model's noise is R^2); the kernel-family bounds
// (GammaOptions) are used as they are.
//
// Pure functions, thread-safe.
#ifndef GPBANDIT_ACQUISITION_CONFIDENCE_TERMS_H_
#define GPBANDIT_ACQUISITION_CONFIDENCE_TERMS_H_

#include <Eigen/Core>

#include "gpbandit/acquisition/information_gain_bound.h"
#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {

// The default floor of R taken from the model (IgpUcbOptions, GpTsOptions::min_noise_bound).
inline constexpr double kDefaultMinNoiseBound = 0.02;

struct ConfidenceTerms {
  double noise_bound = 0.0;  // R
  double gamma = 0.0;        // gamma_{t-1}
};

// 1/2 sum_i log(1 + v_i / lambda): the information gain of observations whose variances given
// the previous ones are v (>= 0), at noise variance lambda > 0.
double InformationGainAtNoise(const Eigen::VectorXd& sequential_variances, double lambda);

// R before any round (gamma_{t-1} = 0 then): the fixed noise_bound, or else its floor.
inline double InitialNoiseBound(double noise_bound, double min_noise_bound) {
  return noise_bound >= 0.0 ? noise_bound : min_noise_bound;
}

// R and gamma_{t-1} for the round (see above). noise_bound: finite (< 0 = from the model);
// min_noise_bound >= 0 and finite. Throws std::invalid_argument for invalid input.
ConfidenceTerms ResolveConfidenceTerms(double noise_bound, double min_noise_bound,
                                       const GammaOptions& gamma, const RoundState& state);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_CONFIDENCE_TERMS_H_
