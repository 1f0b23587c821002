// One safe-opt run on a GP draw (gp_draw_problem.h): with the true kernel and noise given to
// every model and refits off (the theory's setting), or with the Optimizer's default,
// calibrated and fitted models. Used by tests/examples/gp_draw_problem_test.cc and
// bench/safe_gp_draws_study.cc.
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_GP_DRAW_RUN_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_GP_DRAW_RUN_H_

#include <cstdint>

#include "examples/problems/gp_draw_problem.h"

namespace gpbandit {
namespace problems {

struct GpDrawRunSettings {
  int rounds = 50;
  // true: the true kernel and noise for the reward and the constraint, refits off; false: the
  // Optimizer's defaults (fitted, calibrated models).
  bool known_hyperparameters = true;
  // safe-opt's delta (Sui et al.'s beta_t) when > 0, else its constant beta.
  double delta = 0.05;
  double beta = 2.0;
  std::uint64_t seed = 1;  // the optimizer's and the noise's
};

struct GpDrawRunResult {
  int unsafe_evaluations = 0;  // evaluations with g < threshold (noise-free)
  // The fraction of the grid points with g >= threshold inside the final safe set.
  double coverage = 0;
  // The noise-free reward of the point Best() recommends, whether it is truly safe, and the
  // best reward over the truly safe grid points.
  double recommended_reward = 0, best_safe_reward = 0;
  bool recommendation_safe = true;
};

GpDrawRunResult RunGpDraw(const GpDrawProblem& problem, const GpDrawRunSettings& settings);

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_GP_DRAW_RUN_H_
