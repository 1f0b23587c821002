#include "gpbandit/numerics/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace gpbandit {

std::string FormatDouble(double value) {
  // to_chars spells the non-finite values "nan", "-nan", "inf", "-inf"; the sign of a NaN
  // means nothing to a reader.
  if (std::isnan(value)) return "nan";
  char buffer[400];  // a fixed-notation double has at most 309 integer digits
  std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  // The shortest digits in scientific notation; plain notation for exponents -4..15, where it
  // holds no digit more than those (Python's repr follows the same rule).
  *result.ptr = '\0';
  const char* e = std::find(buffer, result.ptr, 'e');
  const int exponent = e == result.ptr ? 0 : std::atoi(e + 1);
  if (exponent >= -4 && exponent < 16)
    result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  return std::string(buffer, result.ptr);
}

}  // namespace gpbandit
