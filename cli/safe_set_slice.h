// The safe set of a safe strategy's study (safe-opt, acquisition/safe_opt.h), as `gpbandit plot`
// draws it: the points where every safety signal's confidence bound clears its threshold under
// the study's current models,
//   reward (if `threshold` is set):  mu(x) - beta sigma(x) >= h   (costs: mu + beta sigma <= h),
//   constraint i:                    mu_i(x) - beta sigma_i(x) >= h_i,
// with beta and the thresholds from the study's strategy options. Declared seeds are not part
// of it here (a picture of what the models vouch for).
//
// Thread-safety: pure functions of a const Optimizer.
#ifndef GPBANDIT_CLI_SAFE_SET_SLICE_H_
#define GPBANDIT_CLI_SAFE_SET_SLICE_H_

#include <Eigen/Core>
#include <limits>
#include <vector>

#include "gpbandit/plugin/optimizer.h"

namespace gpbandit {
namespace cli {

struct SafetyRule {
  bool active = false;  // the study's strategy is safe-opt
  double beta = 2.0;
  double reward_threshold = std::numeric_limits<double>::quiet_NaN();  // NaN: none
  std::vector<double> constraint_thresholds;
};

// The rule of the study's strategy; inactive for every strategy but safe-opt.
SafetyRule SafetyRuleOf(const Optimizer& opt);

// min over the safety signals of (lower bound - threshold) at action x and context z (for a
// cost threshold: threshold - upper bound), >= 0 exactly on the safe set, in the units of the
// binding signal. NaN for an inactive rule.
double SafetyMargin(const Optimizer& opt, const SafetyRule& rule, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& z);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_SAFE_SET_SLICE_H_
