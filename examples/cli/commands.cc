#include "examples/cli/commands.h"

#include <iomanip>
#include <ostream>

#include "gpbandit/plugin/strategy_registry.h"

namespace gpbandit {
namespace cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"demo", "tune a simulated robot controller under changing payloads (CGP-UCB)", DemoCommand},
      {"drift-demo", "tune the robot while its plant drifts: TV-GP-UCB, R-GP-UCB vs GP-UCB",
       DriftDemoCommand},
      {"safe-demo",
       "tune the robot under a peak-error limit: SafeOpt-MC vs GP-UCB, unsafe episodes",
       SafeDemoCommand},
      {"run", "a regret study: strategies x problem x trials, CSV per round, summary", RunCommand},
      {"fit", "fit kernel hyperparameters to observations, print JSON", FitCommand},
      {"suggest", "the next point to try, from a JSON-Lines log (one CSV line)", SuggestCommand},
      {"observe", "record a reward for a point in the log", ObserveCommand},
      {"best", "the recommended action at a context, from a study (one CSV line)", BestCommand},
      {"predict", "posterior mean and standard deviation at a point, from a study", PredictCommand},
      {"plot", "a PNG of the model on a 1-D or 2-D slice, with observations and next point",
       PlotCommand},
      {"worker", "evaluate a command in a loop for a shared study (ask, run, tell)", WorkerCommand},
      {"pending", "the points handed out and not yet observed, with their leases", PendingCommand},
      {"study", "create, list, show, export or import studies (files, PostgreSQL)", StudyCommand},
      {"sensor-data", "simulate the building's sensors, write the finite-problem files",
       SensorDataCommand},
      {"strategies", "list the registered strategies and their options", StrategiesCommand},
  };
  return commands;
}

int StrategiesCommand(const std::vector<std::string>& args, Streams streams) {
  po::options_description desc("options");
  po::variables_map vm;
  if (!ParseArguments("strategies", "", args, desc, &vm, streams.out)) return kExitOk;
  // Name and description, then the default options: the keys --option accepts.
  const StrategyRegistry& registry = StrategyRegistry::Default();
  for (const std::string& name : registry.Names()) {
    streams.out << std::left << std::setw(10) << name << " " << registry.Description(name) << "\n"
                << std::setw(10) << ""
                << " options: " << registry.DefaultOptions(name).json() << "\n";
  }
  streams.out << "Every strategy runs on finite sets and boxes, with or without contexts, with "
                 "every kernel gpbandit ships; a combination a strategy cannot run is refused "
                 "when the optimizer is built (Strategy::CheckSupports).\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
