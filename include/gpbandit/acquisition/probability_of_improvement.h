// Probability of improvement (Kushner 1964; "MPI" in Srinivas et al.):
//   PI = Phi((mu - best - xi) / sigma),
// with best the incumbent and xi the margin (improvement_strategy.h's ImprovementOptions).
// PI's default margin is relative_xi = 0.01 prior standard deviations of f (Lizotte's 2008
// suggestion of 0.01 of the outputs' spread): with xi = 0, PI stalled at the first local
// maximum and lost to random search on a 6-D Ackley of the generated problems' tuning half
// (docs/benchmarks.md, "Defaults on problems nobody tuned for"); 0.1 explored too much.
// With sigma = 0: 1 if mu > best + xi, 1/2 if equal, 0 below. With no incumbent: 1 everywhere.
// Far below the incumbent PI underflows to 0 (finite). Registered as "pi".
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
  // PI's defaults: ImprovementOptions with relative_xi = 0.01.
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
