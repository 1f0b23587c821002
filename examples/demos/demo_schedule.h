// The UCB schedule the demos (robot, drift, safe) were measured with: Kandasamy et al.'s dim-log
// schedule 0.2 d log(2 t), the library's default until it became 0.05 d log(2 t)
// (acquisition/gp_ucb.h), times the demo's beta_scale. The demos' own choice, kept so that their
// documented runs stay as they were.
#ifndef GPBANDIT_EXAMPLES_DEMOS_DEMO_SCHEDULE_H_
#define GPBANDIT_EXAMPLES_DEMOS_DEMO_SCHEDULE_H_

#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace examples {

inline StrategyParams DemoUcbParams(double beta_scale) {
  return StrategyParams().With("dim_log_coefficient", 0.2).With("beta_scale", beta_scale);
}

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_DEMOS_DEMO_SCHEDULE_H_
