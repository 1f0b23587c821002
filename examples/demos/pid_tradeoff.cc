#include "examples/demos/pid_tradeoff.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <stdexcept>
#include <variant>

#include "examples/report_text.h"
#include "gpbandit/numerics/format.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/space/parameter_space.h"

namespace gpbandit {
namespace examples {
namespace {

// The gains: log scales, since a loop's behaviour changes with their ratios. The box keeps the
// loop mostly stable (its ultimate gain is about 7) and wide enough to hold both ends of the
// trade-off: sluggish gains that barely move the actuator and stiff ones that overshoot.
ParameterSpace GainSpace() {
  return ParameterSpace({Parameter::Real("kp", 0.3, 4.0, ParameterScale::kLog),
                         Parameter::Real("ki", 0.1, 3.0, ParameterScale::kLog),
                         Parameter::Real("kd", 0.01, 1.5, ParameterScale::kLog)});
}

PidEvaluation EvaluationOf(const NamedValues& gains, const problems::PidOutcomes& outcomes) {
  PidEvaluation e;
  e.kp = std::get<double>(gains.at("kp"));
  e.ki = std::get<double>(gains.at("ki"));
  e.kd = std::get<double>(gains.at("kd"));
  e.outcomes = outcomes;
  return e;
}

}  // namespace

bool PidTradeoffOptions::IsValid(std::string* error) const {
  std::string inner;
  if (!plant.IsValid(&inner)) {
    if (error) *error = "plant." + inner;
    return false;
  }
  const auto fail = [&](const std::string& text) {
    if (error) *error = text;
    return false;
  };
  if (evaluations < 2)
    return fail("--evaluations " + std::to_string(evaluations) + " must be >= 2");
  if (!(overshoot_limit > 0 && std::isfinite(overshoot_limit)))
    return fail("--overshoot-limit " + FormatDouble(overshoot_limit) + " must be > 0");
  if (!(reference_itae > 0 && std::isfinite(reference_itae) && reference_effort > 0 &&
        std::isfinite(reference_effort)))
    return fail("--reference-point " + FormatDouble(reference_itae) + "," +
                FormatDouble(reference_effort) + " must be two numbers > 0");
  return true;
}

PidTradeoffResult RunPidTradeoff(const PidTradeoffOptions& options, std::ostream& progress) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument(error);
  const problems::PidLoop plant(options.plant);
  const ParameterSpace space = GainSpace();
  OptimizerOptions o;
  o.seed = options.seed;
  o.log_path = options.log_path;
  o.outcomes.objectives = {{"itae", /*minimize=*/true}, {"effort", /*minimize=*/true}};
  o.outcomes.constraints = {{"overshoot", ConstraintSense::kLessEqual, options.overshoot_limit}};
  o.outcomes.reference_point = {options.reference_itae, options.reference_effort};
  Optimizer study(Domain::Space(space), nullptr, options.strategy, o);

  PidTradeoffResult result;
  for (int i = 0; i < options.evaluations; ++i) {
    const NamedValues gains = study.AskNamed();
    const PidEvaluation e =
        EvaluationOf(gains, plant.StepResponse(std::get<double>(gains.at("kp")),
                                               std::get<double>(gains.at("ki")),
                                               std::get<double>(gains.at("kd"))));
    study.TellOutcomesNamed(gains, {},
                            {{"itae", e.outcomes.itae},
                             {"effort", e.outcomes.effort},
                             {"overshoot", e.outcomes.overshoot}});
    result.evaluations.push_back(e);
    result.feasible += e.outcomes.overshoot <= options.overshoot_limit;
    if ((i + 1) % 10 == 0 || i + 1 == options.evaluations)
      progress << "[pid-tradeoff] " << i + 1 << "/" << options.evaluations << " evaluations, "
               << result.feasible << " within the overshoot limit, hypervolume "
               << FormatDouble(study.Hypervolume()) << "\n";
  }
  for (const ParetoPoint& p : study.ParetoFront()) {
    problems::PidOutcomes told;
    told.itae = p.outcomes(0);
    told.effort = p.outcomes(1);
    told.overshoot = p.outcomes(2);
    result.front.push_back(EvaluationOf(space.ToNamed(p.x), told));
    result.front_feasibility.push_back(p.probability_feasible);
  }
  // By increasing tracking error, i.e. decreasing effort along the front.
  std::vector<std::size_t> order(result.front.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return result.front[a].outcomes.itae < result.front[b].outcomes.itae;
  });
  PidTradeoffResult sorted = result;
  for (std::size_t i = 0; i < order.size(); ++i) {
    sorted.front[i] = result.front[order[i]];
    sorted.front_feasibility[i] = result.front_feasibility[order[i]];
  }
  sorted.hypervolume = study.Hypervolume();
  return sorted;
}

void PrintPidFront(const PidTradeoffResult& result, const PidTradeoffOptions& options,
                   std::ostream& out) {
  out << "Pareto front after " << result.evaluations.size() << " step responses ("
      << result.feasible << " with overshoot <= " << FormatDouble(options.overshoot_limit)
      << "), strategy " << options.strategy << ":\n";
  out << "    kp      ki      kd   |   itae   effort  overshoot  P(feasible)\n";
  const auto cell = [](double v) {
    const std::string text = Fixed(v, 3);
    return std::string(text.size() < 6 ? 6 - text.size() : 0, ' ') + text;
  };
  for (std::size_t i = 0; i < result.front.size(); ++i) {
    const PidEvaluation& e = result.front[i];
    out << cell(e.kp) << "  " << cell(e.ki) << "  " << cell(e.kd) << "  | " << cell(e.outcomes.itae)
        << "  " << cell(e.outcomes.effort) << "   " << cell(e.outcomes.overshoot) << "      "
        << Fixed(result.front_feasibility[i], 3) << "\n";
  }
  out << "hypervolume " << FormatDouble(result.hypervolume)
      << " with respect to the reference point itae = " << FormatDouble(options.reference_itae)
      << ", effort = " << FormatDouble(options.reference_effort) << "\n";
}

void WritePidData(const PidTradeoffResult& result, std::ostream& out) {
  const auto block = [&](const std::vector<PidEvaluation>& rows) {
    out << "# kp ki kd itae effort overshoot\n";
    for (const PidEvaluation& e : rows)
      out << FormatDouble(e.kp) << " " << FormatDouble(e.ki) << " " << FormatDouble(e.kd) << " "
          << FormatDouble(e.outcomes.itae) << " " << FormatDouble(e.outcomes.effort) << " "
          << FormatDouble(e.outcomes.overshoot) << "\n";
    out << "\n\n";
  };
  block(result.evaluations);
  block(result.front);
}

}  // namespace examples
}  // namespace gpbandit
