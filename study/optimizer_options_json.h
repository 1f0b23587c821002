// OptimizerOptions and the options structs it holds (HyperparameterFitOptions, RefitSchedule,
// GaussianProcessOptions, LocalModelOptions) as the JSON object a study's header stores
// ("options", log_header.h) and the pagmo and Python settings carry. Internal (not installed
// API): it includes nlohmann/json.hpp.
//
// The writer writes every field the study depends on (not log_path, storage, study or worker:
// they belong to the process, not to the study). The reader is strict, as the strategies' are
// (acquisition/options_json.h), and stricter in one way: every field must be present, because a
// header holds every field and a missing one means a corrupt header, not a default. The values
// that headers written before a field existed ran with are filled in before reading, from the
// table of options_json_legacy.h. Refused, with std::invalid_argument naming the field by its
// path from `where` ("options.fit.max_iterations") and the value: a missing field, a key the
// options do not have, a value of the wrong type, an enum name the code does not know, and a
// value out of range (OptimizerOptions::IsValid). Reals may be written "inf" or "-inf" (JSON
// has no infinity; the flat prior's stddev_log and the fit's max_seconds are infinite by
// default).
//
// Pure functions, thread-safe; reading what was written gives back the same values.
#ifndef GPBANDIT_STUDY_OPTIMIZER_OPTIONS_JSON_H_
#define GPBANDIT_STUDY_OPTIMIZER_OPTIONS_JSON_H_

#include <nlohmann/json.hpp>
#include <string>

#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {
namespace internal {

nlohmann::json FitOptionsToJson(const HyperparameterFitOptions& fit);
nlohmann::json LocalModelToJson(const LocalModelOptions& local_model);
nlohmann::json OptimizerOptionsToJson(const OptimizerOptions& options);

// The options of `object` (every field present), named `where` in messages ("options"). The
// fields OptimizerOptionsToJson does not write keep their defaults. Checks IsValid.
OptimizerOptions OptimizerOptionsFromJson(const nlohmann::json& object, const std::string& where);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_OPTIMIZER_OPTIONS_JSON_H_
