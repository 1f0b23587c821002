// gpbandit safe-demo: flags -> SafeDemoOptions; progress on stderr, the table (Markdown) on
// stdout.
#include <filesystem>
#include <ostream>

#include "cli/plot.h"
#include "cli/strategy_options.h"
#include "examples/commands.h"
#include "examples/demos/safe_demo.h"

namespace gpbandit {
namespace examples {

namespace {

// The old spellings: --episodes (now --rounds), --seeds (--trials), --strategies (--strategy),
// --peak-noise (--peak-noise-sd), --grid-points (--brute-force-points).
cli::DeprecatedFlags SafeDemoDeprecatedFlags() {
  cli::DeprecatedFlags deprecated;
  deprecated.renamed = {{"episodes", "rounds"},
                        {"seeds", "trials"},
                        {"strategies", "strategy"},
                        {"peak-noise", "peak-noise-sd"},
                        {"grid-points", "brute-force-points"}};
  return deprecated;
}

}  // namespace

int SafeDemoCommand(const std::vector<std::string>& args, cli::Streams streams) {
  SafeDemoOptions o;
  std::string strategies = "safe-opt,gp-ucb";
  std::vector<std::string> options;
  cli::po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("rounds", cli::ValueWithDefault(&o.episodes), "rounds (episodes) per run")(
      "trials", cli::ValueWithDefault(&o.seeds), "runs per strategy, seeds 1..n")(
      "payload", cli::ValueWithDefault(&o.payload), "payload mass, kg")(
      "limit", cli::ValueWithDefault(&o.peak_error_limit),
      "safety limit on the episode's peak angle error, rad")(
      "noise-sd", cli::ValueWithDefault(&o.plant.reward_noise),
      "standard deviation of the episode reward's noise")(
      "peak-noise-sd", cli::ValueWithDefault(&o.peak_error_noise),
      "standard deviation of the measured peak error's noise, rad")(
      "strategy", cli::ValueWithDefault(&strategies), "registry names, comma-separated")(
      "option", cli::po::value(&options),
      "[strategy:]key=value, an option of the strategies that have the key or of one (e.g. "
      "safe-opt:beta=2), repeatable")(
      "plot-dir", cli::po::value(&o.plot_dir),
      "a directory: safe-opt's seed-1 log and a PNG of its safe set after 10, 30, 60 and 150 "
      "episodes (gnuplot)")("keep-plot-files", cli::po::bool_switch(&o.keep_plot_files),
                            "keep gnuplot's data and script beside each picture")(
      "brute-force-points", cli::ValueWithDefault(&o.grid_points),
      "grid points per axis of the brute-force reference")(
      "threads", cli::ValueWithDefault(&o.threads), "OpenMP threads, 0 = default");
  cli::po::variables_map vm;
  if (!cli::ParseArguments("safe-demo", "[--trials 5] [--rounds 150] [--limit 0.35] [options]",
                           args, desc, SafeDemoDeprecatedFlags(), &vm, streams))
    return cli::kExitOk;
  o.strategies = cli::ParseNameList("strategy", strategies);
  o.strategy_options = cli::ParseStrategyOptions(options, o.strategies).ForEach(o.strategies);
  for (const std::string& s : o.strategies) cli::RequireRegisteredStrategy("--strategy", s);
  cli::RequireNonNegative("--noise-sd", o.plant.reward_noise);
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);
  if (!o.plot_dir.empty()) {
    cli::RequireGnuplot("--plot-dir", o.plot_dir, "install it, or leave out --plot-dir");
    std::error_code ec;
    std::filesystem::create_directories(o.plot_dir, ec);
    if (ec) throw cli::UsageError("--plot-dir " + o.plot_dir + ": " + ec.message());
  }
  const SafeDemoResult result = RunSafeDemo(o, streams.err);
  PrintSafeTable(result, o, streams.out);
  return cli::kExitOk;
}

}  // namespace examples
}  // namespace gpbandit
