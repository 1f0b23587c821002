// Formatting of numbers in error messages and logs: one place decides that a double is printed
// with 17 significant digits, so that the value a message names reads back bit for bit.
#ifndef GPBANDIT_GP_FORMAT_H_
#define GPBANDIT_GP_FORMAT_H_

#include <string>

namespace gpbandit {

// The shortest-safe round-trip form of value ("0.10000000000000001", "nan", "-inf").
std::string FormatDouble(double value);

}  // namespace gpbandit

#endif  // GPBANDIT_GP_FORMAT_H_
