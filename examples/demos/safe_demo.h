// The safe-tuning study behind `gpbandit safe-demo`: the pendulum of problems/pendulum_plant.h
// with one payload, whose PD gains (kp, kd) are tuned under a safety limit a controls engineer
// would set on the hardware: the peak angle error of an episode, max_t |theta(t)| in rad, must
// stay at or below peak_error_limit (an arm that swings further hits its end stops or its
// neighbours; an arm that falls has peak error fall_angle). Gains outside that set are unsafe.
//
// Each strategy tunes the gains for `episodes` episodes per seed, starting from one safe seed
// gain chosen by brute force (a mediocre but comfortably safe gain, as a hand-tuned start is):
// - safe-opt (SafeOpt-MC, Berkenkamp, Krause & Schoellig 2016): reward = the episode's reward,
//   one constraint signal g = peak_error_limit - peak error, threshold 0, told with every
//   episode (Optimizer::Tell with constraints); it suggests only gains whose lower bound on g
//   is >= 0;
// - every other strategy (GP-UCB by default) sees the rewards only, as an unconstrained tuner.
// There is no payload context here, so CGP-UCB has nothing to condition on and is not run.
//
// Figures: the unsafe episodes (noise-free peak error above the limit) per run, and the final
// recommendation: among the episodes whose measured peak error was within the limit, the gains
// with the highest posterior mean reward; its noise-free reward and whether it is truly safe,
// against the best safe reward on the brute-force grid.
#ifndef GPBANDIT_EXAMPLES_DEMOS_SAFE_DEMO_H_
#define GPBANDIT_EXAMPLES_DEMOS_SAFE_DEMO_H_

#include <Eigen/Core>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "examples/problems/pendulum_plant.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace examples {

struct SafeDemoOptions {
  int episodes = 150;  // per run (--rounds), >= 1
  int seeds = 5;       // runs per strategy (--trials), seeds 1..seeds, >= 1
  // The payload in kg, finite and >= 0. Default 1.2 (the heaviest of `gpbandit demo`: the
  // stiffest loop, the most gains that ring or fall).
  double payload = 1.2;
  // The safety limit on the peak angle error, rad, in (initial_angle, fall_angle) of the plant.
  // Default 0.35 rad (20 degrees; the episode starts at 0.3 rad).
  double peak_error_limit = 0.35;
  // Standard deviation of the noise on the measured peak error, rad, finite and >= 0.
  // Default 0.005.
  double peak_error_noise = 0.005;
  // Registry names of the strategies compared and their options; safe-opt gets the constraint
  // threshold, the seed and beta 3 unless its options set them, the others beta_scale 0.2.
  std::vector<std::string> strategies = {"safe-opt", "gp-ucb"};
  std::vector<StrategyParams> strategy_options;
  int grid_points = 41;  // per axis of the brute-force grid (--brute-force-points), >= 2
  int threads = 0;       // >= 0
  // If not empty: safe-opt's run for seed 1 keeps its log there (safe_opt_seed1.jsonl) and
  // `gpbandit plot` draws its model and safe set after each of plot_stages episodes
  // (safe_set_after_NNN.png). Stages beyond `episodes` are skipped.
  std::string plot_dir;
  std::vector<int> plot_stages = {10, 30, 60, 150};
  // Keep gnuplot's data and script beside each picture (gpbandit plot --keep-plot-files).
  // Default false.
  bool keep_plot_files = false;
  problems::PendulumOptions plant;

  bool IsValid(std::string* error) const;
};

// One noise-free episode's figures.
struct SafeEpisode {
  double reward = 0;
  double peak_error = 0;  // rad
};
SafeEpisode RunSafeEpisode(const problems::PendulumPlant& plant, const Eigen::Vector2d& gains,
                           double payload);

// The brute-force reference on a grid_points^2 grid of the gain box.
struct SafeReference {
  double unsafe_fraction = 0;  // of the grid points
  Eigen::Vector2d best_safe_gains = Eigen::Vector2d::Zero();
  double best_safe_reward = 0;
  double best_reward = 0;                                // without the limit
  Eigen::Vector2d seed_gains = Eigen::Vector2d::Zero();  // the declared safe start
  double seed_reward = 0, seed_peak_error = 0;
};
SafeReference ComputeSafeReference(const SafeDemoOptions& options);

struct SafeRun {
  std::string strategy;
  std::uint64_t seed = 0;
  int unsafe_episodes = 0;
  Eigen::Vector2d recommended = Eigen::Vector2d::Zero();
  double recommended_reward = 0;  // noise-free
  bool recommended_safe = false;  // noise-free peak error within the limit
  double seconds = 0;
};

struct SafeDemoResult {
  SafeReference reference;
  std::vector<SafeRun> runs;
};

// Runs every strategy on every seed; progress lines to `progress`. Throws std::invalid_argument
// for invalid options.
SafeDemoResult RunSafeDemo(const SafeDemoOptions& options, std::ostream& progress);

// One Markdown row per strategy: unsafe episodes (total and per seed), the recommended gains'
// reward (mean, sd) and how many are safe, against the best safe reward by brute force.
void PrintSafeTable(const SafeDemoResult& result, const SafeDemoOptions& options,
                    std::ostream& out);

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_DEMOS_SAFE_DEMO_H_
