#include "model/outcome_transforms.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gpbandit {
namespace {

TEST(OutcomeTransformsTest, SenseNegatesCostsAndKeepsStddevs) {
  const SenseTransform maximize(ObjectiveSense::kMaximize), minimize(ObjectiveSense::kMinimize);
  EXPECT_EQ(maximize.sign(), 1.0);
  EXPECT_EQ(minimize.sign(), -1.0);
  EXPECT_EQ(maximize.Forward(2.5), 2.5);
  EXPECT_EQ(minimize.Forward(2.5), -2.5);
  EXPECT_EQ(minimize.UntransformMean(-2.5), 2.5);
  EXPECT_EQ(minimize.UntransformStddev(0.75), 0.75);
}

TEST(OutcomeTransformsTest, ExponentIsZeroInsideTheBand) {
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(1.0), 0);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(1e77), 0);  // 2^255.8
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::ldexp(1.0, 255)), 0);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::ldexp(1.0, -256)), 0);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(0.0), 0);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(-5.0), 0);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::numeric_limits<double>::quiet_NaN()), 0);
}

TEST(OutcomeTransformsTest, ExponentOutsideTheBandIsAMultipleOf128TowardZero) {
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::ldexp(1.0, 256)), 256);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::ldexp(1.5, 300)), 256);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::numeric_limits<double>::max()), 896);  // 2^1023
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::ldexp(1.0, -257)), -256);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::ldexp(1.0, -384)), -384);
  EXPECT_EQ(PowerOfTwoUnit::ExponentFor(std::numeric_limits<double>::denorm_min()), -1024);
  // The scaled largest value lies within 2^128 of 1.
  for (int e : {256, 300, 511, 700, 1023, -257, -500, -1000, -1074}) {
    const double largest = std::ldexp(1.0, e);
    const int exponent = PowerOfTwoUnit::ExponentFor(largest);
    const int scaled = std::ilogb(std::ldexp(largest, -exponent));
    EXPECT_LT(std::abs(scaled), 128) << e;
  }
}

TEST(OutcomeTransformsTest, UnitRoundTripsBitForBit) {
  PowerOfTwoUnit unit;
  unit.set_exponent(-384);
  EXPECT_EQ(unit.exponent(), -384);
  const double value = 0.1 * std::ldexp(1.0, -400);
  EXPECT_EQ(unit.Forward(value), 0.1 * std::ldexp(1.0, -16));
  EXPECT_EQ(unit.UntransformMean(unit.Forward(value)), value);
  EXPECT_EQ(unit.UntransformStddev(std::ldexp(3.0, 0)), std::ldexp(3.0, -384));
}

TEST(OutcomeTransformsTest, ChainAppliesTheSenseThenTheUnit) {
  OutcomeChain chain(ObjectiveSense::kMinimize);
  chain.unit().set_exponent(256);
  const double cost = 3.0 * std::ldexp(1.0, 300);
  const double reward = chain.ToReward(cost);
  EXPECT_EQ(reward, -cost);
  EXPECT_EQ(chain.FromReward(reward), cost);
  EXPECT_EQ(chain.RewardToModel(reward), -3.0 * std::ldexp(1.0, 44));
  EXPECT_EQ(chain.MeanToTold(-3.0 * std::ldexp(1.0, 44)), cost);
  EXPECT_EQ(chain.StddevToTold(2.0), std::ldexp(2.0, 256));  // a stddev keeps its sign
  EXPECT_EQ(chain.sense().sign(), -1.0);
  const OutcomeChain& read = chain;
  EXPECT_EQ(read.unit().exponent(), 256);
}

}  // namespace
}  // namespace gpbandit
