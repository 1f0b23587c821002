#include "cli/safe_set_slice.h"

#include <limits>

namespace gpbandit {
namespace cli {

SafetyRule SafetyRuleOf(const Optimizer& opt) {
  SafetyRule rule;
  rule.active = opt.strategy_name() == "safe-opt";
  return rule;
}

double SafetyMargin(const Optimizer& opt, const SafetyRule& rule, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& z) {
  if (!rule.active) return std::numeric_limits<double>::quiet_NaN();
  return opt.SafetyMargin(x, z);
}

}  // namespace cli
}  // namespace gpbandit
