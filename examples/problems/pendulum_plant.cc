#include "examples/problems/pendulum_plant.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <sstream>
#include <stdexcept>

namespace gpbandit {
namespace problems {
namespace {

constexpr double kGravity = 9.81;

bool FailPendulumOption(std::string* error, const std::string& field, double value,
                        const char* rule) {
  if (error) {
    std::ostringstream out;
    out.precision(17);
    out << "PendulumOptions." << field << " = " << value << " must be " << rule;
    *error = out.str();
  }
  return false;
}

}  // namespace

bool PendulumOptions::IsValid(std::string* error) const {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  auto non_negative = [](double v) { return std::isfinite(v) && v >= 0; };
  if (!positive(arm_length)) return FailPendulumOption(error, "arm_length", arm_length, "> 0");
  if (!non_negative(arm_mass)) return FailPendulumOption(error, "arm_mass", arm_mass, ">= 0");
  if (!non_negative(friction)) return FailPendulumOption(error, "friction", friction, ">= 0");
  if (!positive(max_torque)) return FailPendulumOption(error, "max_torque", max_torque, "> 0");
  if (!positive(control_period))
    return FailPendulumOption(error, "control_period", control_period, "> 0");
  if (substeps < 1) return FailPendulumOption(error, "substeps", substeps, ">= 1");
  if (delay_steps < 0) return FailPendulumOption(error, "delay_steps", delay_steps, ">= 0");
  if (!positive(duration)) return FailPendulumOption(error, "duration", duration, "> 0");
  if (!positive(fall_angle)) return FailPendulumOption(error, "fall_angle", fall_angle, "> 0");
  if (!positive(initial_angle) || initial_angle >= fall_angle)
    return FailPendulumOption(error, "initial_angle", initial_angle, "in (0, fall_angle)");
  if (!non_negative(rate_weight))
    return FailPendulumOption(error, "rate_weight", rate_weight, ">= 0");
  if (!non_negative(torque_weight))
    return FailPendulumOption(error, "torque_weight", torque_weight, ">= 0");
  if (!non_negative(reward_noise))
    return FailPendulumOption(error, "reward_noise", reward_noise, ">= 0");
  return true;
}

PendulumPlant::PendulumPlant(const PendulumOptions& options) : options_(options) {
  std::string error;
  if (!options_.IsValid(&error)) throw std::invalid_argument(error);
}

double PendulumPlant::Reward(double kp, double kd, double payload_mass,
                             PendulumTrajectory* trajectory) const {
  if (!std::isfinite(kp) || !std::isfinite(kd)) {
    std::ostringstream out;
    out.precision(17);
    out << "pendulum gains must be finite, got kp = " << kp << ", kd = " << kd;
    throw std::invalid_argument(out.str());
  }
  if (!std::isfinite(payload_mass) || payload_mass < 0) {
    std::ostringstream out;
    out.precision(17);
    out << "pendulum payload_mass = " << payload_mass << " must be >= 0";
    throw std::invalid_argument(out.str());
  }
  const PendulumOptions& o = options_;
  const double l = o.arm_length;
  const double inertia = payload_mass * l * l + o.arm_mass * l * l / 3.0;
  const double gravity_gain = (payload_mass * l + o.arm_mass * l / 2.0) * kGravity;
  const int steps = std::max(1, static_cast<int>(std::lround(o.duration / o.control_period)));
  const double h = o.control_period / o.substeps;

  double theta = o.initial_angle, omega = 0.0;
  // Measurements waiting to reach the controller: the delay line of the loop.
  std::deque<std::pair<double, double>> measured(o.delay_steps + 1, {theta, omega});
  if (trajectory) *trajectory = PendulumTrajectory();
  double cost = 0.0;
  for (int k = 0; k < steps; ++k) {
    measured.emplace_back(theta, omega);
    const auto [seen_theta, seen_omega] = measured.front();
    measured.pop_front();
    const double u = std::clamp(-kp * seen_theta - kd * seen_omega, -o.max_torque, o.max_torque);
    if (trajectory) {
      trajectory->time.push_back(k * o.control_period);
      trajectory->angle.push_back(theta);
      trajectory->rate.push_back(omega);
      trajectory->torque.push_back(u);
    }
    if (std::abs(theta) > o.fall_angle) {
      // Charging the rest of the episode at the fall angle keeps the reward continuous in the
      // gains near the edge of stability and makes falling worse than any upright episode.
      cost += (steps - k) * o.fall_angle * o.fall_angle;
      if (trajectory) trajectory->fell = true;
      break;
    }
    cost += theta * theta + o.rate_weight * omega * omega + o.torque_weight * u * u;
    for (int s = 0; s < o.substeps; ++s) {
      const double accel = (gravity_gain * std::sin(theta) - o.friction * omega + u) / inertia;
      omega += h * accel;
      theta += h * omega;
    }
  }
  return -std::sqrt(cost / steps);
}

double PendulumPlant::NoisyReward(double kp, double kd, double payload_mass, Rng& rng) const {
  const double reward = Reward(kp, kd, payload_mass);
  std::normal_distribution<double> noise(0.0, 1.0);
  return reward + options_.reward_noise * noise(rng);
}

Eigen::Vector2d PendulumGainLower() { return Eigen::Vector2d(0.0, 0.0); }
Eigen::Vector2d PendulumGainUpper() { return Eigen::Vector2d(60.0, 6.0); }

BruteForceResult BruteForceBestGains(const PendulumPlant& plant, double payload_mass,
                                     int points_per_axis) {
  if (points_per_axis < 2)
    throw std::invalid_argument("BruteForceBestGains: points_per_axis = " +
                                std::to_string(points_per_axis) + " must be >= 2");
  BruteForceResult best;
  best.reward = -std::numeric_limits<double>::infinity();
  Eigen::Vector2d lower = PendulumGainLower(), upper = PendulumGainUpper();
  // Two passes: the coarse grid finds the basin, the fine grid (one coarse cell either side of
  // the best point) refines it, at twice the evaluations instead of squaring them.
  for (int pass = 0; pass < 2; ++pass) {
    const Eigen::Vector2d step = (upper - lower) / (points_per_axis - 1);
    for (int i = 0; i < points_per_axis; ++i) {
      for (int j = 0; j < points_per_axis; ++j) {
        const Eigen::Vector2d gains(lower(0) + i * step(0), lower(1) + j * step(1));
        const double reward = plant.Reward(gains(0), gains(1), payload_mass);
        ++best.evaluations;
        if (reward > best.reward) {
          best.reward = reward;
          best.gains = gains;
        }
      }
    }
    const Eigen::Vector2d box_lower = PendulumGainLower(), box_upper = PendulumGainUpper();
    lower = (best.gains - step).cwiseMax(box_lower);
    upper = (best.gains + step).cwiseMin(box_upper);
  }
  return best;
}

}  // namespace problems
}  // namespace gpbandit
