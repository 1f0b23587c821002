// gpbandit sim-to-robot: the pendulum's PD gains (problems/pendulum_plant.h) tuned on the robot
// with the help of a simulator whose physics are wrong. The robot carries a fixed payload; the
// simulator believes the payload 30% lighter and the joint friction half what it is (by
// default), so its best gains are close to, but not, the robot's. A study with two fidelities
// (OptimizerOptions::fidelities: "sim" at sim_cost, "robot" at 1, costs in robot episodes)
// spends a budget of robot episodes, and a robot-only gp-ucb study spends the same budget on
// the robot alone. Both are scored by the robot's noise-free reward at Best(): the regret
// against the robot's best gains found by brute force, against the cost spent so far.
#ifndef GPBANDIT_EXAMPLES_DEMOS_SIM_TO_ROBOT_H_
#define GPBANDIT_EXAMPLES_DEMOS_SIM_TO_ROBOT_H_

#include <Eigen/Core>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "examples/problems/pendulum_plant.h"

namespace gpbandit {
namespace examples {

struct SimToRobotOptions {
  // The robot's plant; its reward_noise is the robot's (the simulator is noise-free).
  problems::PendulumOptions robot;
  double payload_mass = 0.5;  // the robot's payload in kg, > 0
  // The simulator's errors: its payload mass is payload_mass * sim_mass_factor and its friction
  // robot.friction * sim_friction_factor; both > 0 and finite.
  double sim_mass_factor = 0.7;
  double sim_friction_factor = 0.5;
  // The cost of one simulated episode in robot episodes: in (0, 1).
  double sim_cost = 0.05;
  // Robot episodes' worth of cost each study may spend, >= 2.
  double budget = 20.0;
  // Pairs of studies (seeds seed, seed + 1, ...), >= 1: the robot's noise and the initial
  // designs differ between them.
  int runs = 10;
  std::uint64_t seed = 1;
  bool IsValid(std::string* error) const;
};

// One study: after each tell, the cost spent, the fidelity told (0 sim, 1 robot) and the
// robot's regret at Best().
struct SimToRobotTrace {
  std::vector<double> cost, regret;
  std::vector<int> fidelity;
  int sim_episodes = 0, robot_episodes = 0;
  double cost_spent = 0.0;  // Optimizer::CostSpent() at the end
  // Best().x after the last tell (once the robot was evaluated): regret.back() is its regret.
  Eigen::Vector2d best_gains = Eigen::Vector2d::Zero();
  bool best_at_robot = false;  // Best().x is among the gains evaluated on the robot
};

struct SimToRobotResult {
  // One trace per run, in seed order.
  std::vector<SimToRobotTrace> multi_fidelity, robot_only;
  Eigen::Vector2d robot_best = Eigen::Vector2d::Zero(), sim_best = Eigen::Vector2d::Zero();
  double robot_best_reward = 0.0;
  double sim_best_on_robot_regret = 0.0;  // the robot's regret at the simulator's best gains
};

// The regret after spending at most `cost` (NaN before the first robot episode).
double SimToRobotRegretAtCost(const SimToRobotTrace& trace, double cost);

// Runs both studies `runs` times; one progress line per study on `progress`. Throws
// std::invalid_argument for invalid options.
SimToRobotResult RunSimToRobot(const SimToRobotOptions& options, std::ostream& progress);

// The median regret (and quartiles) over the runs of both studies at every whole robot episode
// of cost, then a summary.
void PrintSimToRobot(const SimToRobotResult& result, const SimToRobotOptions& options,
                     std::ostream& out);

// gnuplot's data: block 0 the multi-fidelity study, block 1 robot-only, at every whole robot
// episode of cost (columns cost, median, lower and upper quartile of the regret).
void WriteSimToRobotData(const SimToRobotResult& result, const SimToRobotOptions& options,
                         std::ostream& out);

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_DEMOS_SIM_TO_ROBOT_H_
