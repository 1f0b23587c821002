#include "examples/demos/sim_to_robot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>

#include "examples/report_text.h"
#include "gpbandit/numerics/format.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace examples {
namespace {

constexpr int kSimFidelity = 0, kRobotFidelity = 1;

problems::PendulumOptions SimulatorPlantOptions(const SimToRobotOptions& o) {
  problems::PendulumOptions sim = o.robot;
  sim.friction = o.robot.friction * o.sim_friction_factor;
  sim.reward_noise = 0.0;
  return sim;
}

// One study over the gain box: with the simulator (two fidelities) or on the robot alone.
SimToRobotTrace RunSimToRobotStudy(const SimToRobotOptions& o, bool with_simulator,
                                   const problems::PendulumPlant& robot,
                                   const problems::PendulumPlant& sim, double robot_best_reward) {
  OptimizerOptions opts;
  opts.seed = o.seed;
  opts.sync_log = false;
  if (with_simulator) opts.fidelities.levels = {{"sim", o.sim_cost}, {"robot", 1.0}};
  Optimizer study(Domain::Box(problems::PendulumGainLower(), problems::PendulumGainUpper()),
                  nullptr, "gp-ucb", opts);
  Rng noise = SeededRng({o.seed, 17});
  const double sim_mass = o.payload_mass * o.sim_mass_factor;
  SimToRobotTrace t;
  std::vector<Eigen::VectorXd> on_robot;
  while (true) {
    Eigen::VectorXd x;
    int fidelity = kRobotFidelity;
    if (with_simulator) {
      const FidelityPoint p = study.AskFidelity();
      x = p.x;
      fidelity = p.fidelity;
    } else {
      x = study.Ask();
    }
    const double step = fidelity == kSimFidelity ? o.sim_cost : 1.0;
    // The cost from the counted episodes, so that rounding never lets a study exceed the budget.
    const double spent = t.sim_episodes * o.sim_cost + t.robot_episodes;
    if (spent + step > o.budget + 1e-9) break;
    if (fidelity == kSimFidelity) {
      study.TellFidelity(x, Eigen::VectorXd(), sim.Reward(x(0), x(1), sim_mass), kSimFidelity);
      ++t.sim_episodes;
    } else {
      const double y = robot.NoisyReward(x(0), x(1), o.payload_mass, noise);
      if (with_simulator)
        study.TellFidelity(x, Eigen::VectorXd(), y, kRobotFidelity);
      else
        study.Tell(x, y);
      ++t.robot_episodes;
      on_robot.push_back(x);
    }
    t.cost.push_back(t.sim_episodes * o.sim_cost + t.robot_episodes);
    t.fidelity.push_back(fidelity);
    double regret = std::numeric_limits<double>::quiet_NaN();
    if (t.robot_episodes > 0) {
      // The recommendation after this tell. Not Best() after the loop: the ask that finds the
      // budget spent may refit the model and move it.
      t.best_gains = study.Best().x;
      regret = robot_best_reward - robot.Reward(t.best_gains(0), t.best_gains(1), o.payload_mass);
    }
    t.regret.push_back(regret);
  }
  t.cost_spent = study.CostSpent();
  for (const Eigen::VectorXd& x : on_robot) t.best_at_robot |= x.isApprox(t.best_gains, 0.0);
  return t;
}

void ReportSimToRobotStudy(const char* name, std::uint64_t seed, const SimToRobotTrace& t,
                           std::ostream& progress) {
  progress << "[sim-to-robot] seed " << seed << ", " << name << ": " << t.robot_episodes
           << " robot and " << t.sim_episodes << " simulated episodes, cost "
           << Fixed(t.cost_spent, 2) << ", regret "
           << FormatDouble(t.regret.empty() ? 0.0 : t.regret.back()) << "\n";
}

// The q-quantile of the finite values (linear between order statistics); NaN if none.
double SimToRobotQuantile(std::vector<double> v, double q) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double a) { return std::isnan(a); }), v.end());
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  if (i + 1 >= v.size()) return v.back();
  return v[i] + (pos - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

// Median, lower and upper quartile of the runs' regret after spending at most `cost`.
Eigen::Vector3d RegretSummary(const std::vector<SimToRobotTrace>& runs, double cost) {
  std::vector<double> v;
  for (const SimToRobotTrace& t : runs) v.push_back(SimToRobotRegretAtCost(t, cost));
  return Eigen::Vector3d(SimToRobotQuantile(v, 0.5), SimToRobotQuantile(v, 0.25),
                         SimToRobotQuantile(v, 0.75));
}

std::string SummaryCell(const Eigen::Vector3d& s) {
  if (std::isnan(s(0))) return "-";
  return Fixed(s(0), 4) + " [" + Fixed(s(1), 4) + ", " + Fixed(s(2), 4) + "]";
}

}  // namespace

double SimToRobotRegretAtCost(const SimToRobotTrace& t, double cost) {
  double r = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < t.cost.size() && t.cost[i] <= cost + 1e-9; ++i) r = t.regret[i];
  return r;
}

