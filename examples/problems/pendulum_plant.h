// The simulated robot of the demo: an inverted pendulum (a motor-driven arm carrying a payload
// at its tip) balanced upright by a PD controller, u = -kp * theta - kd * theta_dot, where theta
// is the angle from upright. The payload mass changes from episode to episode and is revealed
// to the tuner as the context.
//
// Why the best gains depend on the payload: gravity pulls with (m l + m_arm l / 2) g sin(theta),
// so a heavy payload needs a stiff loop (large kp) to come back at all within the torque limit,
// while a light payload has little inertia, and the same stiff loop then rings or goes unstable
// through the sensing/actuation delay. A context-free tuner has to compromise between them.
//
// Model: (m l^2 + m_arm l^2 / 3) theta'' = (m l + m_arm l / 2) g sin(theta) - b theta' + u,
// u clamped to [-max_torque, max_torque], held for one control period (zero-order hold), computed
// from the state measured delay_steps control periods earlier; integrated with semi-implicit
// Euler on substeps. An episode starts at theta = initial_angle at rest and lasts `duration`.
//
// Reward (to maximize): -sqrt(mean over control steps of theta^2 + w_rate theta'^2 + w_u u^2),
// in radians-ish units (0 is a perfect controller); an episode in which the arm falls past
// fall_angle stops there and the remaining steps are charged at the fall angle, so falling is
// always worse than staying up. Observed rewards add N(0, reward_noise^2) (sensor noise and
// run-to-run variation).
//
// Thread safety: const members are safe to call concurrently; deterministic without noise.
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_PENDULUM_PLANT_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_PENDULUM_PLANT_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace problems {

struct PendulumOptions {
  // Arm length l in m, > 0. Default 0.5.
  double arm_length = 0.5;
  // Mass of the (uniform) arm in kg, >= 0. Default 0.2.
  double arm_mass = 0.2;
  // Viscous friction b at the joint in N m s / rad, >= 0. Default 0.02.
  double friction = 0.02;
  // Motor torque limit in N m, > 0. Default 5.
  double max_torque = 5.0;
  // Control period in s, > 0. Default 0.01 (100 Hz).
  double control_period = 0.01;
  // Physics substeps per control period, >= 1. Default 5.
  int substeps = 5;
  // Latency between measuring the state and applying the torque, in control periods, >= 0.
  // Default 3 (30 ms): what makes overly stiff loops ring on a light payload.
  int delay_steps = 3;
  // Episode length in s, > 0. Default 2.
  double duration = 2.0;
  // Initial angle from upright in rad, in (0, fall_angle). Default 0.3.
  double initial_angle = 0.3;
  // |theta| beyond which the arm has fallen and the episode ends, in rad, > 0. Default 1.2.
  double fall_angle = 1.2;
  // Cost weights of the squared angular rate and torque, >= 0. Defaults 0.01 and 0.002.
  double rate_weight = 0.01;
  double torque_weight = 0.002;
  // Standard deviation of the noise added to observed rewards, >= 0. Default 0.01.
  double reward_noise = 0.01;

  // True if every field is in range; otherwise false and *error names the field and value.
  bool IsValid(std::string* error) const;
};

struct PendulumTrajectory {
  std::vector<double> time, angle, rate, torque;
  bool fell = false;
};

class PendulumPlant {
 public:
  // Throws std::invalid_argument if the options are not valid.
  explicit PendulumPlant(const PendulumOptions& options = PendulumOptions());

  const PendulumOptions& options() const { return options_; }

  // The noise-free reward of one episode with gains (kp, kd) and the given payload mass (kg).
  // Throws std::invalid_argument for non-finite gains or a negative / non-finite mass.
  // If trajectory is non-null it receives the closed-loop trajectory.
  double Reward(double kp, double kd, double payload_mass,
                PendulumTrajectory* trajectory = nullptr) const;

  // One observed episode: Reward() plus N(0, reward_noise^2) drawn from rng.
  double NoisyReward(double kp, double kd, double payload_mass, Rng& rng) const;

 private:
  PendulumOptions options_;
};

// The box of gains the demo tunes: kp in [0, 60] N m / rad, kd in [0, 6] N m s / rad.
Eigen::Vector2d PendulumGainLower();
Eigen::Vector2d PendulumGainUpper();

// The best gains for one payload by brute force: the reward on a grid of points_per_axis^2
// gains in the box, then a finer grid of the same size around the best cell. Deterministic.
struct BruteForceResult {
  Eigen::Vector2d gains = Eigen::Vector2d::Zero();
  double reward = 0.0;
  int evaluations = 0;
};
BruteForceResult BruteForceBestGains(const PendulumPlant& plant, double payload_mass,
                                     int points_per_axis = 41);

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_PENDULUM_PLANT_H_
