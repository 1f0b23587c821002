// The checks a safe strategy (Strategy::safe_seeds() non-empty: SafeOpt, SafeOpt-MC) must pass
// when an Optimizer is built, so that no ask can later evaluate a point nobody vouched for.
// Internal to optimizer/.
#ifndef GPBANDIT_OPTIMIZER_SAFE_SETUP_H_
#define GPBANDIT_OPTIMIZER_SAFE_SETUP_H_

#include <Eigen/Core>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

// Throws std::invalid_argument when num_constraints() < 0, constraints come without seeds, or
// the seeds do not suit the domain and the options (standardized outputs with a strategy that
// declares no safety signals, a space-filling design, seeds of the wrong size, outside the box,
// or not candidates of a finite set). Returns
// the seeds' unit-cube actions (action_dim x s; empty for a strategy without seeds).
Eigen::MatrixXd CheckSafeSetup(const Strategy& strategy, const Domain& domain,
                               const OptimizerOptions& options);

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_SAFE_SETUP_H_
