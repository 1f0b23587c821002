#include "examples/problems/safe_plants.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace gpbandit {
namespace problems {
namespace {

void CheckPoint(const Eigen::VectorXd& v, Eigen::Index size, const char* what) {
  if (v.size() != size)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(v.size()) +
                                " coordinates, the plant needs " + std::to_string(size));
  if (!v.allFinite()) throw std::invalid_argument(std::string(what) + " is not finite");
}

double Clamp(double v, double limit) { return std::max(-limit, std::min(limit, v)); }

// A bound of a plant's one context coordinate, or no context.
Eigen::VectorXd ContextBound(bool with_context, double value) {
  return with_context ? Eigen::VectorXd::Constant(1, value) : Eigen::VectorXd();
}

// The convention that writes every limit as "-q >= -L" in SI units and the reward as is.
UnitConvention SiConvention(int limits) {
  UnitConvention c;
  c.name = "SI";
  c.scale.assign(static_cast<std::size_t>(limits), -1.0);
  c.shift.assign(static_cast<std::size_t>(limits), 0.0);
  return c;
}

// "1 - q / L >= 0": every limit as the fraction of it left.
UnitConvention FractionConvention(const Eigen::VectorXd& limits) {
  UnitConvention c;
  c.name = "fraction of the limit left";
  for (Eigen::Index i = 0; i < limits.size(); ++i) {
    c.scale.push_back(-1.0 / limits(i));
    c.shift.push_back(1.0);
  }
  return c;
}

// ---- Rover ----------------------------------------------------------------------------------

class RoverPlant : public SafePlant {
 public:
  explicit RoverPlant(bool with_payload) : with_payload_(with_payload) {}
  std::string name() const override { return with_payload_ ? "rover with payloads" : "rover"; }
  Eigen::VectorXd lower() const override { return Eigen::Vector3d(2.0, 0.0, 8.0); }
  Eigen::VectorXd upper() const override { return Eigen::Vector3d(30.0, 6.0, 24.0); }
  int context_dim() const override { return with_payload_ ? 1 : 0; }
  Eigen::VectorXd context_lower() const override { return ContextBound(with_payload_, 0.0); }
  Eigen::VectorXd context_upper() const override { return ContextBound(with_payload_, 4.0); }
  std::string context_unit() const override { return "kg"; }
  Eigen::VectorXd limits() const override { return Eigen::Vector2d(0.05, 1.2); }
  std::vector<std::string> limit_names() const override {
    return {"overshoot (m)", "peak speed (m/s)"};
  }
  Eigen::VectorXd noise_stddev() const override { return Eigen::Vector3d(0.01, 0.002, 0.01); }
  Eigen::VectorXd seed() const override { return Eigen::Vector3d(8.0, 1.0, 12.0); }

