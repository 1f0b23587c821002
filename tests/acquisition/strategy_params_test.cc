#include "gpbandit/acquisition/strategy_params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/acquisition/options_json_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

TEST(StrategyParamsTest, EmptyIsAnEmptyObject) {
  const StrategyParams p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.json(), "{}");
  EXPECT_TRUE(p.keys().empty());
  EXPECT_EQ(p, StrategyParams("{ }"));
}

TEST(StrategyParamsTest, NumbersForUserFactories) {
  const StrategyParams p(R"({"kappa": 2.5, "name": "x", "n": 3})");
  EXPECT_EQ(p.at("kappa"), 2.5);
  EXPECT_EQ(p.at("n"), 3.0);
  EXPECT_EQ(p.value("kappa", 1.0), 2.5);
  EXPECT_EQ(p.value("missing", 1.0), 1.0);
  EXPECT_TRUE(p.contains("name"));
  EXPECT_EQ(p.keys(), (std::vector<std::string>{"kappa", "n", "name"}));
  ExpectInvalid([&] { p.at("kapa"); }, "strategy parameter 'kapa' is missing");
  ExpectInvalid([&] { p.at("name"); }, "strategy parameter name = \"x\": expected a number");
  ExpectInvalid([&] { p.value("name", 0.0); }, "name = \"x\"");
}

// json() keeps every bit of a double, whatever its decimal form.
TEST(StrategyParamsTest, DoublesRoundTripExactly) {
  using namespace testing;  // NOLINT: the extreme doubles
  for (double v : {kLargest, -kLargest, kSmallestNormal, kSmallestSubnormal, kThird, kPointThree,
                   kAfterOne, -0.0, 0.0, 1e300, 123456789.0}) {
    const StrategyParams back(StrategyParams().With("v", v).json());
    EXPECT_TRUE(SameBits(back.at("v"), v)) << StrategyParams().With("v", v).json();
  }
  ExpectInvalid([] { StrategyParams().With("w", std::nan("")); }, "w = nan: must be finite");
  ExpectInvalid([] { StrategyParams().With("w", HUGE_VAL); }, "w = inf");
  EXPECT_EQ(StrategyParams().With("n", 64).json(), "{\"n\":64}");
}

TEST(StrategyParamsTest, CommandLineTextBecomesJsonOrAString) {
  const StrategyParams p = StrategyParams()
                               .WithText("a", "0.25")
                               .WithText("b", "rkhs")
                               .WithText("c", "true")
                               .WithText("d", "\"quoted\"")
                               .WithText("e", "[1,2]")
                               .WithText("f", "-3");
  EXPECT_EQ(p.json(), R"({"a":0.25,"b":"rkhs","c":true,"d":"quoted","e":"[1,2]","f":-3})");
}

TEST(StrategyParamsTest, MergeAndIntersection) {
  const StrategyParams defaults(R"({"a": 1, "b": 2})");
  const StrategyParams given(R"({"b": 3, "c": 4})");
  EXPECT_EQ(defaults.MergedWith(given), StrategyParams(R"({"a": 1, "b": 3, "c": 4})"));
  EXPECT_EQ(given.Intersection(defaults), StrategyParams(R"({"b": 3})"));
  EXPECT_NE(defaults, given);
  // Immutable: the originals are unchanged.
  EXPECT_EQ(defaults.json(), R"({"a":1,"b":2})");
}

}  // namespace
}  // namespace gpbandit
