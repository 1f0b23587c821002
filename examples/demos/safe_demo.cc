#include "examples/demos/safe_demo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/io/csv.h"
#include "cli/progress.h"
#include "examples/demos/demo_schedule.h"
#include "examples/report_text.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace examples {
namespace {

std::string GainsText(const Eigen::Vector2d& g) { return Fixed(g(0), 2) + " " + Fixed(g(1), 2); }

bool IsSafeOpt(const std::string& name) { return name == "safe-opt"; }

StrategyParams OptionsOf(const SafeDemoOptions& o, std::size_t i, const SafeReference& ref) {
  const StrategyParams given =
      i < o.strategy_options.size() ? o.strategy_options[i] : StrategyParams();
  if (!IsSafeOpt(o.strategies[i])) return DemoUcbParams(0.2).MergedWith(given);
  const std::string seed =
      "[[" + io::FormatDouble(ref.seed_gains(0)) + "," + io::FormatDouble(ref.seed_gains(1)) + "]]";
  // The peak error saturates at the starting angle for every gain that holds the arm, so its
  // measurements say nothing about where the arm starts to fall: the constraint's lengthscales,
  // 0.15 of the gain ranges (the default 0.3 carried the flat signal to the fall in 13 of 4500
  // episodes), are the engineer's knowledge that it may change that fast (docs/robot_tuning.md).
  return StrategyParams()
      .WithText("constraint_thresholds", "[0]")
      .WithText("seeds", seed)
      .With("beta", 3.0)
      .WithText("signal_models", R"([{}, {"lengthscales": [0.15]}])")
      .MergedWith(given);
}

// The gain of the grid's cell (i, j).
Eigen::Vector2d GridGains(int i, int j, int n) {
  const Eigen::Vector2d lower = problems::PendulumGainLower(),
                        upper = problems::PendulumGainUpper();
  return {lower(0) + (upper(0) - lower(0)) * i / (n - 1),
          lower(1) + (upper(1) - lower(1)) * j / (n - 1)};
}

// Among the observed episodes whose measured peak error was within the limit, the gains with
// the highest posterior mean reward; the seed when none was.
Eigen::Vector2d Recommend(const Optimizer& tuner, const std::vector<Eigen::Vector2d>& played,
                          const std::vector<bool>& measured_safe, const Eigen::Vector2d& seed) {
  Eigen::Vector2d best = seed;
  double best_mean = -std::numeric_limits<double>::infinity();
  for (std::size_t e = 0; e < played.size(); ++e) {
    if (!measured_safe[e]) continue;
    const double mean = tuner.Predict(played[e]).mean;
    if (mean > best_mean) {
      best_mean = mean;
      best = played[e];
    }
  }
  return best;
}

// The log safe-opt's seed-1 run keeps for the pictures; empty when none are asked for.
std::string PictureLog(const SafeDemoOptions& o, std::size_t strategy, std::uint64_t seed) {
  if (o.plot_dir.empty() || !IsSafeOpt(o.strategies[strategy]) || seed != 1) return "";
  return o.plot_dir + "/safe_opt_seed1.jsonl";
}

// `gpbandit plot` of the log after `episodes` episodes: the constraint-and-reward model over the
// gain box with the safe set's edge.
void DrawStage(const std::string& log, const SafeDemoOptions& o, int episodes,
               std::ostream& progress) {
  std::ostringstream name;
  name << o.plot_dir << "/safe_set_after_" << std::setw(3) << std::setfill('0') << episodes
       << ".png";
  std::vector<std::string> args = {"--log",  log,  "--dims", "0,1",
                                   "--grid", "50", "--out",  name.str()};
  if (o.keep_plot_files) args.push_back("--keep-plot-files");
  std::ostringstream quiet;
  const int status = cli::PlotCommand(args, cli::Streams{quiet, progress});
  if (status != cli::kExitOk)
    progress << "[safe-demo] no picture after " << episodes << " episodes\n";
}

}  // namespace

