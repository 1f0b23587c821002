#include "settings.h"

#include <stdexcept>

#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/study/log_header.h"

namespace gpbandit {
namespace python {

std::string DefaultSettingsJson(bool plain_fit) {
  OptimizerOptions options;
  if (plain_fit) options.fit = HyperparameterFitOptions();
  return FormatSettings("gp-ucb", StrategyParams(), options);
}

OptimizerOptions OptionsFromSettingsJson(const std::string& settings_json) {
  std::string strategy;
  StrategyParams strategy_options;
  OptimizerOptions options;
  try {
    ParseSettings(settings_json, &strategy, &strategy_options, &options);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(e.what());
  }
  return options;
}

StrategyParams ParamsFromJson(const std::string& json_object) {
  return StrategyParams(json_object);
}

}  // namespace python
}  // namespace gpbandit
