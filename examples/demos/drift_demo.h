// The drifting-robot study behind `gpbandit drift-demo`: the pendulum of
// problems/pendulum_plant.h with one payload, whose plant changes slowly over the episodes (the
// joint's friction wears and the payload grows, say a gripper collecting material): constant for
// the first drift_start episodes, then moving linearly until drift_end, then constant again at
// its final state. Each strategy tunes the PD gains (kp, kd) over the whole run without being
// told about the drift; the figure of merit is its regret after the drift, the mean over the
// last `measured_episodes` episodes of (best reward of the final plant by brute force) - (the
// noise-free reward of the gains it played), over several seeds. A stationary strategy
// (GP-UCB) averages the old plant's data with the new; TV-GP-UCB and R-GP-UCB forget it
// (Bogunovic, Scarlett & Cevher 2016).
#ifndef GPBANDIT_EXAMPLES_DEMOS_DRIFT_DEMO_H_
#define GPBANDIT_EXAMPLES_DEMOS_DRIFT_DEMO_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "examples/problems/pendulum_plant.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace examples {

struct DriftDemoOptions {
  // Episodes per run (--rounds), >= 1; the drift runs from episode drift_start to drift_end
  // (0 <= drift_start <= drift_end <= episodes); the regret is measured over the last
  // measured_episodes (1..episodes). Defaults 150, 50, 100, 50.
  int episodes = 150;
  int drift_start = 50;
  int drift_end = 100;
  int measured_episodes = 50;
  // The plant before and after the drift: payload in kg, joint friction in N m s / rad (each
  // finite and >= 0). Defaults 0.2 -> 1.2 kg and 0.02 -> 0.5.
  double payload_before = 0.2, payload_after = 1.2;
  double friction_before = 0.02, friction_after = 0.5;
  // Registry names of the strategies compared and their options (e.g. {"epsilon": 0.03} for
  // tv-gp-ucb), one StrategyParams per strategy. Each gets beta_scale 0.2 unless its options
  // set it.
  std::vector<std::string> strategies = {"gp-ucb", "tv-gp-ucb", "r-gp-ucb"};
  std::vector<StrategyParams> strategy_options;
  // Runs per strategy (--trials), seeds 1..seeds (reward noise and optimizer). >= 1. Default 5.
  int seeds = 5;
  int brute_force_points = 41;  // >= 2
  int threads = 0;              // >= 0
  problems::PendulumOptions plant;

  bool IsValid(std::string* error) const;
};

struct DriftRun {
  std::string strategy;
  std::uint64_t seed = 0;
  std::vector<double> regret;     // per episode, against the best gains of that episode's plant
  double regret_after_drift = 0;  // mean over the measured episodes
  double seconds = 0;
};

struct DriftDemoResult {
  std::vector<DriftRun> runs;
  problems::BruteForceResult best_before, best_after;
};

// Runs every strategy on every seed; progress lines to `progress`. Throws std::invalid_argument
// for invalid options.
DriftDemoResult RunDriftDemo(const DriftDemoOptions& options, std::ostream& progress);

// One row per strategy: the regret after the drift, mean and standard deviation over the seeds,
// and each seed's value.
void PrintDriftTable(const DriftDemoResult& result, const DriftDemoOptions& options,
                     std::ostream& out);

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_DEMOS_DRIFT_DEMO_H_
