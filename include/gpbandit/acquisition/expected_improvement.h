// Expected improvement (Mockus 1978; Jones et al. 1998), a baseline of Srinivas et al. and
// Chowdhury & Gopalan: with best = the incumbent (RoundState::incumbent) and margin xi,
//   EI = E[max(f(x) - best - xi, 0)] = sigma h(z),  z = (mu - best - xi) / sigma,
//   h(z) = phi(z) + z Phi(z).
// Numerics: for z << 0, phi(z) + z Phi(z) cancels; we compute h(z) = phi(z) (1 + z R(z)) with
// the Mills ratio R via erfcx and, for z < -8, the asymptotic series of 1 + z R(z), so EI is
// accurate (relative) until phi(z) itself underflows (z < -38), where EI is 0: finite, never
// NaN. With sigma = 0, EI = max(mu - best - xi, 0). With no incumbent (no observations yet) the
// score is mu (the limit ordering of EI as best -> -infinity). Registered as "ei".
//
// Thread safety and determinism: as every Strategy (strategy.h).
#ifndef GPBANDIT_ACQUISITION_EXPECTED_IMPROVEMENT_H_
#define GPBANDIT_ACQUISITION_EXPECTED_IMPROVEMENT_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/improvement_strategy.h"

namespace gpbandit {

// sigma h((mu - best) / sigma) with its partial derivatives (non-null pointers); sigma >= 0.
// d_sigma is the derivative in sigma (not in the variance).
double ExpectedImprovementValue(double mean, double sigma, double best, double* d_mean,
                                double* d_sigma);

class ExpectedImprovement : public ImprovementStrategy {
 public:
  explicit ExpectedImprovement(const ImprovementOptions& options = ImprovementOptions());
  // The registry's factory: xi from params (improvement_strategy.h).
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "ei"; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_EXPECTED_IMPROVEMENT_H_
