// Helpers for the tests of an Optimizer's units: a StudyReplica built from a registered
// strategy, and observations put into it as a tell applies them, without the optimizer.
#ifndef GPBANDIT_TESTS_OPTIMIZER_REPLICA_TEST_UTIL_H_
#define GPBANDIT_TESTS_OPTIMIZER_REPLICA_TEST_UTIL_H_

#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <string>

#include "gpbandit/optimizer/strategy_registry.h"
#include "optimizer/study_replica.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit {
namespace testing {

inline std::unique_ptr<internal::StudyReplica> MakeReplica(
    const Domain& domain, const std::string& strategy, const StrategyParams& params = {},
    const OptimizerOptions& options = CheapOptions()) {
  return std::make_unique<internal::StudyReplica>(
      domain, StrategyRegistry::Default().Create(strategy, params), strategy,
      StrategyRegistry::Default().ResolveOptions(strategy, params), options, nullptr);
}

// An accepted observation y at (x, z) of round 0 in the models and the observations.
inline void AddObservation(internal::StudyReplica* r, const Eigen::VectorXd& x, double y,
                           const Eigen::VectorXd& z = Eigen::VectorXd(),
                           const Eigen::VectorXd& constraints = Eigen::VectorXd()) {
  r->model->Add(r->inputs.Input(x, z, 0), r->domain.ToUnit(x, z), y, true, constraints);
  Observation o{x, z, y, true, std::nan(""), constraints};
  r->observations.push_back(o);
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_OPTIMIZER_REPLICA_TEST_UTIL_H_
