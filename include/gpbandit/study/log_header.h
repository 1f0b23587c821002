// The header record of an observation log: everything needed to rebuild an Optimizer from the
// log alone (`gpbandit suggest --log runs.jsonl` remembers bounds and strategy). Every option
// field is written, so a resumed optimizer behaves exactly as the one that wrote the log.
//
// The kernel itself is not serialized (user kernels are arbitrary code): the header records
// whether it was the default one, its description and its initial log-params, and a resume
// checks the kernel it is given against them.
//
// Compatibility: ParseLogHeader reads every format version this code has written, and an old
// header resumes exactly as the code that wrote it would have run. Two kinds of change keep that
// (docs/log_format.md lists every version and what older headers resume with):
//   - an option added to OptimizerOptions or to a built-in strategy's options: headers written
//     before it lack the field, and a table gives the value they ran with
//     (study/options_json_legacy.h); no new version;
//   - a change that code unaware of it would misread (a written value that now means something
//     else, a record field that would be replayed differently if ignored): a new
//     kLogFormatVersion, so that older code refuses the log by its version, and where a header's
//     meaning changed, a rewrite of older headers to what they meant (study/log_header.cc).
// An option without a legacy value for the header's version must be present: without it the
// header is corrupt, and refused.
//
// Pure functions, thread-safe; formatting then parsing a header gives back the same values.
#ifndef GPBANDIT_STUDY_LOG_HEADER_H_
#define GPBANDIT_STUDY_LOG_HEADER_H_

#include <Eigen/Core>
#include <string>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

// The format version FormatLogHeader writes.
constexpr int kLogFormatVersion = 9;

struct LogHeader {
  // The version the header was read from (FormatLogHeader always writes kLogFormatVersion).
  int format_version = kLogFormatVersion;
  Domain domain = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  // The registry name and the options of the strategy.
  std::string strategy;
  StrategyParams strategy_options;
  OptimizerOptions options;
  bool default_kernel = true;
  std::string kernel_description;
  Eigen::VectorXd kernel_log_params;
};

// The strategy and the options alone, as one JSON object (the pagmo adapter serializes its
// settings this way). Settings have no version: Parse reads what the current version's header
// holds, options added since they were written taking their legacy values as in a header.
// Parse throws std::runtime_error naming the missing, unknown or malformed field.
std::string FormatSettings(const std::string& strategy, const StrategyParams& strategy_options,
                           const OptimizerOptions& options);
void ParseSettings(const std::string& json_text, std::string* strategy,
                   StrategyParams* strategy_options, OptimizerOptions* options);

// One JSON object (no newline) with "type": "header".
std::string FormatLogHeader(const LogHeader& header);
// Reads format versions 1 to kLogFormatVersion. Throws std::runtime_error naming the missing,
// unknown or malformed field (with its value), or an unsupported version.
LogHeader ParseLogHeader(const std::string& json_text);

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_LOG_HEADER_H_
