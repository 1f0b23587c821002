// gpbandit demo: flags -> RobotDemoOptions; progress on stderr, the table on stdout, the
// per-episode CSV and the learning-curve PNG on disk.
#include <algorithm>
#include <ostream>

#include "cli/io/csv.h"
#include "cli/plot.h"
#include "cli/strategy_options.h"
#include "examples/commands.h"
#include "examples/demos/robot_demo.h"

namespace gpbandit {
namespace examples {
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
cli::PlotSpec LearningCurves(const RobotDemoResult& result, const std::string& png_path,
                             bool keep_files) {
  std::vector<double> contextual, plain, episodes;
  for (const DemoEpisode& e : result.episodes) {
    episodes.push_back(e.episode);
    contextual.push_back(e.best_reward - e.contextual_reward);
    plain.push_back(e.best_reward - e.plain_reward);
  }
  cli::PlotSpec spec;
  spec.png_path = png_path;
  spec.keep_files = keep_files;
  spec.title = "gpbandit demo: pendulum PD gains under changing payloads";
  spec.x_label = "episode";
  spec.y_label = "regret vs brute-force gains (mean of last 10 episodes)";
  spec.curves.push_back({"CGP-UCB (payload as context)", episodes, TrailingMean(contextual, 10)});
  spec.curves.push_back({"GP-UCB (ignores the payload)", episodes, TrailingMean(plain, 10)});
  return spec;
}

// The old spellings: --episodes (now --rounds) and --reward-noise (now --noise-sd).
cli::DeprecatedFlags DemoDeprecatedFlags() {
  cli::DeprecatedFlags deprecated;
  deprecated.renamed = {{"episodes", "rounds"}, {"reward-noise", "noise-sd"}};
  return deprecated;
}

// Each tuner's --option items into *o, checked as RunRobotDemo will build the tuners (after
// beta_scale), before the brute-force reference runs.
void SetTunerOptions(const std::vector<std::string>& items, RobotDemoOptions* o) {
  const std::vector<std::string> tuners = {"cgp-ucb", "gp-ucb"};
  const cli::StrategyOptionFlags options = cli::ParseStrategyOptions(items, tuners);
  o->contextual_options = options.For("cgp-ucb", tuners);
  o->plain_options = options.For("gp-ucb", tuners);
  const StrategyParams beta = StrategyParams().With("beta_scale", o->beta_scale);
  cli::RequireValidStrategyOptions("cgp-ucb", beta.MergedWith(o->contextual_options));
  cli::RequireValidStrategyOptions("gp-ucb", beta.MergedWith(o->plain_options));
}

}  // namespace

int DemoCommand(const std::vector<std::string>& args, cli::Streams streams) {
  RobotDemoOptions o;
  o.seed = cli::kDefaultSeed;
  std::string payloads = cli::FormatVector(Eigen::Map<const Eigen::VectorXd>(
      o.payloads.data(), static_cast<Eigen::Index>(o.payloads.size())));
  std::string out_path = "demo.csv", plot_path = "demo.png";
  std::vector<std::string> options;
  bool keep_plot_files = false;
  cli::po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("rounds", cli::ValueWithDefault(&o.episodes), "rounds (episodes) per tuner")(
      "payloads", cli::ValueWithDefault(&payloads),
      "payload masses (kg) of the conditions, comma-separated")(
      "beta-scale", cli::ValueWithDefault(&o.beta_scale), "multiplies beta_t of both tuners")(
      "option", cli::po::value(&options),
      "[strategy:]key=value, an option of both tuners (GP-UCB's keys) or of one (cgp-ucb: or "
      "gp-ucb:), repeatable")("noise-sd", cli::ValueWithDefault(&o.plant.reward_noise),
                              "standard deviation of the episode reward's noise")(
      "brute-force-points", cli::ValueWithDefault(&o.brute_force_points),
      "grid points per axis of the brute-force reference")("seed", cli::ValueWithDefault(&o.seed),
                                                           "seed of conditions, noise and tuners")(
      "threads", cli::ValueWithDefault(&o.threads), "OpenMP threads, 0 = default")(
      "out", cli::ValueWithDefault(&out_path), "per-episode CSV ('' = none)")(
      "plot", cli::ValueWithDefault(&plot_path), "learning-curve PNG ('' = none; gnuplot)")(
      "keep-plot-files", cli::po::bool_switch(&keep_plot_files),
      "keep gnuplot's data and script beside the picture (PNG.dat, PNG.gp)");
  cli::po::variables_map vm;
  if (!cli::ParseArguments("demo", "[--plot demo.png] [options]", args, desc, DemoDeprecatedFlags(),
                           &vm, streams))
    return cli::kExitOk;
  const Eigen::VectorXd p = cli::ParseDoubleList("payloads", payloads);
  o.payloads.assign(p.data(), p.data() + p.size());
  cli::RequireNonNegative("--noise-sd", o.plant.reward_noise);
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);
  SetTunerOptions(options, &o);
  if (!out_path.empty()) cli::RequireWritableFile("--out", out_path);
  if (!plot_path.empty()) {
    cli::RequireWritableFile("--plot", plot_path);
    cli::RequireGnuplot("--plot", plot_path, "install it, or give --plot '' to skip the picture");
  }

  streams.err << "[demo] tuning the PD gains of a pendulum whose payload changes every episode: "
              << o.episodes << " episodes, CGP-UCB (sees the payload) vs GP-UCB (does not)"
              << std::endl;
  const RobotDemoResult result = RunRobotDemo(o, streams.err);
  PrintDemoTable(result, streams.out);
  if (!out_path.empty()) {
    WriteDemoCsv(result, o, out_path);
    streams.err << "[demo] wrote " << out_path << "\n";
  }
  if (!plot_path.empty() &&
      cli::PlotCurves(LearningCurves(result, plot_path, keep_plot_files), streams.err))
    streams.err << "[demo] wrote " << plot_path << "\n";
  return cli::kExitOk;
}

}  // namespace examples
}  // namespace gpbandit
