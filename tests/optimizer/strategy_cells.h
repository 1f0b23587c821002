// What a registered strategy needs beyond its defaults to run in the combination tests: the safe
// strategy (safe-opt) a threshold no reward of the test's problem comes near and one declared
// safe point, and no initial design (it evaluates its seeds first).
#ifndef GPBANDIT_TESTS_OPTIMIZER_STRATEGY_CELLS_H_
#define GPBANDIT_TESTS_OPTIMIZER_STRATEGY_CELLS_H_

#include <Eigen/Core>
#include <sstream>
#include <string>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {
namespace testing {

// threshold: in the caller's units (a reward's lower bound, or a cost's upper bound when the
// optimizer minimizes); seed: a point of the domain, original units.
inline StrategyParams CellParams(const std::string& strategy, double threshold,
                                 const Eigen::VectorXd& seed) {
  if (strategy != "safe-opt") return StrategyParams();
  std::ostringstream seeds;
  seeds.precision(17);
  seeds << "[[";
  for (Eigen::Index i = 0; i < seed.size(); ++i) seeds << (i ? ", " : "") << seed(i);
  seeds << "]]";
  return StrategyParams().With("threshold", threshold).WithText("seeds", seeds.str());
}

inline OptimizerOptions CellOptions(const std::string& strategy, OptimizerOptions options) {
  if (strategy != "safe-opt") return options;
  options.initial_design_size = 0;
  return options;
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_OPTIMIZER_STRATEGY_CELLS_H_
