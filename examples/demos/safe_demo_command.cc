// gpbandit safe-demo: flags -> SafeDemoOptions; progress on stderr, the table (Markdown) on
// stdout.
#include <filesystem>
#include <ostream>

#include "examples/commands.h"
#include "examples/demos/safe_demo.h"

namespace gpbandit {
namespace examples {

int SafeDemoCommand(const std::vector<std::string>& args, cli::Streams streams) {
  SafeDemoOptions o;
  std::string strategies = "safe-opt,gp-ucb";
  std::vector<std::string> options;
  cli::po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("episodes", cli::ValueWithDefault(&o.episodes), "episodes per run")(
      "seeds", cli::ValueWithDefault(&o.seeds), "runs per strategy, seeds 1..n")(
      "payload", cli::ValueWithDefault(&o.payload), "payload mass, kg")(
      "limit", cli::ValueWithDefault(&o.peak_error_limit),
      "safety limit on the episode's peak angle error, rad")(
      "peak-noise", cli::ValueWithDefault(&o.peak_error_noise),
      "standard deviation of the measured peak error's noise, rad")(
      "strategies", cli::ValueWithDefault(&strategies), "registry names, comma-separated")(
      "option", cli::po::value(&options),
      "strategy:key=value, an option of one strategy (e.g. safe-opt:beta=2), repeatable")(
      "plot-dir", cli::po::value(&o.plot_dir),
      "a directory: safe-opt's seed-1 log and a PNG of its safe set after 10, 30, 60 and 150 "
      "episodes")("grid-points", cli::ValueWithDefault(&o.grid_points),
                  "grid points per axis of the brute-force reference")(
      "threads", cli::ValueWithDefault(&o.threads), "OpenMP threads, 0 = default");
  cli::po::variables_map vm;
  if (!cli::ParseArguments("safe-demo", "[--seeds 5] [--episodes 150] [--limit 0.35] [options]",
                           args, desc, &vm, streams.out))
    return cli::kExitOk;
  o.strategies = cli::ParseNameList("strategies", strategies);
  o.strategy_options = cli::ParsePerStrategyOptions(o.strategies, options);
  for (const std::string& s : o.strategies) cli::RequireRegisteredStrategy("--strategies", s);
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);
  if (!o.plot_dir.empty()) {
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
