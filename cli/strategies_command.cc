// gpbandit strategies: the strategy registry's names, descriptions and default options.
#include <iomanip>
#include <ostream>

#include "cli/commands.h"
#include "gpbandit/optimizer/strategy_registry.h"

namespace gpbandit {
namespace cli {

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
