#include "examples/problems/pid_loop.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace problems {
namespace {

bool FailPidOption(std::string* error, const std::string& field, double value,
                   const std::string& rule) {
  if (error) *error = field + " = " + FormatDouble(value) + " must be " + rule;
  return false;
}

}  // namespace

bool PidLoopOptions::IsValid(std::string* error) const {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(gain)) return FailPidOption(error, "gain", gain, "> 0");
  if (!positive(lag1)) return FailPidOption(error, "lag1", lag1, "> 0");
  if (!positive(lag2)) return FailPidOption(error, "lag2", lag2, "> 0");
  if (lag1 == lag2) return FailPidOption(error, "lag2", lag2, "different from lag1");
  if (!positive(sample_time)) return FailPidOption(error, "sample_time", sample_time, "> 0");
  if (!(std::isfinite(dead_time) && dead_time >= 0))
    return FailPidOption(error, "dead_time", dead_time, ">= 0");
  const double samples = dead_time / sample_time;
  if (std::abs(samples - std::round(samples)) > 1e-9)
    return FailPidOption(error, "dead_time", dead_time, "a multiple of sample_time");
  if (!positive(duration)) return FailPidOption(error, "duration", duration, "> 0");
  if (!positive(max_command)) return FailPidOption(error, "max_command", max_command, "> 0");
  if (!(std::isfinite(derivative_filter) && derivative_filter >= 0))
    return FailPidOption(error, "derivative_filter", derivative_filter, ">= 0");
  return true;
}

PidLoop::PidLoop(const PidLoopOptions& options) : options_(options) {
  std::string error;
  if (!options_.IsValid(&error)) throw std::invalid_argument("PidLoopOptions: " + error);
}

PidOutcomes PidLoop::StepResponse(double kp, double ki, double kd,
                                  PidTrajectory* trajectory) const {
  if (!std::isfinite(kp) || !std::isfinite(ki) || !std::isfinite(kd))
    throw std::invalid_argument("PidLoop::StepResponse: gains must be finite");
  const PidLoopOptions& o = options_;
  const double dt = o.sample_time, t1 = o.lag1, t2 = o.lag2;
  const double a1 = std::exp(-dt / t1), a2 = std::exp(-dt / t2);
  const int delay = static_cast<int>(std::lround(o.dead_time / dt));
  const long steps = std::lround(o.duration / dt);
  const double setpoint = 1.0;
  std::deque<double> in_flight(static_cast<std::size_t>(delay), 0.0);  // commands on their way
  double x1 = 0, x2 = 0, integral = 0, filtered = 0, previous_u = 0, peak = 0;
  PidOutcomes out;
  if (trajectory) *trajectory = PidTrajectory();
  for (long k = 0; k < steps; ++k) {
    const double t = static_cast<double>(k) * dt;
    const double y = o.gain * (t1 * x1 - t2 * x2) / (t1 - t2);
    const double e = setpoint - y;
    const double next_filtered = filtered + dt / (o.derivative_filter + dt) * (y - filtered);
    const double derivative = -kd * (next_filtered - filtered) / dt;
    filtered = next_filtered;
    const double wanted = kp * e + integral + derivative;
    const double u = std::clamp(wanted, -o.max_command, o.max_command);
    const bool pushing_further = (u >= o.max_command && e > 0) || (u <= -o.max_command && e < 0);
    if (!pushing_further) integral += ki * e * dt;
    out.itae += t * std::abs(e) * dt;
    out.effort += std::abs(u - previous_u);
    previous_u = u;
    peak = std::max(peak, y);
    if (trajectory) {
      trajectory->time.push_back(t);
      trajectory->output.push_back(y);
      trajectory->command.push_back(u);
    }
    in_flight.push_back(u);
    const double applied = in_flight.front();
    in_flight.pop_front();
    x1 = a1 * x1 + (1 - a1) * applied;
    x2 = a2 * x2 + (1 - a2) * applied;
  }
  out.overshoot = std::max(0.0, peak - setpoint) / setpoint;
  return out;
}

}  // namespace problems
}  // namespace gpbandit
