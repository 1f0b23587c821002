// Probability of improvement (Kushner 1964; "MPI" in Srinivas et al.):
//   PI = Phi((mu - best - xi) / sigma),
// with best the incumbent and xi the margin (expected_improvement.h's ImprovementOptions).
// With sigma = 0: 1 if mu > best + xi, 1/2 if equal, 0 below. With no incumbent: 1 everywhere.
// Far below the incumbent PI underflows to 0 (finite). Registered as "pi".
#ifndef GPBANDIT_ACQUISITION_PROBABILITY_OF_IMPROVEMENT_H_
#define GPBANDIT_ACQUISITION_PROBABILITY_OF_IMPROVEMENT_H_

#include <limits>
#include <memory>
#include <string>

#include "gpbandit/acquisition/expected_improvement.h"
#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {

class ProbabilityOfImprovement : public IndexStrategy {
 public:
  explicit ProbabilityOfImprovement(const ImprovementOptions& options = ImprovementOptions());

  std::string name() const override { return "pi"; }
  void BeginRound(const RoundState& state) override;
  double figure() const override { return options_.xi; }
  std::string figure_name() const override { return "xi"; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override;

  double incumbent() const { return incumbent_; }

 private:
  ImprovementOptions options_;
  double incumbent_ = -std::numeric_limits<double>::infinity();
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_PROBABILITY_OF_IMPROVEMENT_H_
