#include "examples/problems/safe_tuning_run.h"

#include <time.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>

#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace problems {
namespace {

std::string PointsText(const Eigen::VectorXd& x) {
  std::string s = "[[";
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    std::ostringstream v;
    v.precision(17);
    v << x(i);
    s += (i ? "," : "") + v.str();
  }
  return s + "]]";
}

std::string ListText(const std::vector<double>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::ostringstream v;
    v.precision(17);
    v << values[i];
    s += (i ? "," : "") + v.str();
  }
  return s + "]";
}

// CPU time of the calling thread in ms: asks run on it (one thread), and on a shared machine
// the wall clock measures the other processes too.
double ThreadCpuMilliseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

Domain PlantDomain(const SafePlant& plant) {
  Domain domain = Domain::Box(plant.lower(), plant.upper());
  if (plant.context_dim() > 0)
    domain = domain.WithContext(plant.context_dim(), plant.context_lower(), plant.context_upper());
  return domain;
}

Eigen::VectorXd DrawContext(const SafePlant& plant, Rng& rng) {
  Eigen::VectorXd z(plant.context_dim());
  for (Eigen::Index i = 0; i < z.size(); ++i)
    z(i) = std::uniform_real_distribution<double>(plant.context_lower()(i),
                                                  plant.context_upper()(i))(rng);
  return z;
}

// The best gap(true reward at z) of the evaluated actions truly safe at z and with
// SafetyMargin >= 0 there, wherever they were evaluated, and the seed's (0).
template <typename Gap>
double EvaluatedBest(const SafePlant& plant, const Optimizer& opt, const Eigen::VectorXd& z,
                     const Gap& gap) {
  double best = 0.0;
  for (const Observation& o : opt.observations()) {
    if (!(opt.SafetyMargin(o.x, z) >= 0.0)) continue;
    const PlantEpisode e = plant.Simulate(o.x, z);
    if (plant.Safe(e)) best = std::max(best, gap(e.reward));
  }
  return best;
}

ContextOutcome Judge(const SafePlant& plant, const Optimizer& opt, const PlantTruth& truth) {
  ContextOutcome out;
  out.context = truth.context;
  out.recommended = opt.Best(truth.context).x;
  const PlantEpisode e = plant.Simulate(out.recommended, truth.context);
  out.reward = e.reward;
  out.safe = plant.Safe(e);
  const double seed_reward = plant.Simulate(plant.seed(), truth.context).reward;
  auto gap = [&](double reward) {
    return (reward - seed_reward) / (truth.grid.best_safe_reward - seed_reward);
  };
  out.gap_closed = gap(out.reward);
  double set_best = 0.0;  // the seed's
  int truly_safe = 0, covered = 0, claimed = 0, wrong = 0;
  for (Eigen::Index j = 0; j < truth.grid.gains.cols(); ++j) {
    const bool safe = truth.grid.safe[static_cast<std::size_t>(j)];
    const bool in_set = opt.SafetyMargin(truth.grid.gains.col(j), truth.context) >= 0.0;
    truly_safe += safe;
    covered += safe && in_set;
    claimed += in_set;
    wrong += in_set && !safe;
    if (safe && in_set) set_best = std::max(set_best, gap(truth.grid.reward(j)));
  }
  out.safe_set_best = set_best;
  out.evaluated_best = EvaluatedBest(plant, opt, truth.context, gap);
  out.coverage = truly_safe > 0 ? static_cast<double>(covered) / truly_safe : 0.0;
  out.false_safe = claimed > 0 ? static_cast<double>(wrong) / claimed : 0.0;
  return out;
}

}  // namespace

SafeTuningResult RunSafeTuning(const SafePlant& plant, const UnitConvention& convention,
                               const std::vector<PlantTruth>& truths,
                               const SafeTuningSettings& settings) {
  OptimizerOptions options;
  options.seed = settings.seed;
  options.num_threads = 1;
  options.sync_log = false;
  options.gp.standardize_outputs = !settings.raw_models;
  const StrategyParams params =
      settings.strategy_options
          .MergedWith(
              StrategyParams().WithText("calibrated", settings.raw_models ? "false" : "true"))
          .WithText("constraint_thresholds", ListText(ToldThresholds(convention, plant.limits())))
          .WithText("seeds", PointsText(plant.seed()));
  Optimizer opt(PlantDomain(plant), nullptr, "safe-opt", params, options);
  Rng rng(settings.seed + 1000);
  SafeTuningResult result;
  double timed = 0;
  for (int k = 0; k < settings.episodes + settings.timed_asks; ++k) {
    const Eigen::VectorXd z = DrawContext(plant, rng);
    const double start = ThreadCpuMilliseconds();
    const Eigen::VectorXd x = opt.Ask(z);
    if (k >= settings.episodes) timed += ThreadCpuMilliseconds() - start;
    if (k < settings.episodes) {
      const PlantEpisode truth = plant.Simulate(x, z);
      result.unsafe_episodes += !plant.Safe(truth);
      // The largest excess over a limit, as a fraction of it.
      const Eigen::ArrayXd excess = truth.limited.array() / plant.limits().array() - 1.0;
      result.worst_excess = std::max(result.worst_excess, excess.maxCoeff());
    }
    const PlantEpisode e = plant.Measure(x, z, rng);
    opt.Tell(x, z, ToldReward(convention, e), ToldSignals(convention, e));
    if (k + 1 == settings.episodes)
      for (const PlantTruth& truth : truths) result.outcomes.push_back(Judge(plant, opt, truth));
  }
  result.ask_milliseconds = settings.timed_asks > 0 ? timed / settings.timed_asks : 0.0;
  return result;
}

}  // namespace problems
}  // namespace gpbandit
