// FormatDouble (gp/format.h): the shortest text that reads back exactly.
#include "gpbandit/numerics/format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace {

TEST(FormatDoubleTest, ShortestFormOfCommonValues) {
  EXPECT_EQ(FormatDouble(0.2), "0.2");
  EXPECT_EQ(FormatDouble(0.1 + 0.2), "0.30000000000000004");  // not 0.3: they differ
  EXPECT_EQ(FormatDouble(3.0), "3");
  EXPECT_EQ(FormatDouble(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(FormatDouble(1e300), "1e+300");
  EXPECT_EQ(FormatDouble(0.0), "0");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::denorm_min()), "5e-324");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::min()), "-2.2250738585072014e-308");
  EXPECT_EQ(FormatDouble(100.0), "100");
  EXPECT_EQ(FormatDouble(1e-4), "0.0001");
  EXPECT_EQ(FormatDouble(1e-5), "1e-05");
  EXPECT_EQ(FormatDouble(1234567890123456.0), "1234567890123456");
  EXPECT_EQ(FormatDouble(1e16), "1e+16");
  EXPECT_EQ(FormatDouble(481645273258398908416.0), "4.816452732583989e+20");
}

// Random bit patterns (every exponent, sign and mantissa): each reads back bit for bit, and
// no shorter precision (%.Ng, N below the text's digits) would have.
TEST(FormatDoubleTest, RandomDoublesReadBackExactly) {
  Rng rng(20240501);
  std::uniform_int_distribution<std::uint64_t> bits;
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t b = bits(rng);
    double value;
    std::memcpy(&value, &b, sizeof value);
    if (!std::isfinite(value)) continue;
    const std::string text = FormatDouble(value);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
    // The significant digits of the text: no sign, point, exponent or leading zeros (and no
    // trailing zeros of an integer written without a point).
    std::string mantissa;
    for (char c : text.substr(0, text.find('e')))
      if (c >= '0' && c <= '9') mantissa += c;
    mantissa.erase(0, mantissa.find_first_not_of('0'));
    if (text.find_first_of(".e") == std::string::npos)
      mantissa.erase(mantissa.find_last_not_of('0') + 1);
    const int digits = static_cast<int>(mantissa.size());
    if (digits > 1) {
      char shorter[400];  // %g of up to 17 digits fits in 40; the compiler cannot tell
      std::snprintf(shorter, sizeof shorter, "%.*g", digits - 1, value);
      EXPECT_NE(std::strtod(shorter, nullptr), value) << text << " vs " << shorter;
    }
  }
}

}  // namespace
}  // namespace gpbandit
