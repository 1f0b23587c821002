// The safe set of a safe strategy's study (safe-opt, acquisition/safe_opt.h), as `gpbandit plot`
// draws it: the points where every safety signal's lower confidence bound clears its threshold
// under the study's current models (Optimizer::SafetyMargin >= 0). Declared seeds are not part
// of it here (a picture of what the models vouch for).
//
// Thread-safety: pure functions of a const Optimizer.
#ifndef GPBANDIT_CLI_SAFE_SET_SLICE_H_
#define GPBANDIT_CLI_SAFE_SET_SLICE_H_

#include <Eigen/Core>

#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {

struct SafetyRule {
  bool active = false;  // the study's strategy is safe-opt
};

// The rule of the study's strategy; inactive for every strategy but safe-opt.
SafetyRule SafetyRuleOf(const Optimizer& opt);

// Optimizer::SafetyMargin at action x and context z: min over the safety signals of (lower
// bound - threshold) in each model's prior standard deviations, >= 0 exactly on the safe set.
// NaN for an inactive rule.
double SafetyMargin(const Optimizer& opt, const SafetyRule& rule, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& z);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_SAFE_SET_SLICE_H_
