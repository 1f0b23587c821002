// The shared numeric helpers of numerics/math.h: the cosine map onto an interval, its derivative
// against finite differences, and its inverse.
#include "numerics/math.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gpbandit {
namespace {

TEST(CosineMapTest, CoversTheIntervalOncePerPeriod) {
  for (double period : {1.0, 0.25, 7.0}) {
    EXPECT_DOUBLE_EQ(CosineMapToInterval(0.0, -2.0, 3.0, period), -2.0);
    EXPECT_DOUBLE_EQ(CosineMapToInterval(period, -2.0, 3.0, period), 3.0);
    EXPECT_NEAR(CosineMapToInterval(0.5 * period, -2.0, 3.0, period), 0.5, 1e-12);
    // Periodic and inside [lo, hi] everywhere.
    for (double u = -3.0 * period; u <= 3.0 * period; u += 0.173 * period) {
      const double x = CosineMapToInterval(u, -2.0, 3.0, period);
      EXPECT_GE(x, -2.0);
      EXPECT_LE(x, 3.0);
      EXPECT_NEAR(CosineMapToInterval(u + 2.0 * period, -2.0, 3.0, period), x, 1e-12);
    }
  }
  EXPECT_DOUBLE_EQ(kPi, std::acos(-1.0));
}

TEST(CosineMapTest, DerivativeMatchesFiniteDifferences) {
  const double h = 1e-6;
  for (double period : {1.0, 0.25, 7.0}) {
    for (double u = -1.3 * period; u <= 1.3 * period; u += 0.137 * period) {
      const double numeric = (CosineMapToInterval(u + h, 1.0, 4.0, period) -
                              CosineMapToInterval(u - h, 1.0, 4.0, period)) /
                             (2.0 * h);
      EXPECT_NEAR(CosineMapDerivative(u, 1.0, 4.0, period), numeric, 1e-7) << u;
    }
  }
}

TEST(CosineMapTest, InverseReturnsTheUOfAPointAndClampsOutsiders) {
  for (double period : {1.0, 3.0}) {
    for (double x = 1.0; x <= 4.0; x += 0.25) {
      const double u = CosineMapInverse(x, 1.0, 4.0, period);
      EXPECT_GE(u, 0.0);
      EXPECT_LE(u, period);
      EXPECT_NEAR(CosineMapToInterval(u, 1.0, 4.0, period), x, 1e-12);
    }
    EXPECT_DOUBLE_EQ(CosineMapInverse(-5.0, 1.0, 4.0, period), 0.0);
    EXPECT_DOUBLE_EQ(CosineMapInverse(9.0, 1.0, 4.0, period), period);
  }
}

}  // namespace
}  // namespace gpbandit
