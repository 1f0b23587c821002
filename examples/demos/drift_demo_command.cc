// gpbandit drift-demo: flags -> DriftDemoOptions; progress on stderr, the table (Markdown) on
// stdout.
#include <ostream>

#include "cli/strategy_options.h"
#include "examples/commands.h"
#include "examples/demos/drift_demo.h"

namespace gpbandit {
namespace examples {

namespace {

// The old spellings: --episodes (now --rounds), --seeds (--trials), --strategies (--strategy).
cli::DeprecatedFlags DriftDemoDeprecatedFlags() {
  cli::DeprecatedFlags deprecated;
  deprecated.renamed = {{"episodes", "rounds"}, {"seeds", "trials"}, {"strategies", "strategy"}};
  return deprecated;
}

}  // namespace

int DriftDemoCommand(const std::vector<std::string>& args, cli::Streams streams) {
  DriftDemoOptions o;
  std::string strategies = "gp-ucb,tv-gp-ucb,r-gp-ucb", drift = "50:100";
  std::vector<std::string> options;
  cli::po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("rounds", cli::ValueWithDefault(&o.episodes), "rounds (episodes) per run")(
      "drift", cli::ValueWithDefault(&drift), "first:last episode of the drift")(
      "measured", cli::ValueWithDefault(&o.measured_episodes),
      "the regret is averaged over this many last episodes")(
      "strategy", cli::ValueWithDefault(&strategies), "registry names, comma-separated")(
      "option", cli::po::value(&options),
      "[strategy:]key=value, an option of the strategies that have the key or of one (e.g. "
      "tv-gp-ucb:epsilon=0.03), repeatable")("noise-sd",
                                             cli::ValueWithDefault(&o.plant.reward_noise),
                                             "standard deviation of the episode reward's noise")(
      "trials", cli::ValueWithDefault(&o.seeds), "runs per strategy, seeds 1..n")(
      "brute-force-points", cli::ValueWithDefault(&o.brute_force_points),
      "grid points per axis of the brute-force reference")(
      "threads", cli::ValueWithDefault(&o.threads), "OpenMP threads, 0 = default");
  cli::po::variables_map vm;
  if (!cli::ParseArguments("drift-demo", "[--trials 5] [--option tv-gp-ucb:epsilon=0.03] [options]",
                           args, desc, DriftDemoDeprecatedFlags(), &vm, streams))
    return cli::kExitOk;
  o.strategies = cli::ParseNameList("strategy", strategies);
  const Eigen::VectorXd d = cli::ParseDoubleList("drift", [&] {
    std::string t = drift;
    for (char& c : t)
      if (c == ':') c = ',';
    return t;
  }());
  if (d.size() != 2) throw cli::UsageError("--drift " + drift + ": expected first:last");
  o.drift_start = static_cast<int>(d(0));
  o.drift_end = static_cast<int>(d(1));
  o.strategy_options = cli::ParseStrategyOptions(options, o.strategies).ForEach(o.strategies);
  for (const std::string& s : o.strategies) cli::RequireRegisteredStrategy("--strategy", s);
  for (std::size_t i = 0; i < o.strategies.size(); ++i)
    cli::RequireValidStrategyOptions(o.strategies[i], o.strategy_options[i]);
  cli::RequireNonNegative("--noise-sd", o.plant.reward_noise);
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);
  const DriftDemoResult result = RunDriftDemo(o, streams.err);
  PrintDriftTable(result, o, streams.out);
  return cli::kExitOk;
}

}  // namespace examples
}  // namespace gpbandit