  PlantEpisode Simulate(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const override {
    CheckPoint(x, 3, "rover gains");
    CheckPoint(z, context_dim(), "rover payload");
    const double kp = x(0), ki = x(1), kd = x(2);
    const double mass = kMass + (with_payload_ ? std::max(z(0), 0.0) : 0.0);
    double position = 0, speed = 0, integral = 0, force = 0, peak = 0, peak_speed = 0, iae = 0;
    const int steps = static_cast<int>(std::lround(kDuration / kStep));
    for (int k = 0; k < steps; ++k) {
      const double error = 1.0 - position;
      integral += error * kStep;
      // PID with the derivative on the measured speed (no kick at the step), saturated motor.
      const double command = Clamp(kp * error + ki * integral - kd * speed, kMaxForce);
      force += (command - force) * kStep / kMotorLag;
      speed += (force - kDrag * speed - kSlopeForce) / mass * kStep;
      position += speed * kStep;
      peak = std::max(peak, position);
      peak_speed = std::max(peak_speed, std::abs(speed));
      iae += std::abs(error) * kStep;
    }
    PlantEpisode e;
    e.reward = -iae;
    e.limited = Eigen::Vector2d(peak - 1.0, peak_speed);
    return e;
  }

  std::vector<UnitConvention> conventions() const override {
    UnitConvention practical;
    practical.name = "mm, km/h, reward in mm s";
    practical.reward_scale = 1000.0;
    practical.scale = {-1000.0, -3.6};
    practical.shift = {0.0, 0.0};
    return {SiConvention(2), practical, FractionConvention(limits())};
  }

 private:
  static constexpr double kMass = 4.0, kDrag = 2.0, kSlopeForce = 4.0, kMaxForce = 20.0;
  static constexpr double kMotorLag = 0.15, kDuration = 8.0, kStep = 0.002;
  bool with_payload_;
};

// ---- Heater ---------------------------------------------------------------------------------

class HeaterPlant : public SafePlant {
 public:
  explicit HeaterPlant(bool with_door_loss) : with_door_loss_(with_door_loss) {}
  std::string name() const override {
    return with_door_loss_ ? "heater with door losses" : "heater";
  }
  int context_dim() const override { return with_door_loss_ ? 1 : 0; }
  Eigen::VectorXd context_lower() const override { return ContextBound(with_door_loss_, 0.0); }
  Eigen::VectorXd context_upper() const override {
    return ContextBound(with_door_loss_, kMaxDoorLoss);
  }
  std::string context_unit() const override { return "of the heating range"; }
  Eigen::VectorXd lower() const override { return Eigen::Vector2d(0.005, 0.0); }
  Eigen::VectorXd upper() const override { return Eigen::Vector2d(0.1, 0.00025); }
  Eigen::VectorXd limits() const override { return Eigen::VectorXd::Constant(1, 203.5); }
  std::vector<std::string> limit_names() const override { return {"peak temperature (degC)"}; }
  Eigen::VectorXd noise_stddev() const override { return Eigen::Vector2d(0.02, 0.2); }
  Eigen::VectorXd seed() const override { return Eigen::Vector2d(0.02, 0.00005); }