bool SafeDemoOptions::IsValid(std::string* error) const {
  auto fail = [error](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (episodes < 1) return fail("--rounds " + std::to_string(episodes) + " must be >= 1");
  if (seeds < 1) return fail("--trials " + std::to_string(seeds) + " must be >= 1");
  if (!(payload >= 0) || !std::isfinite(payload))
    return fail("--payload " + io::FormatDouble(payload) + " must be finite and >= 0");
  if (!(peak_error_limit > plant.initial_angle && peak_error_limit < plant.fall_angle))
    return fail("--limit " + io::FormatDouble(peak_error_limit) +
                " must lie between the initial angle " + io::FormatDouble(plant.initial_angle) +
                " and the fall angle " + io::FormatDouble(plant.fall_angle) + " (rad)");
  if (!(peak_error_noise >= 0) || !std::isfinite(peak_error_noise))
    return fail("--peak-noise-sd " + io::FormatDouble(peak_error_noise) +
                " must be finite and >= 0");
  if (strategies.empty()) return fail("--strategy: at least one strategy");
  if (grid_points < 2)
    return fail("--brute-force-points " + std::to_string(grid_points) + " must be >= 2");
  if (threads < 0) return fail("--threads " + std::to_string(threads) + " must be >= 0");
  return plant.IsValid(error);
}

SafeEpisode RunSafeEpisode(const problems::PendulumPlant& plant, const Eigen::Vector2d& gains,
                           double payload) {
  problems::PendulumTrajectory trajectory;
  SafeEpisode episode;
  episode.reward = plant.Reward(gains(0), gains(1), payload, &trajectory);
  for (double angle : trajectory.angle)
    episode.peak_error = std::max(episode.peak_error, std::abs(angle));
  // A fall ends the trajectory at the fall angle; count it there even if the last sample is
  // just short of it.
  if (trajectory.fell)
    episode.peak_error = std::max(episode.peak_error, plant.options().fall_angle);
  return episode;
}

SafeReference ComputeSafeReference(const SafeDemoOptions& o) {
  const problems::PendulumPlant plant(o.plant);
  const int n = o.grid_points;
  SafeReference ref;
  ref.best_safe_reward = ref.best_reward = -std::numeric_limits<double>::infinity();
  std::vector<std::pair<double, Eigen::Vector2d>> safe;  // reward, gains
  std::vector<Eigen::Vector2d> unsafe_gains;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const Eigen::Vector2d g = GridGains(i, j, n);
      const SafeEpisode e = RunSafeEpisode(plant, g, o.payload);
      ref.best_reward = std::max(ref.best_reward, e.reward);
      if (e.peak_error > o.peak_error_limit) {
        unsafe_gains.push_back(g);
        continue;
      }
      safe.push_back({e.reward, g});
      if (e.reward > ref.best_safe_reward) {
        ref.best_safe_reward = e.reward;
        ref.best_safe_gains = g;
      }
    }
  }
  ref.unsafe_fraction = static_cast<double>(unsafe_gains.size()) / (n * n);
  if (safe.empty()) throw std::invalid_argument("--limit: no gain on the grid is safe");
  // The seed: a hand-tuned start is stable with room to spare and far from the best. Among the
  // safe points in the lower half of the safe rewards, the one farthest from every unsafe grid
  // point (distance in the unit square of the gain box).
  std::vector<double> rewards;
  for (const auto& s : safe) rewards.push_back(s.first);
  std::nth_element(rewards.begin(), rewards.begin() + rewards.size() / 2, rewards.end());
  const double median = rewards[rewards.size() / 2];
  const Eigen::Vector2d range = problems::PendulumGainUpper() - problems::PendulumGainLower();
  double best_distance = -1;
  for (const auto& s : safe) {
    if (s.first > median) continue;
    double nearest = std::numeric_limits<double>::infinity();
    for (const Eigen::Vector2d& u : unsafe_gains)
      nearest = std::min(nearest, (s.second - u).cwiseQuotient(range).norm());
    if (nearest > best_distance) {
      best_distance = nearest;
      ref.seed_gains = s.second;
    }
  }
  const SafeEpisode seed = RunSafeEpisode(plant, ref.seed_gains, o.payload);
  ref.seed_reward = seed.reward;
  ref.seed_peak_error = seed.peak_error;
  return ref;
}

namespace {

SafeRun RunOneSafe(const SafeDemoOptions& o, std::size_t strategy, std::uint64_t seed,
                   const SafeReference& ref, std::ostream& progress) {
  cli::ProgressClock clock;
  const problems::PendulumPlant plant(o.plant);
  OptimizerOptions options;
  options.seed = seed;
  options.num_threads = o.threads;
  options.log_path = PictureLog(o, strategy, seed);
  if (!options.log_path.empty()) std::remove(options.log_path.c_str());  // a fresh study
  Optimizer tuner(Domain::Box(problems::PendulumGainLower(), problems::PendulumGainUpper()),
                  nullptr, o.strategies[strategy], OptionsOf(o, strategy, ref), options);
  const bool constrained = tuner.num_constraints() > 0;
  Rng noise(seed + 7);  // the same noise stream for every strategy (common random numbers)
  std::normal_distribution<double> reward_noise(0.0, o.plant.reward_noise);
  std::normal_distribution<double> peak_noise(0.0, o.peak_error_noise);
  SafeRun run;
  run.strategy = o.strategies[strategy];
  run.seed = seed;
  std::vector<Eigen::Vector2d> played;
  std::vector<bool> measured_safe;
  for (int e = 0; e < o.episodes; ++e) {
    const Eigen::Vector2d gains = tuner.Ask();
    const SafeEpisode truth = RunSafeEpisode(plant, gains, o.payload);
    if (truth.peak_error > o.peak_error_limit) ++run.unsafe_episodes;
    const double y = truth.reward + reward_noise(noise);
    const double peak = truth.peak_error + peak_noise(noise);
    if (constrained)
      tuner.Tell(gains, Eigen::VectorXd(), y,
                 Eigen::VectorXd::Constant(1, o.peak_error_limit - peak));
    else
      tuner.Tell(gains, y);
    played.push_back(gains);
    measured_safe.push_back(peak <= o.peak_error_limit);
    if (clock.Due())
      progress << "[safe-demo] " << o.strategies[strategy] << " seed " << seed << ": episode "
               << e + 1 << "/" << o.episodes << ", " << run.unsafe_episodes << " unsafe so far ("
               << Fixed(clock.Elapsed(), 1) << " s)" << std::endl;
    if (!options.log_path.empty() &&
        std::count(o.plot_stages.begin(), o.plot_stages.end(), e + 1) > 0)
      DrawStage(options.log_path, o, e + 1, progress);
  }
  // safe-opt's own recommendation (inside its safe set); the unconstrained tuner's, the
  // measured-safe episode with the highest posterior mean.
  run.recommended = IsSafeOpt(o.strategies[strategy])
                        ? Eigen::Vector2d(tuner.Best().x)
                        : Recommend(tuner, played, measured_safe, ref.seed_gains);
  const SafeEpisode rec = RunSafeEpisode(plant, run.recommended, o.payload);
  run.recommended_reward = rec.reward;
  run.recommended_safe = rec.peak_error <= o.peak_error_limit;
  run.seconds = clock.Elapsed();
  return run;
}

}  // namespace

