// One safe tuning run on a plant of the family (safe_plants.h), as a controls engineer would
// drive it: safe-opt with the plant's seed and its limits written in one unit convention, a
// noisy episode per ask, then what came of it: the episodes that broke a limit (noise-free),
// how much of the truly safe gains the final safe set covers, and the recommendation's true
// reward against the best safe gains found by brute force. Used by tests/examples and
// bench/safe_plant_study.cc.
//
// Thread safety: RunSafeTuning may run concurrently on distinct plants or the same const plant.
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_SAFE_TUNING_RUN_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_SAFE_TUNING_RUN_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "examples/problems/safe_plants.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace problems {

struct SafeTuningSettings {
  // Episodes counted (>= 1), then asks timed at t = episodes + 1 ... (>= 0, each told too).
  int episodes = 100;
  int timed_asks = 5;
  // The optimizer's seed; the plant's noise and the contexts draw from seed + 1000. The
  // optimizer runs on one thread.
  std::uint64_t seed = 1;
  // safe-opt's options beyond thresholds and seeds (beta, signal_models, ...).
  StrategyParams strategy_options;
  // The models of log format <= 4 (safe-opt's calibrated = false, every signal in the units it
  // is told in, unstandardized outputs): what safe-opt did before it modelled each signal in its
  // own units.
  bool raw_models = false;
};

// The truth at one context: the plant on a grid (EvaluateGrid) and the context.
struct PlantTruth {
  Eigen::VectorXd context;
  PlantGrid grid;
};

struct ContextOutcome {
  Eigen::VectorXd context;
  Eigen::VectorXd recommended;  // Best(context), original units
  double reward = 0;            // its noise-free reward, SI
  bool safe = false;            // noise-free
  // (reward - seed's) / (best safe grid reward - seed's): 1 = the brute-force optimum.
  double gap_closed = 0;
  // The fraction of the truly safe grid gains with SafetyMargin >= 0, and of the gains with
  // SafetyMargin >= 0 that are truly unsafe.
  double coverage = 0;
  double false_safe = 0;
  // Where the gap is lost, as gap_closed of the best truly safe gains (noise-free) among: the
  // grid gains with SafetyMargin >= 0 at this context (what a recommendation from the models'
  // safe set could reach), and the evaluated actions with SafetyMargin >= 0 at this context,
  // wherever evaluated (what a recommendation among them could reach); both with the declared
  // seed (0), which Best may always recommend.
  double safe_set_best = 0;
  double evaluated_best = 0;
};

struct SafeTuningResult {
  int unsafe_episodes = 0;  // among the counted episodes (noise-free)
  // The largest noise-free excess of a limited quantity over its limit among the counted
  // episodes, as a fraction of the limit (q / L - 1; negative when every episode was safe).
  double worst_excess = -1.0;
  // Mean over the timed asks, CPU time of the asking thread (the optimizer runs on one).
  double ask_milliseconds = 0;
  std::vector<ContextOutcome> outcomes;  // one per truth
};

// truths: one per context the result is judged at (one with an empty context for a plant
// without contexts). Contexts of the episodes are drawn uniformly in the plant's context box.
SafeTuningResult RunSafeTuning(const SafePlant& plant, const UnitConvention& convention,
                               const std::vector<PlantTruth>& truths,
                               const SafeTuningSettings& settings);

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_SAFE_TUNING_RUN_H_
