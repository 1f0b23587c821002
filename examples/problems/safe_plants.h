// Simulated plants for safe tuning (SafeOpt, acquisition/safe_opt.h): controllers whose gains
// must be tuned under hard limits, each limit written in several unit conventions, so that
// tests and bench/safe_plant_study.cc can check that safe-opt's behaviour does not depend on how
// an engineer writes a signal.
//
// Each plant maps gains (and, for the rover with payloads, a context) to one episode: a reward
// (a performance index, to maximize) and the peak quantities that have limits, all in SI units,
// noise-free; Measure adds the measurement noise of the plant. A unit convention then writes
// the reward and each limit as the engineer would tell them to the Optimizer: constraint signal
// g_i = a_i q_i + b_i with threshold h_i = a_i L_i + b_i (a_i < 0, so g_i >= h_i exactly when
// the quantity q_i is within its limit L_i), reward y = c r + d (c > 0).
//
//   rover   3 gains (kp N/m, ki N/(m s), kd N s/m) of a PID position loop of a 4 kg ground
//           robot (drag 2 N s/m, a 4 N slope force, a 20 N motor with a 0.15 s lag) moving 1 m
//           in 8 s; reward -IAE (m s); limits: overshoot <= 0.05 m, peak speed <= 1.2 m/s.
//           With payloads (RoverPlant(true)): a context, the payload mass in [0, 4] kg.
//   heater  2 gains (kp 1/K, ki 1/(K s)) of a PI temperature loop of an oven (time constant
//           120 s, dead time 8 s, 275 K of heating range), a setpoint step 180 -> 200 degC and
//           a door opened from 250 to 400 s; reward -mean |error| (K); limit: peak
//           temperature <= 203.5 degC (written in degC, degF and K: conventions that shift).
//   motor   kp (V s/rad), ki (V/rad) of a PI speed loop of a 24 V DC motor and the duration of
//           its setpoint ramp (s), 0 -> 250 rad/s in 0.25 s; reward -IAE of the speed (rad);
//           limit: peak winding current <= 12 A.
// The heater with door losses (the heat lost while the door is open, 0-20% of the heating range)
// and the motor with loads (load torque 0-0.15 N m) reveal that as a context each episode: the
// contextual plants on which safe-opt's defaults for contexts are chosen, the rover with payloads
// being the one they are judged on.
// In every plant a large part of the gain box breaks a limit and the best gains that do not
// sit on one (docs/benchmarks.md, "Safe tuning on a plant family" lists the brute-force
// figures).
//
// Thread safety: const members may be called concurrently; Simulate is deterministic.
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_SAFE_PLANTS_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_SAFE_PLANTS_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace problems {

// One episode in SI units.
struct PlantEpisode {
  double reward = 0.0;      // to maximize
  Eigen::VectorXd limited;  // the quantities q_i that have limits (num_limits())
};

// How an engineer writes the reward and the limits: y = reward_scale r + reward_shift and
// g_i = scale[i] q_i + shift[i] (scale[i] < 0), threshold h_i = scale[i] L_i + shift[i].
struct UnitConvention {
  std::string name;
  double reward_scale = 1.0, reward_shift = 0.0;
  std::vector<double> scale, shift;
};

class SafePlant {
 public:
  virtual ~SafePlant() = default;
  virtual std::string name() const = 0;
  // The gain box, original units; context bounds for a plant with a context.
  virtual Eigen::VectorXd lower() const = 0;
  virtual Eigen::VectorXd upper() const = 0;
  virtual int context_dim() const { return 0; }
  virtual Eigen::VectorXd context_lower() const { return Eigen::VectorXd(); }
  virtual Eigen::VectorXd context_upper() const { return Eigen::VectorXd(); }
  // The unit of the context, as the study's rows name it ("kg").
  virtual std::string context_unit() const { return ""; }
  // The limits L_i (SI) and what they limit ("overshoot m", ...).
  virtual Eigen::VectorXd limits() const = 0;
  virtual std::vector<std::string> limit_names() const = 0;
  // Noise-free episode at gains x and context z (empty without a context). Throws
  // std::invalid_argument for gains or a context of the wrong size or non-finite.
  virtual PlantEpisode Simulate(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const = 0;
  // Measurement noise standard deviations (SI): of the reward, then of each limited quantity.
  virtual Eigen::VectorXd noise_stddev() const = 0;
  // Gains a careful engineer starts from: well inside every limit at every context.
  virtual Eigen::VectorXd seed() const = 0;
  // The unit conventions of the study (at least three).
  virtual std::vector<UnitConvention> conventions() const = 0;

  int num_limits() const { return static_cast<int>(limits().size()); }
  // Simulate plus N(0, noise^2) on the reward and each quantity.
  PlantEpisode Measure(const Eigen::VectorXd& x, const Eigen::VectorXd& z, Rng& rng) const;
  // True when every quantity is within its limit.
  bool Safe(const PlantEpisode& episode) const;
};

// What the engineer tells: y and g in a convention's units, and the thresholds in them.
double ToldReward(const UnitConvention& c, const PlantEpisode& e);
Eigen::VectorXd ToldSignals(const UnitConvention& c, const PlantEpisode& e);
std::vector<double> ToldThresholds(const UnitConvention& c, const Eigen::VectorXd& limits);
// A told reward back in SI units.
double RewardFromTold(const UnitConvention& c, double told);

std::unique_ptr<SafePlant> MakeRoverPlant(bool with_payload = false);
// with_door_loss: the door's heat loss, a fraction of the heating range in [0, 0.2], is a
// context (0.15 without one). Beyond 0.2 the seed's peak closes in on the limit (202.5 degC at
// 0.3, 1 K below it): no longer the seed well inside every limit that every plant starts from.
std::unique_ptr<SafePlant> MakeHeaterPlant(bool with_door_loss = false);
// with_load: the load torque in [0, 0.15] N m is a context (0.05 N m without one).
std::unique_ptr<SafePlant> MakeMotorPlant(bool with_load = false);

// The plant's truth on a grid of points_per_axis points per gain (the box's corners included),
// at one context: which gains are safe and the best safe reward.
struct PlantGrid {
  Eigen::MatrixXd gains;   // dim x N
  Eigen::VectorXd reward;  // N, noise-free
  std::vector<bool> safe;  // N
  double unsafe_fraction = 0;
  int best_safe = -1;  // index of the best safe grid point
  double best_safe_reward = 0;
};
PlantGrid EvaluateGrid(const SafePlant& plant, const Eigen::VectorXd& z, int points_per_axis);

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_SAFE_PLANTS_H_
