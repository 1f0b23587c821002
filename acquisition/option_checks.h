// Small helpers shared by the acquisition sources to build std::invalid_argument messages that
// name the field and the value. Internal (not installed API).
#ifndef GPBANDIT_ACQUISITION_OPTION_CHECKS_H_
#define GPBANDIT_ACQUISITION_OPTION_CHECKS_H_

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace internal {

// "field = value", a floating-point value in its shortest round-trip form (gp/format.h).
template <typename T>
std::string FieldValue(const std::string& field, const T& value) {
  std::ostringstream out;
  out << field << " = ";
  if constexpr (std::is_floating_point_v<T>) {
    out << FormatDouble(value);
  } else {
    out << value;
  }
  return out.str();
}

// Sets *error (if non-null) to "<field> = <value>: <requirement>" and returns false.
template <typename T>
bool Fail(std::string* error, const std::string& field, const T& value,
          const std::string& requirement) {
  if (error != nullptr) *error = FieldValue(field, value) + ": " + requirement;
  return false;
}

// The checks of Chowdhury & Gopalan's B, R and delta and of the gamma options (IGP-UCB's and
// GP-TS's options; options_json.h's ReadBoundFields is the JSON side).
template <typename Options>
bool BoundFieldsAreValid(const Options& o, std::string* error) {
  if (!(o.rkhs_bound >= 0.0) || !std::isfinite(o.rkhs_bound))
    return Fail(error, "rkhs_bound", o.rkhs_bound, "must be finite and >= 0");
  if (!std::isfinite(o.noise_bound))
    return Fail(error, "noise_bound", o.noise_bound, "must be finite");
  if (!(o.min_noise_bound >= 0.0) || !std::isfinite(o.min_noise_bound))
    return Fail(error, "min_noise_bound", o.min_noise_bound, "must be finite and >= 0");
  if (!(o.delta > 0.0 && o.delta < 1.0)) return Fail(error, "delta", o.delta, "must be in (0, 1)");
  return o.gamma.IsValid(error);
}

// Throws std::invalid_argument "<who>: <error>" when options.IsValid fails.
template <typename Options>
void ThrowIfInvalid(const Options& options, const std::string& who) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument(who + ": " + error);
}

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_OPTION_CHECKS_H_
