#include "examples/demos/robot_demo.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "cli/io/csv.h"
#include "cli/progress.h"
#include "examples/demos/demo_schedule.h"
#include "examples/report_text.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace examples {
namespace {

using Clock = std::chrono::steady_clock;

std::string Gains(const Eigen::Vector2d& g) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << std::setw(6) << g(0) << " " << std::setw(5) << g(1);
  return out.str();
}

std::string Number(double v, int precision = 4) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(precision) << v;
  return out.str();
}

OptimizerOptions TunerOptions(const RobotDemoOptions& o) {
  OptimizerOptions options;
  options.seed = o.seed;
  options.num_threads = o.threads;
  return options;
}

}  // namespace

bool RobotDemoOptions::IsValid(std::string* error) const {
  auto fail = [error](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (episodes < 1) return fail("--rounds " + std::to_string(episodes) + " must be >= 1");
  if (payloads.empty()) return fail("--payloads: at least one payload is needed");
  for (double p : payloads)
    if (!(p >= 0) || !std::isfinite(p))
      return fail("--payloads: payload " + io::FormatDouble(p) + " must be finite and >= 0");
  if (!(beta_scale > 0) || !std::isfinite(beta_scale))
    return fail("--beta-scale " + io::FormatDouble(beta_scale) + " must be > 0");
  if (brute_force_points < 2)
    return fail("--brute-force-points " + std::to_string(brute_force_points) + " must be >= 2");
  if (threads < 0) return fail("--threads " + std::to_string(threads) + " must be >= 0");
  return plant.IsValid(error);
}

namespace {

// The reference: the best gains per condition by brute force on the noise-free plant.
void FindBestGains(const RobotDemoOptions& o, const problems::PendulumPlant& plant,
                   std::ostream& progress, RobotDemoResult* result) {
  const auto start = Clock::now();
  for (double payload : o.payloads) {
    DemoCondition condition;
    condition.payload = payload;
    // One call, long on a fine grid: a heartbeat while it runs.
    condition.brute_force = cli::WithHeartbeat(
        progress, "[demo] brute force, payload " + Number(payload, 2) + " kg",
        [&] { return problems::BruteForceBestGains(plant, payload, o.brute_force_points); });
    progress << "[demo] brute force, payload " << Number(payload, 2)
             << " kg: kp kd = " << Gains(condition.brute_force.gains) << ", reward "
             << Number(condition.brute_force.reward) << " (" << condition.brute_force.evaluations
             << " noise-free episodes)" << std::endl;
    result->conditions.push_back(condition);
  }
  result->seconds_brute_force = Seconds(start);
}

// The conditions of the episodes, drawn once: both tuners face the same sequence.
std::vector<int> DrawConditions(const RobotDemoOptions& o) {
  Rng condition_rng(o.seed);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(o.payloads.size()) - 1);
  std::vector<int> sequence(o.episodes);
  for (int& c : sequence) c = pick(condition_rng);
  return sequence;
}

// CGP-UCB over the gains with the payload as its context (its range the payloads'; one unit
// wide for a single payload).
Optimizer MakeContextualTuner(const RobotDemoOptions& o) {
  const auto [min_it, max_it] = std::minmax_element(o.payloads.begin(), o.payloads.end());
  const double payload_min = *min_it;
  const double payload_max = *max_it > *min_it ? *max_it : *min_it + 1.0;
  const Domain domain = Domain::Box(problems::PendulumGainLower(), problems::PendulumGainUpper())
                            .WithContext(1, Eigen::VectorXd::Constant(1, payload_min),
                                         Eigen::VectorXd::Constant(1, payload_max));
  return Optimizer(domain, nullptr, "cgp-ucb",
                   DemoUcbParams(o.beta_scale).MergedWith(o.contextual_options), TunerOptions(o));
}

// One episode of each tuner at the condition's payload, each with its own noise stream.
void PlayEpisode(const problems::PendulumPlant& plant, double payload, Optimizer& contextual,
                 Optimizer& plain, Rng& noise_contextual, Rng& noise_plain, DemoEpisode* episode,
                 RobotDemoResult* result) {
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, payload);
  auto t0 = Clock::now();
  const Eigen::Vector2d c = contextual.Ask(z);
  episode->contextual_gains = c;
  episode->contextual_reward = plant.Reward(c(0), c(1), payload);
  episode->contextual_observed = plant.NoisyReward(c(0), c(1), payload, noise_contextual);
  contextual.Tell(c, z, episode->contextual_observed);
  result->seconds_contextual += Seconds(t0);

  t0 = Clock::now();
  const Eigen::Vector2d p = plain.Ask();
  episode->plain_gains = p;
  episode->plain_reward = plant.Reward(p(0), p(1), payload);
  episode->plain_observed = plant.NoisyReward(p(0), p(1), payload, noise_plain);
  plain.Tell(p, episode->plain_observed);
  result->seconds_plain += Seconds(t0);
}

// CGP-UCB's recommendation at a condition: the accepted observation of that payload with the
// highest posterior mean (a condition never drawn gets the best point of the whole run, judged
// at its payload); GP-UCB's is its Best(), plain_best.
void Recommend(const problems::PendulumPlant& plant, const Optimizer& contextual,
               const Eigen::Vector2d& plain_best, DemoCondition* condition) {
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, condition->payload);
  double best_mean = -std::numeric_limits<double>::infinity();
  const GaussianProcess model = contextual.model();  // one copy for the whole loop
  for (const Observation& obs : contextual.observations()) {
    if (!obs.accepted) continue;
    const double mean = model.Mean(contextual.domain().ToUnit(obs.x, z));
    const bool same_condition = obs.z.size() == 1 && obs.z(0) == condition->payload;
    if ((same_condition || condition->episodes == 0) && mean > best_mean) {
      best_mean = mean;
      condition->contextual_gains = obs.x;
    }
  }
  condition->plain_gains = plain_best;
  condition->contextual_reward = plant.Reward(condition->contextual_gains(0),
                                              condition->contextual_gains(1), condition->payload);
  condition->plain_reward =
      plant.Reward(condition->plain_gains(0), condition->plain_gains(1), condition->payload);
}

}  // namespace

