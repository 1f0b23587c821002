#include "examples/demos/drift_demo.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "cli/command.h"
#include "cli/io/csv.h"
#include "cli/progress.h"
#include "examples/demos/demo_schedule.h"
#include "examples/report_text.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace examples {
namespace {

// The drift's progress at episode e (0-based): 0 before drift_start, 1 from drift_end on.
double DriftFraction(const DriftDemoOptions& o, int e) {
  if (e < o.drift_start) return 0.0;
  if (e >= o.drift_end) return 1.0;
  return static_cast<double>(e - o.drift_start) / (o.drift_end - o.drift_start);
}

struct PlantAt {
  problems::PendulumPlant plant;
  double payload;
};

PlantAt PlantOfEpisode(const DriftDemoOptions& o, int e) {
  const double s = DriftFraction(o, e);
  problems::PendulumOptions p = o.plant;
  p.friction = o.friction_before + s * (o.friction_after - o.friction_before);
  return {problems::PendulumPlant(p), o.payload_before + s * (o.payload_after - o.payload_before)};
}

StrategyParams OptionsOf(const DriftDemoOptions& o, std::size_t i) {
  const StrategyParams given =
      i < o.strategy_options.size() ? o.strategy_options[i] : StrategyParams();
  return DemoUcbParams(0.2).MergedWith(given);
}

}  // namespace

