// gpbandit demo: flags -> RobotDemoOptions; progress on stderr, the table on stdout, the
// per-episode CSV and the learning-curve PNG on disk.
#include <algorithm>
#include <ostream>

#include "examples/cli/commands.h"
#include "examples/cli/plot.h"
#include "examples/cli/robot_demo.h"
#include "examples/io/csv.h"

namespace gpbandit {
namespace cli {
namespace {

// The trailing mean over `window` episodes: one episode's regret is mostly noise of the
// exploration, the trend is what a reader wants to see.
std::vector<double> TrailingMean(const std::vector<double>& v, int window) {
  std::vector<double> out(v.size());
  double sum = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    sum += v[i];
    if (i >= static_cast<size_t>(window)) sum -= v[i - window];
    out[i] = sum / static_cast<double>(std::min<size_t>(i + 1, window));
  }
  return out;
}

// Each tuner's regret against the brute-force gains, episode by episode, smoothed.
PlotSpec LearningCurves(const RobotDemoResult& result, const std::string& png_path) {
  std::vector<double> contextual, plain, episodes;
  for (const DemoEpisode& e : result.episodes) {
    episodes.push_back(e.episode);
    contextual.push_back(e.best_reward - e.contextual_reward);
    plain.push_back(e.best_reward - e.plain_reward);
  }
  PlotSpec spec;
  spec.png_path = png_path;
  spec.title = "gpbandit demo: pendulum PD gains under changing payloads";
  spec.x_label = "episode";
  spec.y_label = "regret vs brute-force gains (mean of last 10 episodes)";
  spec.curves.push_back({"CGP-UCB (payload as context)", episodes, TrailingMean(contextual, 10)});
  spec.curves.push_back({"GP-UCB (ignores the payload)", episodes, TrailingMean(plain, 10)});
  return spec;
}

}  // namespace

int DemoCommand(const std::vector<std::string>& args, Streams streams) {
  RobotDemoOptions o;
  o.seed = kDefaultSeed;
  std::string payloads = FormatVector(Eigen::Map<const Eigen::VectorXd>(
      o.payloads.data(), static_cast<Eigen::Index>(o.payloads.size())));
  std::string out_path = "demo.csv", plot_path = "demo.png";
  std::vector<std::string> options;
  po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("episodes", ValueWithDefault(&o.episodes), "episodes per tuner")(
      "payloads", ValueWithDefault(&payloads),
      "payload masses (kg) of the conditions, comma-separated")(
      "beta-scale", ValueWithDefault(&o.beta_scale), "multiplies beta_t of both tuners")(
      "option", po::value(&options),
      "key=value: another option of both tuners (GP-UCB's keys), repeatable")(
      "reward-noise", ValueWithDefault(&o.plant.reward_noise), "sd of the episode reward noise")(
      "brute-force-points", ValueWithDefault(&o.brute_force_points),
      "grid points per axis of the brute-force reference")("seed", ValueWithDefault(&o.seed),
                                                           "seed of conditions, noise and tuners")(
      "threads", ValueWithDefault(&o.threads), "OpenMP threads, 0 = default")(
      "out", ValueWithDefault(&out_path), "per-episode CSV ('' = none)")(
      "plot", ValueWithDefault(&plot_path), "learning-curve PNG ('' = none)");
  po::variables_map vm;
  if (!ParseArguments("demo", "[--plot demo.png] [options]", args, desc, &vm, streams.out))
    return kExitOk;
  const Eigen::VectorXd p = ParseDoubleList("payloads", payloads);
  o.payloads.assign(p.data(), p.data() + p.size());
  o.strategy_options = ParseOptionFlags(options);
  RequireNonNegative("--reward-noise", o.plant.reward_noise);
  std::string error;
  if (!o.IsValid(&error)) throw UsageError(error);
  // The tuners' options (RunRobotDemo's), checked before the brute-force reference runs.
  const StrategyParams tuner = DemoUcbParams(o.beta_scale).MergedWith(o.strategy_options);
  for (const char* strategy : {"cgp-ucb", "gp-ucb"}) RequireValidStrategyOptions(strategy, tuner);
  if (!out_path.empty()) RequireWritableFile("--out", out_path);
  if (!plot_path.empty()) RequireWritableFile("--plot", plot_path);

  streams.err << "[demo] tuning the PD gains of a pendulum whose payload changes every episode: "
              << o.episodes << " episodes, CGP-UCB (sees the payload) vs GP-UCB (does not)"
              << std::endl;
  const RobotDemoResult result = RunRobotDemo(o, streams.err);
  PrintDemoTable(result, streams.out);
  if (!out_path.empty()) {
    WriteDemoCsv(result, o, out_path);
    streams.err << "[demo] wrote " << out_path << "\n";
  }
  if (!plot_path.empty() && PlotCurves(LearningCurves(result, plot_path), streams.err))
    streams.err << "[demo] wrote " << plot_path << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
