// Probability of improvement (Kushner 1964; "MPI" in Srinivas et al.):
//   PI = Phi((mu - best - xi) / sigma),
// with best the incumbent and xi the margin (improvement_strategy.h's ImprovementOptions).
// PI's default margin is relative_xi_per_dim = 0.005 prior standard deviations of f per action
// dimension: 0.01 in 2-D (Lizotte's 2008 suggestion of 0.01 of the outputs' spread), 0.05 in
// 10-D. Chosen on generated problems; docs/benchmarks.md, section "Defaults on problems nobody
// tuned for". With sigma = 0: 1 if mu > best + xi, 1/2 if equal, 0 below. With no incumbent: 1
// everywhere. Far below the incumbent PI underflows to 0 (finite). Registered as "pi".
//
// Thread safety and determinism: as every Strategy (strategy.h).
#ifndef GPBANDIT_ACQUISITION_PROBABILITY_OF_IMPROVEMENT_H_
#define GPBANDIT_ACQUISITION_PROBABILITY_OF_IMPROVEMENT_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/improvement_strategy.h"

namespace gpbandit {

class ProbabilityOfImprovement : public ImprovementStrategy {
 public:
  explicit ProbabilityOfImprovement(const ImprovementOptions& options = DefaultOptions());
  // PI's defaults: ImprovementOptions with relative_xi_per_dim = 0.005.
  static ImprovementOptions DefaultOptions();
  // The registry's factory: the options from params over DefaultOptions()
  // (improvement_strategy.h).
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "pi"; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_PROBABILITY_OF_IMPROVEMENT_H_
