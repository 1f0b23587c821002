// The header record of an observation log: everything needed to rebuild an Optimizer from the
// log alone (`gpbandit suggest --log runs.jsonl` remembers bounds and strategy). Every option
// field is written, so a resumed optimizer behaves exactly as the one that wrote the log.
//
// The kernel itself is not serialized (user kernels are arbitrary code): the header records
// whether it was the default one, its description and its initial log-params, and a resume
// checks the kernel it is given against them.
#ifndef GPBANDIT_PLUGIN_LOG_HEADER_H_
#define GPBANDIT_PLUGIN_LOG_HEADER_H_

#include <string>

#include <Eigen/Core>

#include "gpbandit/plugin/domain.h"
#include "gpbandit/plugin/optimizer_options.h"
#include "gpbandit/plugin/strategy_registry.h"

namespace gpbandit {

struct LogHeader {
  Domain domain = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  std::string strategy;
  StrategyOptions strategy_options;
  OptimizerOptions options;
  bool default_kernel = true;
  std::string kernel_description;
  Eigen::VectorXd kernel_log_params;
};

// The strategy and the options alone, as one JSON object (the pagmo adapter serializes its
// settings this way). Parse throws std::runtime_error naming the malformed field.
std::string FormatSettings(const std::string& strategy, const StrategyOptions& strategy_options,
                           const OptimizerOptions& options);
void ParseSettings(const std::string& json_text, std::string* strategy,
                   StrategyOptions* strategy_options, OptimizerOptions* options);

// One JSON object (no newline) with "type": "header".
std::string FormatLogHeader(const LogHeader& header);
// Throws std::runtime_error naming the missing or malformed field.
LogHeader ParseLogHeader(const std::string& json_text);

}  // namespace gpbandit

#endif  // GPBANDIT_PLUGIN_LOG_HEADER_H_