  PlantEpisode Simulate(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const override {
    CheckPoint(x, 2, "heater gains");
    CheckPoint(z, context_dim(), "heater door loss");
    const double kp = x(0), ki = x(1);
    const double door_loss = with_door_loss_ ? std::max(z(0), 0.0) : kDoorLoss;
    // The loop starts settled at the old setpoint, held by a bias (the heating power it took),
    // with the integrator at 0: the same start for every gain.
    const double bias = (kStart - kAmbient) / kRange;
    double temperature = kStart, integral = 0.0, peak = kStart, iae = 0.0;
    const int delay = static_cast<int>(std::lround(kDeadTime / kStep));
    std::vector<double> pending(static_cast<std::size_t>(delay), bias);
    const int steps = static_cast<int>(std::lround(kDuration / kStep));
    for (int k = 0; k < steps; ++k) {
      const double error = kSetpoint - temperature;
      integral += error * kStep;
      const double u = std::min(1.0, std::max(0.0, bias + kp * error + ki * integral));
      const std::size_t slot = static_cast<std::size_t>(k % delay);
      const double applied = pending[slot];
      pending[slot] = u;
      const double t = k * kStep;
      const double door = (t >= kDoorOpen && t < kDoorClose) ? door_loss * kRange : 0.0;
      temperature += kStep / kTimeConstant * (-(temperature - kAmbient) + kRange * applied - door);
      peak = std::max(peak, temperature);
      iae += std::abs(error) * kStep;
    }
    PlantEpisode e;
    e.reward = -iae / kDuration;
    e.limited = Eigen::VectorXd::Constant(1, peak);
    return e;
  }

  std::vector<UnitConvention> conventions() const override {
    UnitConvention celsius = SiConvention(1);
    celsius.name = "degC";
    UnitConvention fahrenheit;
    fahrenheit.name = "degF";
    fahrenheit.reward_scale = 1.8;
    fahrenheit.scale = {-1.8};
    fahrenheit.shift = {-32.0};
    UnitConvention kelvin;
    kelvin.name = "K";
    kelvin.scale = {-1.0};
    kelvin.shift = {-273.15};
    return {celsius, fahrenheit, kelvin};
  }

 private:
  static constexpr double kAmbient = 25.0, kRange = 275.0, kTimeConstant = 120.0;
  static constexpr double kDeadTime = 8.0, kStart = 180.0, kSetpoint = 200.0;
  static constexpr double kDuration = 600.0, kStep = 0.5;
  static constexpr double kDoorOpen = 250.0, kDoorClose = 400.0, kDoorLoss = 0.15;
  static constexpr double kMaxDoorLoss = 0.2;
  bool with_door_loss_;
};

// ---- Motor ----------------------------------------------------------------------------------

class MotorPlant : public SafePlant {
 public:
  explicit MotorPlant(bool with_load) : with_load_(with_load) {}
  std::string name() const override { return with_load_ ? "motor with loads" : "motor"; }
  int context_dim() const override { return with_load_ ? 1 : 0; }
  Eigen::VectorXd context_lower() const override { return ContextBound(with_load_, 0.0); }
  Eigen::VectorXd context_upper() const override {
    return ContextBound(with_load_, kMaxLoadTorque);
  }
  std::string context_unit() const override { return "N m"; }
  Eigen::VectorXd lower() const override { return Eigen::Vector3d(0.01, 0.0, 0.01); }
  Eigen::VectorXd upper() const override { return Eigen::Vector3d(0.5, 20.0, 0.2); }
  Eigen::VectorXd limits() const override { return Eigen::VectorXd::Constant(1, 12.0); }
  std::vector<std::string> limit_names() const override { return {"peak current (A)"}; }
  Eigen::VectorXd noise_stddev() const override { return Eigen::Vector2d(0.05, 0.1); }
  Eigen::VectorXd seed() const override { return Eigen::Vector3d(0.05, 1.0, 0.15); }

