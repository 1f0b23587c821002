// The options structs cross between Python and C++ as the JSON the study's header stores them
// in (study/log_header.h, FormatSettings): the Python package reads every default from
// DefaultSettingsJson() and sends back the same object with the caller's values over it. So
// each default lives in its C++ struct only, and a field added there reaches Python with no
// change here.
#ifndef GPBANDIT_PYTHON_SRC_SETTINGS_H_
#define GPBANDIT_PYTHON_SRC_SETTINGS_H_

#include <string>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {
namespace python {

// {"strategy": "gp-ucb", "strategy_options": {}, "options": {...}} of a default-constructed
// OptimizerOptions; with plain_fit, options.fit holds HyperparameterFitOptions' own defaults
// (fit.h) instead of the optimizer's (DefaultOptimizerFitOptions).
std::string DefaultSettingsJson(bool plain_fit);

// The options of a settings object. Throws std::invalid_argument (not the runtime_error of
// ParseSettings: the text comes from the caller's keyword arguments) naming the malformed field.
OptimizerOptions OptionsFromSettingsJson(const std::string& settings_json);

// A strategy's options from JSON object text; std::invalid_argument if malformed.
StrategyParams ParamsFromJson(const std::string& json_object);

}  // namespace python
}  // namespace gpbandit

#endif  // GPBANDIT_PYTHON_SRC_SETTINGS_H_