bool DriftDemoOptions::IsValid(std::string* error) const {
  auto fail = [error](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (episodes < 1) return fail("--rounds " + std::to_string(episodes) + " must be >= 1");
  if (drift_start < 0 || drift_start > drift_end || drift_end > episodes)
    return fail("--drift " + std::to_string(drift_start) + ":" + std::to_string(drift_end) +
                " must satisfy 0 <= start <= end <= episodes (" + std::to_string(episodes) + ")");
  if (measured_episodes < 1 || measured_episodes > episodes)
    return fail("--measured " + std::to_string(measured_episodes) + " must be in [1, episodes]");
  for (double v : {payload_before, payload_after, friction_before, friction_after})
    if (!(v >= 0) || !std::isfinite(v))
      return fail("payload and friction values must be finite and >= 0, got " +
                  io::FormatDouble(v));
  if (strategies.empty()) return fail("--strategy: at least one strategy");
  if (seeds < 1) return fail("--trials " + std::to_string(seeds) + " must be >= 1");
  if (brute_force_points < 2)
    return fail("--brute-force-points " + std::to_string(brute_force_points) + " must be >= 2");
  if (threads < 0) return fail("--threads " + std::to_string(threads) + " must be >= 0");
  return plant.IsValid(error);
}

DriftRun RunOneDrift(const DriftDemoOptions& o, std::size_t strategy, std::uint64_t seed,
                     const std::vector<double>& best, std::ostream& progress) {
  cli::ProgressClock clock;
  OptimizerOptions options;
  options.seed = seed;
  options.num_threads = o.threads;
  Optimizer tuner(Domain::Box(problems::PendulumGainLower(), problems::PendulumGainUpper()),
                  nullptr, o.strategies[strategy], OptionsOf(o, strategy), options);
  Rng noise(seed + 7);  // the same noise stream for every strategy (common random numbers)
  DriftRun run;
  run.strategy = o.strategies[strategy];
  run.seed = seed;
  for (int e = 0; e < o.episodes; ++e) {
    const PlantAt p = PlantOfEpisode(o, e);
    const Eigen::VectorXd gains = tuner.Ask();
    const double reward = p.plant.Reward(gains(0), gains(1), p.payload);
    std::normal_distribution<double> n(0.0, o.plant.reward_noise);
    tuner.Tell(gains, reward + n(noise));
    run.regret.push_back(best[static_cast<std::size_t>(e)] - reward);
    if (clock.Due())
      progress << "[drift-demo] " << run.strategy << " seed " << seed << ": episode " << e + 1
               << "/" << o.episodes << " (" << Fixed(clock.Elapsed(), 1) << " s)" << std::endl;
  }
  double sum = 0;
  for (int e = o.episodes - o.measured_episodes; e < o.episodes; ++e)
    sum += run.regret[static_cast<std::size_t>(e)];
  run.regret_after_drift = sum / o.measured_episodes;
  run.seconds = clock.Elapsed();
  return run;
}

DriftDemoResult RunDriftDemo(const DriftDemoOptions& o, std::ostream& progress) {
  std::string error;
  if (!o.IsValid(&error)) throw std::invalid_argument(error);
  DriftDemoResult result;
  // The best reward of every episode's plant: brute force once per distinct plant (the drift's
  // episodes each have their own).
  std::vector<double> best(static_cast<std::size_t>(o.episodes));
  std::map<double, double> best_at_fraction;
  progress << "[drift-demo] the brute-force reference: the best gains of each episode's plant, "
           << o.brute_force_points << "^2 grid" << std::endl;
  cli::ProgressClock clock;
  for (int e = 0; e < o.episodes; ++e) {
    if (clock.Due())
      progress << "[drift-demo] brute-force reference: episode " << e + 1 << "/" << o.episodes
               << " (" << Fixed(clock.Elapsed(), 1) << " s)" << std::endl;
    const double s = DriftFraction(o, e);
    if (best_at_fraction.count(s) == 0) {
      const PlantAt p = PlantOfEpisode(o, e);
      const problems::BruteForceResult b =
          problems::BruteForceBestGains(p.plant, p.payload, o.brute_force_points);
      best_at_fraction[s] = b.reward;
      if (s == 0.0) result.best_before = b;
      if (s == 1.0) result.best_after = b;
    }
    best[static_cast<std::size_t>(e)] = best_at_fraction[s];
  }
  progress << "[drift-demo] best gains before the drift kp kd = "
           << Fixed(result.best_before.gains(0), 2) << " " << Fixed(result.best_before.gains(1), 2)
           << " (reward " << Fixed(result.best_before.reward, 4) << "), after "
           << Fixed(result.best_after.gains(0), 2) << " " << Fixed(result.best_after.gains(1), 2)
           << " (reward " << Fixed(result.best_after.reward, 4) << ")" << std::endl;
  for (std::size_t i = 0; i < o.strategies.size(); ++i) {
    for (int s = 1; s <= o.seeds; ++s) {
      result.runs.push_back(RunOneDrift(o, i, static_cast<std::uint64_t>(s), best, progress));
      const DriftRun& r = result.runs.back();
      progress << "[drift-demo] " << r.strategy << " seed " << s << ": regret after the drift "
               << Fixed(r.regret_after_drift, 4) << " (" << Fixed(r.seconds, 1) << " s)"
               << std::endl;
    }
  }
  return result;
}

void PrintDriftTable(const DriftDemoResult& result, const DriftDemoOptions& o, std::ostream& out) {
  out << "| strategy | options | mean regret, last " << o.measured_episodes << " of " << o.episodes
      << " episodes (sd over " << o.seeds << " seeds) | per seed |\n"
      << "|---|---|---|---|\n";
  for (std::size_t i = 0; i < o.strategies.size(); ++i) {
    std::vector<double> values;
    for (const DriftRun& r : result.runs)
      if (r.strategy == o.strategies[i]) values.push_back(r.regret_after_drift);
    double mean = 0, sd = 0;
    cli::MeanAndSd(values, &mean, &sd);
    std::string per_seed;
    for (double v : values) per_seed += (per_seed.empty() ? "" : ", ") + Fixed(v, 4);
    out << "| " << o.strategies[i] << " | " << OptionsOf(o, i).json() << " | " << Fixed(mean, 4)
        << " (" << Fixed(sd, 4) << ") | " << per_seed << " |\n";
  }
}

}  // namespace examples
}  // namespace gpbandit
