// The plant of the controller-tuning example (gpbandit pid-tradeoff): a second-order process with
// dead time, G(s) = K e^(-L s) / ((T1 s + 1)(T2 s + 1)), under a PID controller following a unit
// step of its setpoint. Three outcomes of one closed-loop step response:
//   itae      = sum_k t_k |r - y_k| dt, the time-weighted tracking error (s^2; minimized)
//   effort    = sum_k |u_k - u_(k-1)|, u_(-1) = 0: the total variation of the actuator command, a
//               measure of actuator wear (units of u; minimized)
//   overshoot = max(0, max_k y_k - r) / r, the relative overshoot (constrained, e.g. <= 0.1)
// Stiff gains track fast but move the actuator hard and overshoot; soft gains spare it and lag.
//
// Discretization: T1 != T2, so 1 / ((T1 s + 1)(T2 s + 1)) = (T1 / (T1 s + 1) - T2 / (T2 s + 1)) /
// (T1 - T2): two first-order lags driven by the same input, each exact under a zero-order hold,
// x_i[k+1] = a_i x_i[k] + (1 - a_i) u[k - d] with a_i = exp(-dt / T_i), d = L / dt samples of
// dead time, and y = K (T1 x1 - T2 x2) / (T1 - T2). The step response is therefore exact at the
// samples: y(t) = K (1 - (T1 e^(-t/T1) - T2 e^(-t/T2)) / (T1 - T2)) for t >= L.
//
// Controller (parallel form, sampled every dt): u = kp e + I + D, e = r - y; I += ki e dt while
// the command is not saturated in the direction of e (conditional integration, no wind-up);
// D = -kd dyf/dt on the measurement filtered with time constant derivative_filter (no kick
// from the setpoint step); u clamped to [-max_command, max_command].
//
// Thread safety: const members are safe to call concurrently; deterministic.
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_PID_LOOP_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_PID_LOOP_H_

#include <string>
#include <vector>

namespace gpbandit {
namespace problems {

struct PidLoopOptions {
  double gain = 1.0;                // K, > 0
  double lag1 = 1.0, lag2 = 0.3;    // T1, T2 in s, > 0 and distinct
  double dead_time = 0.2;           // L in s, >= 0, a multiple of the sample time
  double sample_time = 0.02;        // dt in s, > 0
  double duration = 10.0;           // the step response's length in s, > 0
  double max_command = 5.0;         // |u| limit, > 0
  double derivative_filter = 0.05;  // in s, >= 0
  // True if every field is in range; otherwise false and *error names the field and value.
  bool IsValid(std::string* error) const;
};

struct PidOutcomes {
  double itae = 0, effort = 0, overshoot = 0;
};

struct PidTrajectory {
  std::vector<double> time, output, command;
};

class PidLoop {
 public:
  // Throws std::invalid_argument if the options are not valid.
  explicit PidLoop(const PidLoopOptions& options = PidLoopOptions());
  const PidLoopOptions& options() const { return options_; }
  // The outcomes of the unit step response with these gains (finite; >= 0 expected). Throws
  // std::invalid_argument for a non-finite gain. `trajectory`, if given, receives y and u.
  PidOutcomes StepResponse(double kp, double ki, double kd,
                           PidTrajectory* trajectory = nullptr) const;

 private:
  PidLoopOptions options_;
};

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_PID_LOOP_H_
