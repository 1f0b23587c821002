// gpbandit drift-demo: flags -> DriftDemoOptions; progress on stderr, the table (Markdown) on
// stdout.
#include <ostream>

#include "examples/cli/commands.h"
#include "examples/cli/drift_demo.h"

namespace gpbandit {
namespace cli {

int DriftDemoCommand(const std::vector<std::string>& args, Streams streams) {
  DriftDemoOptions o;
  std::string strategies = "gp-ucb,tv-gp-ucb,r-gp-ucb", drift = "50:100";
  std::vector<std::string> options;
  po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("episodes", ValueWithDefault(&o.episodes), "episodes per run")(
      "drift", ValueWithDefault(&drift), "first:last episode of the drift")(
      "measured", ValueWithDefault(&o.measured_episodes),
      "the regret is averaged over this many last episodes")(
      "strategies", ValueWithDefault(&strategies), "registry names, comma-separated")(
      "option", po::value(&options),
      "strategy:key=value, an option of one strategy (e.g. tv-gp-ucb:epsilon=0.03), "
      "repeatable")("seeds", ValueWithDefault(&o.seeds), "runs per strategy, seeds 1..n")(
      "brute-force-points", ValueWithDefault(&o.brute_force_points),
      "grid points per axis of the brute-force reference")("threads", ValueWithDefault(&o.threads),
                                                           "OpenMP threads, 0 = default");
  po::variables_map vm;
  if (!ParseArguments("drift-demo", "[--seeds 5] [--option tv-gp-ucb:epsilon=0.03] [options]", args,
                      desc, &vm, streams.out))
    return kExitOk;
  o.strategies = ParseNameList("strategies", strategies);
  const Eigen::VectorXd d = ParseDoubleList("drift", [&] {
    std::string t = drift;
    for (char& c : t)
      if (c == ':') c = ',';
    return t;
  }());
  if (d.size() != 2) throw UsageError("--drift " + drift + ": expected first:last");
  o.drift_start = static_cast<int>(d(0));
  o.drift_end = static_cast<int>(d(1));
  o.strategy_options = ParsePerStrategyOptions(o.strategies, options);
  for (const std::string& s : o.strategies) RequireRegisteredStrategy("--strategies", s);
  for (std::size_t i = 0; i < o.strategies.size(); ++i)
    RequireValidStrategyOptions(o.strategies[i], o.strategy_options[i]);
  std::string error;
  if (!o.IsValid(&error)) throw UsageError(error);
  const DriftDemoResult result = RunDriftDemo(o, streams.err);
  PrintDriftTable(result, o, streams.out);
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
