// Formatting of numbers in error messages, logs, files and help texts: one place decides how a
// double is printed, so that every number gpbandit writes reads back bit for bit and is no
// longer than it needs to be. Public so that tools built on gpbandit (the command line, a
// user's own) write numbers exactly as the library does.
//
// Thread safety: a pure function.
#ifndef GPBANDIT_NUMERICS_FORMAT_H_
#define GPBANDIT_NUMERICS_FORMAT_H_

#include <string>

namespace gpbandit {

// The shortest text that reads back (strtod) as exactly `value`: "0.1" (not
// "0.10000000000000001"), "3", "1e+300", "-2.5e-07", "nan", "inf", "-inf". Plain notation for
// magnitudes from 1e-4 to below 1e16, scientific otherwise (the rule of Python's repr), with the
// fewest significant digits that round-trip (std::to_chars).
std::string FormatDouble(double value);

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_FORMAT_H_
