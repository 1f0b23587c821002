// The values that study headers written before an option existed ran with: one table for the
// optimizer's options and the built-in strategies' (docs/log_format.md lists it with the format
// versions). Internal (not installed API).
//
// A header records every option, so a field it lacks was added after it was written, and the
// run that wrote it behaved as the code before the field did. When that behaviour is not the
// new field's default, the field gets a row here with the value that keeps it, and headers of
// every version up to the row's absent_through resume with that value; a header of a later
// version lacks the field only if it is corrupt (the optimizer's options: refused, naming it)
// or was written by hand (the strategies' options: the strategy's default applies). A new
// option whose default is not the old behaviour is therefore one row with absent_through =
// kLogFormatVersion, and no format version: the version changes only when a field's meaning
// does (log_header.cc keeps those rewrites).
#ifndef GPBANDIT_STUDY_OPTIONS_JSON_LEGACY_H_
#define GPBANDIT_STUDY_OPTIONS_JSON_LEGACY_H_

#include <nlohmann/json.hpp>
#include <vector>

namespace gpbandit {
namespace internal {

// Which options object of a header a row's path is in.
enum class LegacyScope {
  // "options": OptimizerOptions (optimizer_options_json.h).
  kOptimizer,
  // "strategy_options" of the built-in strategy named by the row.
  kStrategy,
  // Each entry of "signal_models" of a safe-opt header whose signals are calibrated (its
  // "calibrated" true or absent); when it has none, one entry per signal (the reward and each
  // of "constraint_thresholds") is made, holding only the rows' fields.
  kSafeOptSignalModels,
};

struct LegacyValue {
  // Headers of this format version or older may lack the field.
  int absent_through;
  LegacyScope scope;
  // kStrategy: the strategy's registry name ("pi"); empty otherwise.
  const char* strategy;
  // A JSON pointer into the scope's object ("/local_model/anchor"). A header that lacks it gets
  // `value` there (objects on the way are made).
  const char* path;
  nlohmann::json value;
};

// The rows, in increasing absent_through (a later row may read what an earlier one filled in:
// safe-opt's signal models are calibrated unless "calibrated" says otherwise).
const std::vector<LegacyValue>& LegacyValues();

// Fills in, in `header` ("strategy", "strategy_options", "options"; the meaning rewrites of
// log_header.cc already applied), every row with absent_through >= version whose field it
// lacks.
void FillLegacyValues(int version, nlohmann::json* header);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_OPTIONS_JSON_LEGACY_H_