SafeDemoResult RunSafeDemo(const SafeDemoOptions& o, std::ostream& progress) {
  std::string error;
  if (!o.IsValid(&error)) throw std::invalid_argument(error);
  SafeDemoResult result;
  progress << "[safe-demo] the brute-force reference: " << o.grid_points * o.grid_points
           << " noise-free episodes on the " << o.grid_points << "^2 gain grid" << std::endl;
  result.reference = cli::WithHeartbeat(progress, "[safe-demo] the brute-force reference",
                                        [&] { return ComputeSafeReference(o); });
  const SafeReference& ref = result.reference;
  progress << "[safe-demo] peak-error limit " << Fixed(o.peak_error_limit, 3)
           << " rad: " << Fixed(100 * ref.unsafe_fraction, 1) << "% of the " << o.grid_points
           << "^2 gain grid"
           << " is unsafe; best safe kp kd = " << GainsText(ref.best_safe_gains) << " (reward "
           << Fixed(ref.best_safe_reward, 4) << "; best without the limit "
           << Fixed(ref.best_reward, 4) << "); safe seed " << GainsText(ref.seed_gains)
           << " (reward " << Fixed(ref.seed_reward, 4) << ", peak error "
           << Fixed(ref.seed_peak_error, 3) << " rad)" << std::endl;
  for (std::size_t i = 0; i < o.strategies.size(); ++i) {
    for (int s = 1; s <= o.seeds; ++s) {
      result.runs.push_back(RunOneSafe(o, i, static_cast<std::uint64_t>(s), ref, progress));
      const SafeRun& r = result.runs.back();
      progress << "[safe-demo] " << r.strategy << " seed " << s << ": " << r.unsafe_episodes
               << " unsafe episodes, recommends " << GainsText(r.recommended) << " (reward "
               << Fixed(r.recommended_reward, 4) << (r.recommended_safe ? ", safe" : ", UNSAFE")
               << ") (" << Fixed(r.seconds, 1) << " s)" << std::endl;
    }
  }
  return result;
}

void PrintSafeTable(const SafeDemoResult& result, const SafeDemoOptions& o, std::ostream& out) {
  out << "| strategy | unsafe episodes of " << o.episodes << ", total over " << o.seeds
      << " seeds (per seed) | recommended gains' reward, mean (sd) | recommendation safe | "
         "best safe reward (brute force) |\n"
      << "|---|---|---|---|---|\n";
  for (const std::string& name : o.strategies) {
    std::vector<double> rewards;
    int unsafe = 0, safe_recommendations = 0;
    std::string per_seed;
    for (const SafeRun& r : result.runs) {
      if (r.strategy != name) continue;
      rewards.push_back(r.recommended_reward);
      unsafe += r.unsafe_episodes;
      safe_recommendations += r.recommended_safe ? 1 : 0;
      per_seed += (per_seed.empty() ? "" : ", ") + std::to_string(r.unsafe_episodes);
    }
    double mean = 0, sd = 0;
    cli::MeanAndSd(rewards, &mean, &sd);
    out << "| " << name << " | " << unsafe << " (" << per_seed << ") | " << Fixed(mean, 4) << " ("
        << Fixed(sd, 4) << ") | " << safe_recommendations << "/" << rewards.size() << " | "
        << Fixed(result.reference.best_safe_reward, 4) << " |\n";
  }
}

}  // namespace examples
}  // namespace gpbandit
