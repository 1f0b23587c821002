// The robot-controller demo behind `gpbandit demo` (the README's first command).
//
// The pendulum of problems/pendulum_plant.h is balanced by PD gains (kp, kd) in a box. Before
// each episode the payload mass is drawn from a few conditions and revealed. Two tuners learn
// from the same episodes (same conditions, same reward noise):
// - CGP-UCB: one GP over gains x payload (the Optimizer's default product kernel, Matern-5/2
//   ARD over gains times Matern-5/2 over the payload), hyperparameters fitted by Ceres on the
//   Optimizer's refit schedule; it maximizes the UCB over the gains with the payload held at the
//   revealed value (Krause & Ong 2011).
// - GP-UCB without the context: the same, but its GP never sees the payload, so it can only
//   learn one compromise for all conditions (Krause & Ong's "merge" baseline).
// At the end each tuner recommends gains per condition (CGP-UCB: among the gains it tried in
// that condition, the highest posterior mean at that payload; GP-UCB: its one best point), and
// both are compared with the best gains found by brute force on the noise-free plant.
#ifndef GPBANDIT_EXAMPLES_DEMOS_ROBOT_DEMO_H_
#define GPBANDIT_EXAMPLES_DEMOS_ROBOT_DEMO_H_

#include <Eigen/Core>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "examples/problems/pendulum_plant.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace examples {

struct RobotDemoOptions {
  // Episodes each tuner runs (--rounds: one round of a tuner is one episode). >= 1. Default
  // 150.
  int episodes = 150;
  // Payload masses (kg) of the conditions; each episode draws one uniformly. >= 1 entries,
  // each >= 0. Default {0.1, 0.5, 1.2}.
  std::vector<double> payloads = {0.1, 0.5, 1.2};
  // Multiplies beta_t of both tuners (Srinivas et al.'s experiments use 0.2). > 0. Default 0.2.
  double beta_scale = 0.2;
  // More options of each tuner (the keys of acquisition/gp_ucb.h), applied after beta_scale:
  // CGP-UCB's (--option cgp-ucb:key=value, or key=value for both) and GP-UCB's. Default none.
  StrategyParams contextual_options, plain_options;
  // Points per axis of the brute-force grid (two passes, coarse then fine). >= 2. Default 41.
  int brute_force_points = 41;
  // OpenMP threads of the acquisition maximizer (0 = default). >= 0. Default 0.
  int threads = 0;
  // Seed of the conditions, the reward noise and the tuners. Default 1.
  std::uint64_t seed = 1;
  // The plant (its reward_noise is the episode-to-episode noise).
  problems::PendulumOptions plant;

  bool IsValid(std::string* error) const;
};

struct DemoEpisode {
  int episode = 0;    // 1-based
  int condition = 0;  // index into payloads
  Eigen::Vector2d contextual_gains = Eigen::Vector2d::Zero();
  Eigen::Vector2d plain_gains = Eigen::Vector2d::Zero();
  double contextual_reward = 0, plain_reward = 0;      // noise-free
  double contextual_observed = 0, plain_observed = 0;  // what the tuners were told
  double best_reward = 0;                              // brute force, this condition
};

struct DemoCondition {
  double payload = 0;
  problems::BruteForceResult brute_force;
  Eigen::Vector2d contextual_gains = Eigen::Vector2d::Zero();
  Eigen::Vector2d plain_gains = Eigen::Vector2d::Zero();
  double contextual_reward = 0, plain_reward = 0;  // noise-free, at the recommended gains
  int episodes = 0;                                // episodes played in this condition
};

struct RobotDemoResult {
  std::vector<DemoEpisode> episodes;
  std::vector<DemoCondition> conditions;
  double seconds_brute_force = 0, seconds_contextual = 0, seconds_plain = 0;
};

// Runs the demo; progress lines go to `progress`. Throws std::invalid_argument for invalid
// options.
RobotDemoResult RunRobotDemo(const RobotDemoOptions& options, std::ostream& progress);

// The final table (one row per condition, then the mean regret per episode of each tuner).
void PrintDemoTable(const RobotDemoResult& result, std::ostream& out);

// One row per episode: episode, payload, the gains and rewards of both tuners, the best reward.
void WriteDemoCsv(const RobotDemoResult& result, const RobotDemoOptions& options,
                  const std::string& path);

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_DEMOS_ROBOT_DEMO_H_