bool SimToRobotOptions::IsValid(std::string* error) const {
  std::string inner;
  if (!robot.IsValid(&inner)) {
    if (error) *error = "robot." + inner;
    return false;
  }
  const auto fail = [&](const std::string& text) {
    if (error) *error = text;
    return false;
  };
  const auto positive = [](double v) { return v > 0 && std::isfinite(v); };
  if (!positive(payload_mass))
    return fail("--payload-mass " + FormatDouble(payload_mass) + " must be > 0");
  if (!positive(sim_mass_factor))
    return fail("--sim-mass-factor " + FormatDouble(sim_mass_factor) + " must be > 0");
  if (!positive(sim_friction_factor))
    return fail("--sim-friction-factor " + FormatDouble(sim_friction_factor) + " must be > 0");
  if (!(sim_cost > 0 && sim_cost < 1))
    return fail("--sim-cost " + FormatDouble(sim_cost) + " must be in (0, 1)");
  if (runs < 1) return fail("--runs " + std::to_string(runs) + " must be >= 1");
  if (!(budget >= 2 && std::isfinite(budget)))
    return fail("--budget " + FormatDouble(budget) + " must be >= 2");
  return true;
}

SimToRobotResult RunSimToRobot(const SimToRobotOptions& options, std::ostream& progress) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument(error);
  const problems::PendulumPlant robot(options.robot), sim(SimulatorPlantOptions(options));
  SimToRobotResult r;
  const problems::BruteForceResult robot_best =
      problems::BruteForceBestGains(robot, options.payload_mass);
  const problems::BruteForceResult sim_best =
      problems::BruteForceBestGains(sim, options.payload_mass * options.sim_mass_factor);
  r.robot_best = robot_best.gains;
  r.robot_best_reward = robot_best.reward;
  r.sim_best = sim_best.gains;
  r.sim_best_on_robot_regret =
      robot_best.reward - robot.Reward(sim_best.gains(0), sim_best.gains(1), options.payload_mass);
  for (int k = 0; k < options.runs; ++k) {
    SimToRobotOptions o = options;
    o.seed = options.seed + static_cast<std::uint64_t>(k);
    r.multi_fidelity.push_back(RunSimToRobotStudy(o, true, robot, sim, r.robot_best_reward));
    ReportSimToRobotStudy("simulator + robot", o.seed, r.multi_fidelity.back(), progress);
    r.robot_only.push_back(RunSimToRobotStudy(o, false, robot, sim, r.robot_best_reward));
    ReportSimToRobotStudy("robot only", o.seed, r.robot_only.back(), progress);
  }
  return r;
}

void PrintSimToRobot(const SimToRobotResult& result, const SimToRobotOptions& options,
                     std::ostream& out) {
  out << "robot: payload " << FormatDouble(options.payload_mass) << " kg, friction "
      << FormatDouble(options.robot.friction) << "; simulator: payload "
      << FormatDouble(options.payload_mass * options.sim_mass_factor) << " kg, friction "
      << FormatDouble(options.robot.friction * options.sim_friction_factor)
      << ", one episode costs " << FormatDouble(options.sim_cost) << " robot episodes\n"
      << "robot's best gains kp " << Fixed(result.robot_best(0), 2) << ", kd "
      << Fixed(result.robot_best(1), 3) << " (reward " << Fixed(result.robot_best_reward, 4)
      << "); the simulator's best kp " << Fixed(result.sim_best(0), 2) << ", kd "
      << Fixed(result.sim_best(1), 3) << " has regret "
      << FormatDouble(result.sim_best_on_robot_regret) << " on the robot\n\n";
  out << "regret on the robot at Best(), median [quartiles] over " << options.runs
      << " runs\ncost (robot episodes) | simulator + robot | robot only (gp-ucb)\n";
  for (int c = 1; c <= static_cast<int>(options.budget); ++c)
    out << c << " | " << SummaryCell(RegretSummary(result.multi_fidelity, c)) << " | "
        << SummaryCell(RegretSummary(result.robot_only, c)) << "\n";
  double robot = 0, sims = 0;
  int better = 0, worse = 0;
  for (std::size_t k = 0; k < result.multi_fidelity.size(); ++k) {
    const SimToRobotTrace &m = result.multi_fidelity[k], &b = result.robot_only[k];
    robot += m.robot_episodes;
    sims += m.sim_episodes;
    const double a = m.regret.empty() ? 0.0 : m.regret.back(),
                 z = b.regret.empty() ? 0.0 : b.regret.back();
    better += a < z;
    worse += a > z;
  }
  const double n = static_cast<double>(result.multi_fidelity.size());
  out << "\nsimulator + robot: " << Fixed(robot / n, 1) << " robot and " << Fixed(sims / n, 1)
      << " simulated episodes per run on average; at the end lower regret than robot only in "
      << better << " runs, higher in " << worse << "\n";
}

void WriteSimToRobotData(const SimToRobotResult& result, const SimToRobotOptions& options,
                         std::ostream& out) {
  for (const std::vector<SimToRobotTrace>* runs : {&result.multi_fidelity, &result.robot_only}) {
    out << "# cost median lower_quartile upper_quartile\n";
    for (int c = 1; c <= static_cast<int>(options.budget); ++c) {
      const Eigen::Vector3d s = RegretSummary(*runs, c);
      if (std::isnan(s(0))) continue;
      out << c;
      for (int i = 0; i < 3; ++i) out << " " << FormatDouble(std::max(s(i), 1e-9));
      out << "\n";
    }
    out << "\n\n";
  }
}

}  // namespace examples
}  // namespace gpbandit
