#include "gpbandit/acquisition/information_gain_bound.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace gpbandit {
namespace {

TEST(InformationGainBoundTest, BoundsMatchHandComputedValues) {
  const double l9 = std::log(9.0);
  // SE: (log T)^{d+1}; Matern: T^{d(d+1)/(2 nu + d(d+1))} log T; linear: d log T. T = 9, d = 2.
  EXPECT_NEAR(SquaredExponentialGammaBound(9.0, 2), l9 * l9 * l9, 1e-12);
  EXPECT_NEAR(MaternGammaBound(9.0, 2, 2.5), std::pow(9.0, 6.0 / 11.0) * l9, 1e-12);
  EXPECT_NEAR(MaternGammaBound(9.0, 2, 2.5), 7.284007133980526, 1e-12);
  EXPECT_NEAR(LinearGammaBound(9.0, 2), 2.0 * l9, 1e-12);
  EXPECT_EQ(SquaredExponentialGammaBound(1.0, 3), 0.0);
  EXPECT_EQ(MaternGammaBound(0.0, 3, 1.5), 0.0);
}

TEST(InformationGainBoundTest, ResolveUsesTMinusOneAndScale) {
  GammaOptions options;
  EXPECT_EQ(ResolveGamma(options, 5, 2, 1.25), 1.25);
  options.source = GammaSource::kLinearBound;
  options.scale = 3.0;
  // Round t = 10 uses gamma_{t-1} = gamma_9; d from the round (2) since options.dim = 0.
  EXPECT_NEAR(ResolveGamma(options, 10, 2, 123.0), 3.0 * 2.0 * std::log(9.0), 1e-12);
  options.dim = 4;
  EXPECT_NEAR(ResolveGamma(options, 10, 2, 123.0), 3.0 * 4.0 * std::log(9.0), 1e-12);
  EXPECT_EQ(ResolveGamma(options, 1, 2, 0.0), 0.0);
}

TEST(InformationGainBoundTest, RejectsBadInput) {
  GammaOptions options;
  EXPECT_THROW(ResolveGamma(options, 0, 1, 0.0), std::invalid_argument);
  EXPECT_THROW(ResolveGamma(options, 1, 1, -1.0), std::invalid_argument);
  EXPECT_THROW(ResolveGamma(options, 1, 1, std::nan("")), std::invalid_argument);
  EXPECT_THROW(LinearGammaBound(5.0, 0), std::invalid_argument);
  options.nu = 0.0;
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_NE(error.find("gamma.nu"), std::string::npos);
  EXPECT_EQ(ParseGammaSource("matern-bound"), GammaSource::kMaternBound);
  EXPECT_THROW(ParseGammaSource("x"), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