  PlantEpisode Simulate(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const override {
    CheckPoint(x, 3, "motor gains");
    CheckPoint(z, context_dim(), "motor load torque");
    const double kp = x(0), ki = x(1), ramp = std::max(x(2), kStep);
    const double load = with_load_ ? std::max(z(0), 0.0) : kLoadTorque;
    double current = 0, speed = 0, integral = 0, peak_current = 0, iae = 0;
    const int steps = static_cast<int>(std::lround(kDuration / kStep));
    for (int k = 0; k < steps; ++k) {
      const double reference = kTargetSpeed * std::min(k * kStep / ramp, 1.0);
      const double error = reference - speed;
      integral += error * kStep;
      const double voltage = Clamp(kp * error + ki * integral, kSupply);
      current += (voltage - kResistance * current - kMotorConstant * speed) / kInductance * kStep;
      speed += (kMotorConstant * current - kFriction * speed - load) / kInertia * kStep;
      peak_current = std::max(peak_current, std::abs(current));
      iae += std::abs(kTargetSpeed - speed) * kStep;
    }
    PlantEpisode e;
    e.reward = -iae;
    e.limited = Eigen::VectorXd::Constant(1, peak_current);
    return e;
  }

  std::vector<UnitConvention> conventions() const override {
    UnitConvention ampere = SiConvention(1);
    ampere.name = "A";
    UnitConvention milliampere;
    milliampere.name = "mA, reward in rpm s";
    milliampere.reward_scale = 60.0 / (2.0 * M_PI);
    milliampere.scale = {-1000.0};
    milliampere.shift = {0.0};
    return {ampere, milliampere, FractionConvention(limits())};
  }

 private:
  static constexpr double kResistance = 0.6, kInductance = 2e-3, kMotorConstant = 0.06;
  static constexpr double kInertia = 2e-4, kFriction = 2e-5, kLoadTorque = 0.05;
  static constexpr double kSupply = 24.0, kTargetSpeed = 250.0, kDuration = 0.25, kStep = 2e-5;
  static constexpr double kMaxLoadTorque = 0.15;
  bool with_load_;
};

}  // namespace

PlantEpisode SafePlant::Measure(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                Rng& rng) const {
  PlantEpisode e = Simulate(x, z);
  const Eigen::VectorXd sd = noise_stddev();
  std::normal_distribution<double> normal(0.0, 1.0);
  e.reward += sd(0) * normal(rng);
  for (Eigen::Index i = 0; i < e.limited.size(); ++i) e.limited(i) += sd(i + 1) * normal(rng);
  return e;
}

bool SafePlant::Safe(const PlantEpisode& episode) const {
  return (episode.limited.array() <= limits().array()).all();
}

double ToldReward(const UnitConvention& c, const PlantEpisode& e) {
  return c.reward_scale * e.reward + c.reward_shift;
}

Eigen::VectorXd ToldSignals(const UnitConvention& c, const PlantEpisode& e) {
  Eigen::VectorXd g(e.limited.size());
  for (Eigen::Index i = 0; i < g.size(); ++i)
    g(i) =
        c.scale[static_cast<std::size_t>(i)] * e.limited(i) + c.shift[static_cast<std::size_t>(i)];
  return g;
}

std::vector<double> ToldThresholds(const UnitConvention& c, const Eigen::VectorXd& limits) {
  std::vector<double> h;
  for (Eigen::Index i = 0; i < limits.size(); ++i)
    h.push_back(c.scale[static_cast<std::size_t>(i)] * limits(i) +
                c.shift[static_cast<std::size_t>(i)]);
  return h;
}

double RewardFromTold(const UnitConvention& c, double told) {
  return (told - c.reward_shift) / c.reward_scale;
}

std::unique_ptr<SafePlant> MakeRoverPlant(bool with_payload) {
  return std::make_unique<RoverPlant>(with_payload);
}
std::unique_ptr<SafePlant> MakeHeaterPlant(bool with_door_loss) {
  return std::make_unique<HeaterPlant>(with_door_loss);
}
std::unique_ptr<SafePlant> MakeMotorPlant(bool with_load) {
  return std::make_unique<MotorPlant>(with_load);
}

PlantGrid EvaluateGrid(const SafePlant& plant, const Eigen::VectorXd& z, int points_per_axis) {
  if (points_per_axis < 2)
    throw std::invalid_argument("points_per_axis = " + std::to_string(points_per_axis) +
                                ": must be >= 2");
  const Eigen::VectorXd lo = plant.lower(), hi = plant.upper();
  const Eigen::Index dim = lo.size();
  Eigen::Index n = 1;
  for (Eigen::Index d = 0; d < dim; ++d) n *= points_per_axis;
  PlantGrid grid;
  grid.gains.resize(dim, n);
  grid.reward.resize(n);
  grid.safe.assign(static_cast<std::size_t>(n), false);
  int unsafe = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    Eigen::Index rest = j;
    for (Eigen::Index d = 0; d < dim; ++d) {
      const double step = static_cast<double>(rest % points_per_axis) / (points_per_axis - 1);
      rest /= points_per_axis;
      grid.gains(d, j) = lo(d) + (hi(d) - lo(d)) * step;
    }
    const PlantEpisode e = plant.Simulate(grid.gains.col(j), z);
    grid.reward(j) = e.reward;
    grid.safe[static_cast<std::size_t>(j)] = plant.Safe(e);
    unsafe += !plant.Safe(e);
    if (plant.Safe(e) && (grid.best_safe < 0 || e.reward > grid.best_safe_reward)) {
      grid.best_safe = static_cast<int>(j);
      grid.best_safe_reward = e.reward;
    }
  }
  grid.unsafe_fraction = static_cast<double>(unsafe) / static_cast<double>(n);
  return grid;
}

}  // namespace problems
}  // namespace gpbandit
