// gpbandit pid-tradeoff: PID gains of a process with dead time (problems/pid_loop.h) tuned for two
// objectives at once, the tracking error (ITAE) and the control effort (the total variation of
// the actuator command), under an overshoot limit. The study is an Optimizer over the named,
// log-scaled gains kp, ki, kd with the outcomes itae:min, effort:min and overshoot <= limit
// (OptimizerOptions::outcomes), told by name (TellOutcomesNamed). The result is the Pareto front
// (Optimizer::ParetoFront) -- the gains among which no other feasible gains are better in both --
// and its hypervolume: there is no single best PID, only the trade-off to choose from.
#ifndef GPBANDIT_EXAMPLES_DEMOS_PID_TRADEOFF_H_
#define GPBANDIT_EXAMPLES_DEMOS_PID_TRADEOFF_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "examples/problems/pid_loop.h"
#include "gpbandit/study/optimizer_types.h"

namespace gpbandit {
namespace examples {

struct PidTradeoffOptions {
  problems::PidLoopOptions plant;
  int evaluations = 40;           // step responses tried, >= 2
  std::string strategy = "ehvi";  // a registered strategy
  std::uint64_t seed = 1;
  double overshoot_limit = 0.1;  // overshoot <= this, > 0
  // The hypervolume's reference point (itae, effort): the worst values worth having.
  double reference_itae = 4.0, reference_effort = 8.0;
  // The study's JSON-Lines log ("": none); gpbandit pareto / plot read it.
  std::string log_path;
  bool IsValid(std::string* error) const;
};

struct PidEvaluation {
  double kp = 0, ki = 0, kd = 0;
  problems::PidOutcomes outcomes;
};

struct PidTradeoffResult {
  std::vector<PidEvaluation> evaluations;  // in the order tried
  std::vector<PidEvaluation> front;        // Optimizer::ParetoFront, by increasing itae
  std::vector<double> front_feasibility;   // its posterior probabilities of feasibility
  double hypervolume = 0;
  int feasible = 0;  // evaluations within the overshoot limit
};

// Runs the study; progress every 10 evaluations on `progress`.
PidTradeoffResult RunPidTradeoff(const PidTradeoffOptions& options, std::ostream& progress);

// The front as a table (kp ki kd itae effort overshoot p_feasible), then the hypervolume.
void PrintPidFront(const PidTradeoffResult& result, const PidTradeoffOptions& options,
                   std::ostream& out);

// gnuplot's data: block 0 every evaluation, block 1 the front (columns kp ki kd itae effort
// overshoot; `plot 'f.dat' index 0 using 4:5, '' index 1 using 4:5 with linespoints`).
void WritePidData(const PidTradeoffResult& result, std::ostream& out);

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_DEMOS_PID_TRADEOFF_H_
