// LogEI (Ament, Daulton, Eriksson, Balandat & Bakshy, NeurIPS 2023, "Unexpected improvements to
// expected improvement for Bayesian optimization"): the logarithm of expected improvement,
//   log EI = log sigma + log h(z),  z = (mu - best - xi) / sigma,  h(z) = phi(z) + z Phi(z),
// computed without underflow or cancellation however far below the incumbent a point lies, so
// that the maximizer sees a finite value with a useful gradient where EI itself is 0 or flat
// (EI underflows for z < -38; its gradient vanishes long before). The argmax is EI's wherever EI
// is representable. Registered as "log-ei".
//
// log h (the paper's log_h, eq. 9), in two branches:
//   z > -3:   log(phi(z) + z Phi(z)) directly (h(-3) = 3.8e-4: the sum loses about one digit);
//   z <= -3:  with u = -z and the Mills ratio R(u) = Phi(-u) / phi(u), h(z) = phi(z) (1 - u R(u)),
//             whose factor cancels for large u. From Laplace's continued fraction R(u) =
//             1/(u + 1/(u + 2/(u + 3/(u + ...)))) follows 1 - u R(u) = 1 / (1 + u T(u)) with
//             T(u) = u + 2/(u + 3/(u + 4/(u + ...))), free of cancellation, so
//             log h(z) = -z^2/2 - log sqrt(2 pi) - log(1 + u T(u)).
//             This replaces the paper's erfcx-based log1mexp branch (C++ has no erfcx) and its
//             asymptotic third branch, which it contains: u T(u) -> u^2 + 2. 64 terms, summed
//             from the tail, are exact to the last bit for u >= 3.
// The derivative d log h / dz = Phi(z) / h(z) is T(u) itself for z <= -3: L-BFGS gets a
// gradient of size ~|z| where EI's is exp(-z^2 / 2) small. Finite for |z| < 1e154.
//
// sigma = 0 (or a variance below the floor): the variance is clamped at
// kLogEiMinRelativeVariance times the prior variance of f (RoundState::signal_variance), as
// BoTorch's LogEI clamps it at 1e-12; the score stays finite and L-BFGS
// can still move. With no incumbent (no observations) the score is mu, as for EI. The incumbent
// rule and the margin xi are EI's (improvement_strategy.h).
//
// Thread-safety: Score is const and may run concurrently; BeginRound needs exclusive access.
#ifndef GPBANDIT_ACQUISITION_LOG_EXPECTED_IMPROVEMENT_H_
#define GPBANDIT_ACQUISITION_LOG_EXPECTED_IMPROVEMENT_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/improvement_strategy.h"

namespace gpbandit {

// The posterior variance is clamped below at this fraction of the prior variance of f.
inline constexpr double kLogEiMinRelativeVariance = 1e-12;

// log h(z), h(z) = phi(z) + z Phi(z) = E[max(Z + z, 0)], Z ~ N(0, 1); *derivative (if non-null)
// = d log h / dz = Phi(z) / h(z). Finite for every finite z with |z| < 1e154; relative error a
// few ulps of the magnitude of log h (tested against an independent quadrature).
double LogImprovementFactor(double z, double* derivative);

// log EI = log sigma + log h((mean - best) / sigma) for sigma > 0, with the partial derivatives
// d/d mean and d/d sigma when the pointers are non-null.
double LogExpectedImprovementValue(double mean, double sigma, double best, double* d_mean,
                                   double* d_sigma);

class LogExpectedImprovement : public ImprovementStrategy {
 public:
  explicit LogExpectedImprovement(const ImprovementOptions& options = ImprovementOptions());
  // The registry's factory (keys of ImprovementOptions, improvement_strategy.h).
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "log-ei"; }
  void BeginRound(const RoundState& state) override;
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override;

 private:
  double min_variance_ = 0.0;
};

// "ehvi": expected hypervolume improvement for studies with several objectives, in log form
// (outcome_acquisition.h: log EHVI over the front of posterior means, + log PoF under
// constraints; Emmerich et al. 2006, Ament et al. 2023). With one objective it is log EI, with
// the same options.
class LogExpectedHypervolumeImprovement : public LogExpectedImprovement {
 public:
  using LogExpectedImprovement::LogExpectedImprovement;
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);
  std::string name() const override { return "ehvi"; }
  std::unique_ptr<Strategy> Clone() const override;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_LOG_EXPECTED_IMPROVEMENT_H_
