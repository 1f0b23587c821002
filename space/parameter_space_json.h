// A parameter space and its points as JSON (nlohmann), shared by the text forms
// (parameter_spec.h) and a study's records (log_header.cc, named_records.cc). Internal (not
// installed API).
#ifndef GPBANDIT_SPACE_PARAMETER_SPACE_JSON_H_
#define GPBANDIT_SPACE_PARAMETER_SPACE_JSON_H_

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>

#include "gpbandit/space/parameter_space.h"

namespace gpbandit {
namespace internal {

// [{"name": ..., "type": "real" | "integer" | "categorical", "scale": "linear" | "log",
//   "lower": ..., "upper": ...} or {..., "labels": [...]}, ...]
nlohmann::json ParametersToJson(const ParameterSpace& space);
// The inverse. Throws std::invalid_argument naming `what`, the entry and the field.
ParameterSpace ParametersFromJson(const nlohmann::json& parameters, const std::string& what);
// {"name": value, ...} of a legal vector x: numbers for reals and integers, labels as strings.
nlohmann::json NamedValuesToJson(const ParameterSpace& space, const Eigen::VectorXd& x);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_SPACE_PARAMETER_SPACE_JSON_H_
