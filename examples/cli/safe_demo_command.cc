// gpbandit safe-demo: flags -> SafeDemoOptions; progress on stderr, the table (Markdown) on
// stdout.
#include <filesystem>
#include <ostream>

#include "examples/cli/commands.h"
#include "examples/cli/safe_demo.h"

namespace gpbandit {
namespace cli {

int SafeDemoCommand(const std::vector<std::string>& args, Streams streams) {
  SafeDemoOptions o;
  std::string strategies = "safe-opt,gp-ucb";
  std::vector<std::string> options;
  po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("episodes", ValueWithDefault(&o.episodes), "episodes per run")(
      "seeds", ValueWithDefault(&o.seeds), "runs per strategy, seeds 1..n")(
      "payload", ValueWithDefault(&o.payload), "payload mass, kg")(
      "limit", ValueWithDefault(&o.peak_error_limit),
      "safety limit on the episode's peak angle error, rad")(
      "peak-noise", ValueWithDefault(&o.peak_error_noise),
      "standard deviation of the measured peak error's noise, rad")(
      "strategies", ValueWithDefault(&strategies), "registry names, comma-separated")(
      "option", po::value(&options),
      "strategy:key=value, an option of one strategy (e.g. safe-opt:beta=2), repeatable")(
      "plot-dir", po::value(&o.plot_dir),
      "a directory: safe-opt's seed-1 log and a PNG of its safe set after 10, 30, 60 and 150 "
      "episodes")("grid-points", ValueWithDefault(&o.grid_points),
                  "grid points per axis of the brute-force reference")(
      "threads", ValueWithDefault(&o.threads), "OpenMP threads, 0 = default");
  po::variables_map vm;
  if (!ParseArguments("safe-demo", "[--seeds 5] [--episodes 150] [--limit 0.35] [options]", args,
                      desc, &vm, streams.out))
    return kExitOk;
  o.strategies = ParseNameList("strategies", strategies);
  o.strategy_options = ParsePerStrategyOptions(o.strategies, options);
  for (const std::string& s : o.strategies) RequireRegisteredStrategy("--strategies", s);
  std::string error;
  if (!o.IsValid(&error)) throw UsageError(error);
  if (!o.plot_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.plot_dir, ec);
    if (ec) throw UsageError("--plot-dir " + o.plot_dir + ": " + ec.message());
  }
  const SafeDemoResult result = RunSafeDemo(o, streams.err);
  PrintSafeTable(result, o, streams.out);
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
