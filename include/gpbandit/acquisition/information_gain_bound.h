// gamma_{t-1}, the maximum information gain that the UCB and TS schedules need.
//
// By default gamma is the information gain of the observations actually made,
// I(y; f) = 1/2 sum_i log(1 + sigma^-2 sigma_{i-1}^2(x_i)) (Srinivas et al. Lemma 5.3), which the
// optimizer passes in RoundState::information_gain. Alternatively the kernel-family bounds of
// Srinivas et al. Theorem 5 (up to constants, which `scale` stands for) at T = t - 1:
//   squared exponential  gamma_T = (log T)^{d + 1}
//   Matern (nu > 1)      gamma_T = T^{d (d + 1) / (2 nu + d (d + 1))} log T
//   linear               gamma_T = d log T
// Every bound is 0 for T <= 1 (no information before the second observation).
// Pure functions, thread-safe.
#ifndef GPBANDIT_ACQUISITION_INFORMATION_GAIN_BOUND_H_
#define GPBANDIT_ACQUISITION_INFORMATION_GAIN_BOUND_H_

#include <string>

namespace gpbandit {

enum class GammaSource {
  kInformationGain,  // the observed information gain (RoundState::information_gain)
  kSquaredExponentialBound,
  kMaternBound,
  kLinearBound,
};

// "information-gain", "se-bound", "matern-bound", "linear-bound" (and the reverse; throws on an
// unknown name).
std::string GammaSourceName(GammaSource source);
GammaSource ParseGammaSource(const std::string& name);

struct GammaOptions {
  // Where gamma comes from. Default kInformationGain.
  GammaSource source = GammaSource::kInformationGain;
  // The d of the bounds; 0 means the number of action coordinates of the round. >= 0. Default 0.
  int dim = 0;
  // Matern smoothness nu for kMaternBound. > 0. Default 2.5.
  double nu = 2.5;
  // The constant in front of the bound. > 0. Default 1.
  double scale = 1.0;

  bool IsValid(std::string* error) const;
};

double SquaredExponentialGammaBound(double T, int dim);
double MaternGammaBound(double T, int dim, double nu);
double LinearGammaBound(double T, int dim);

// gamma_{t-1} for round t >= 1: the observed information gain (must be finite and >= 0) or the
// chosen bound at T = t - 1 with d = options.dim (or action_dim when 0). Throws
// std::invalid_argument for invalid input.
double ResolveGamma(const GammaOptions& options, int t, int action_dim, double information_gain);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_INFORMATION_GAIN_BOUND_H_