RobotDemoResult RunRobotDemo(const RobotDemoOptions& o, std::ostream& progress) {
  std::string error;
  if (!o.IsValid(&error)) throw std::invalid_argument(error);
  const problems::PendulumPlant plant(o.plant);
  RobotDemoResult result;
  FindBestGains(o, plant, progress, &result);
  const std::vector<int> sequence = DrawConditions(o);
  Optimizer contextual = MakeContextualTuner(o);
  Optimizer plain(Domain::Box(problems::PendulumGainLower(), problems::PendulumGainUpper()),
                  nullptr, "gp-ucb", DemoUcbParams(o.beta_scale).MergedWith(o.plain_options),
                  TunerOptions(o));

  // The same noise stream for both tuners (common random numbers). A line every 10 episodes,
  // and between them when they grow slow.
  cli::ProgressClock progress_clock;
  Rng noise_contextual(o.seed + 7), noise_plain(o.seed + 7);
  double regret_contextual = 0, regret_plain = 0;
  for (int e = 0; e < o.episodes; ++e) {
    const int c = sequence[e];
    DemoEpisode episode;
    episode.episode = e + 1;
    episode.condition = c;
    episode.best_reward = result.conditions[c].brute_force.reward;
    PlayEpisode(plant, o.payloads[c], contextual, plain, noise_contextual, noise_plain, &episode,
                &result);
    regret_contextual += episode.best_reward - episode.contextual_reward;
    regret_plain += episode.best_reward - episode.plain_reward;
    result.episodes.push_back(episode);
    ++result.conditions[c].episodes;
    if ((e + 1) % 10 == 0 || e + 1 == o.episodes || progress_clock.Due())
      progress << "[demo] episode " << std::setw(3) << e + 1 << "/" << o.episodes << "  payload "
               << Number(o.payloads[c], 2) << " kg  mean regret so far: CGP-UCB "
               << Number(regret_contextual / (e + 1)) << ", GP-UCB "
               << Number(regret_plain / (e + 1)) << "  ("
               << Number(result.seconds_contextual + result.seconds_plain, 1) << " s)" << std::endl;
  }
  const Eigen::Vector2d plain_best = plain.Best().x;
  for (DemoCondition& condition : result.conditions)
    Recommend(plant, contextual, plain_best, &condition);
  return result;
}

void PrintDemoTable(const RobotDemoResult& result, std::ostream& out) {
  out << "Learned PD gains (kp, kd) per payload and their noise-free episode reward (0 is "
         "perfect)\n";
  out << "payload  episodes |  CGP-UCB gains  reward  |  GP-UCB gains   reward  |  brute force    "
         "reward\n";
  double gap_contextual = 0, gap_plain = 0;
  for (const DemoCondition& c : result.conditions) {
    out << std::setw(5) << Number(c.payload, 2) << " kg " << std::setw(6) << c.episodes << "   | "
        << Gains(c.contextual_gains) << "  " << Number(c.contextual_reward) << " | "
        << Gains(c.plain_gains) << "  " << Number(c.plain_reward) << " | "
        << Gains(c.brute_force.gains) << "  " << Number(c.brute_force.reward) << "\n";
    gap_contextual += c.brute_force.reward - c.contextual_reward;
    gap_plain += c.brute_force.reward - c.plain_reward;
  }
  const double n = static_cast<double>(result.conditions.size());
  double regret_contextual = 0, regret_plain = 0;
  for (const DemoEpisode& e : result.episodes) {
    regret_contextual += e.best_reward - e.contextual_reward;
    regret_plain += e.best_reward - e.plain_reward;
  }
  const double episodes = static_cast<double>(result.episodes.size());
  out << "mean gap of the recommended gains to brute force: CGP-UCB " << Number(gap_contextual / n)
      << ", GP-UCB " << Number(gap_plain / n) << "\n"
      << "mean regret per episode over the run:             CGP-UCB "
      << Number(regret_contextual / episodes) << ", GP-UCB " << Number(regret_plain / episodes)
      << "\n"
      << "seconds: brute force " << Number(result.seconds_brute_force, 2) << ", CGP-UCB "
      << Number(result.seconds_contextual, 2) << ", GP-UCB " << Number(result.seconds_plain, 2)
      << "\n";
}

void WriteDemoCsv(const RobotDemoResult& result, const RobotDemoOptions& options,
                  const std::string& path) {
  Eigen::MatrixXd rows(result.episodes.size(), 12);
  for (size_t i = 0; i < result.episodes.size(); ++i) {
    const DemoEpisode& e = result.episodes[i];
    rows.row(static_cast<Eigen::Index>(i)) << e.episode, options.payloads[e.condition],
        e.contextual_gains(0), e.contextual_gains(1), e.contextual_reward, e.contextual_observed,
        e.plain_gains(0), e.plain_gains(1), e.plain_reward, e.plain_observed, e.best_reward,
        static_cast<double>(e.condition);
  }
  io::WriteNumericCsv(
      path,
      {"episode", "payload", "cgp_ucb_kp", "cgp_ucb_kd", "cgp_ucb_reward", "cgp_ucb_observed",
       "gp_ucb_kp", "gp_ucb_kd", "gp_ucb_reward", "gp_ucb_observed", "best_reward", "condition"},
      rows);
}

}  // namespace examples
}  // namespace gpbandit
