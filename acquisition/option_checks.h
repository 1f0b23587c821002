// Small helpers shared by the acquisition sources to build std::invalid_argument messages that
// name the field and the value. Internal (not installed API).
#ifndef GPBANDIT_ACQUISITION_OPTION_CHECKS_H_
#define GPBANDIT_ACQUISITION_OPTION_CHECKS_H_

#include <sstream>
#include <stdexcept>
#include <string>

namespace gpbandit {
namespace internal {

// "field = value" with round-trip precision.
template <typename T>
std::string FieldValue(const std::string& field, const T& value) {
  std::ostringstream out;
  out.precision(17);
  out << field << " = " << value;
  return out.str();
}

// Sets *error (if non-null) to "<field> = <value>: <requirement>" and returns false.
template <typename T>
bool Fail(std::string* error, const std::string& field, const T& value,
          const std::string& requirement) {
  if (error != nullptr) *error = FieldValue(field, value) + ": " + requirement;
  return false;
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
