// Probability of improvement (Kushner 1964; "MPI" in Srinivas et al.):
//   PI = Phi((mu - best - xi) / sigma),
// with best the incumbent and xi the margin (improvement_strategy.h's ImprovementOptions).
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
  explicit ProbabilityOfImprovement(const ImprovementOptions& options = ImprovementOptions());
  // The registry's factory: xi from params (improvement_strategy.h).
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "pi"; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_PROBABILITY_OF_IMPROVEMENT_H_
