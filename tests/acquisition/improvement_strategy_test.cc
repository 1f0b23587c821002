#include "gpbandit/acquisition/improvement_strategy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "gpbandit/acquisition/strategy_params.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::MakeRound;

using testing::kInf;

// The smallest improvement strategy: the score is mean - (incumbent + margin), so a test reads
// the incumbent and margin back through Score as the subclasses (EI, PI) do.
class Excess : public ImprovementStrategy {
 public:
  explicit Excess(const ImprovementOptions& options = ImprovementOptions())
      : ImprovementStrategy(options) {}
  std::string name() const override { return "excess"; }
  double Score(double mean, double, double*, double*) const override {
    return mean - (incumbent() + margin());
  }
  std::unique_ptr<Strategy> Clone() const override { return std::make_unique<Excess>(*this); }
  static ImprovementOptions Read(const StrategyParams& params) {
    return ReadOptions(params, "excess");
  }
  static ImprovementOptions Read(const StrategyParams& params, const ImprovementOptions& defaults) {
    return ReadOptions(params, "excess", defaults);
  }
};

std::string InvalidMessage(const ImprovementOptions& options) {
  try {
    Excess strategy(options);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(IncumbentRuleTest, NamesRoundTripAndUnknownNamesAreRefused) {
  EXPECT_EQ(IncumbentRuleName(IncumbentRule::kPosteriorMean), "posterior-mean");
  EXPECT_EQ(IncumbentRuleName(IncumbentRule::kBestObserved), "best-observed");
  for (IncumbentRule rule : {IncumbentRule::kPosteriorMean, IncumbentRule::kBestObserved})
    EXPECT_EQ(ParseIncumbentRule(IncumbentRuleName(rule)), rule);
  try {
    ParseIncumbentRule("best_observed");
    FAIL() << "an unknown rule was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("incumbent rule = 'best_observed'"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(ParseIncumbentRule(""), std::invalid_argument);
}

TEST(ImprovementStrategyTest, BeforeAnyRoundTheMarginIsXiAndTheIncumbentMinusInfinity) {
  ImprovementOptions options;
  options.xi = 0.25;
  options.relative_xi = 3.0;  // not applied before a round: no signal variance is known yet
  Excess strategy(options);
  EXPECT_EQ(strategy.margin(), 0.25);
  EXPECT_EQ(strategy.figure(), 0.25);
  EXPECT_EQ(strategy.figure_name(), "xi");
  EXPECT_EQ(strategy.incumbent(), -kInf);
  EXPECT_FALSE(strategy.reads_sequential_variances());
}

TEST(ImprovementStrategyTest, MarginAddsRelativeTermsInPriorStandardDeviations) {
  ImprovementOptions options;
  options.xi = 0.5;
  options.relative_xi = 0.25;
  options.relative_xi_per_dim = 0.125;
  Excess strategy(options);
  RoundState state = MakeRound(3, 0, 1.0);
  state.action_dim = 4;
  state.signal_variance = 9.0;  // prior standard deviation 3
  strategy.BeginRound(state);
  // By hand: 0.5 + (0.25 + 0.125 * 4) * 3 = 0.5 + 0.75 * 3 = 2.75.
  EXPECT_DOUBLE_EQ(strategy.margin(), 2.75);
  EXPECT_DOUBLE_EQ(strategy.figure(), 2.75);
  EXPECT_DOUBLE_EQ(strategy.Score(10.0, 1.0, nullptr, nullptr), 10.0 - 1.0 - 2.75);
  // A later round with another dimension and scale recomputes it from the options alone.
  state.action_dim = 1;
  state.signal_variance = 0.25;
  strategy.BeginRound(state);
  EXPECT_DOUBLE_EQ(strategy.margin(), 0.5 + 0.375 * 0.5);
}

TEST(ImprovementStrategyTest, IncumbentFollowsTheRule) {
  RoundState state = MakeRound(2, 0, 1.5);
  state.best_observed = 2.0;
  Excess by_mean;
  by_mean.BeginRound(state);
  EXPECT_EQ(by_mean.incumbent(), 1.5);
  ImprovementOptions options;
  options.incumbent_rule = IncumbentRule::kBestObserved;
  Excess by_best(options);
  by_best.BeginRound(state);
  EXPECT_EQ(by_best.incumbent(), 2.0);
  // No observations yet: -infinity under either rule.
  RoundState empty = MakeRound(1, 0, -kInf);
  by_best.BeginRound(empty);
  EXPECT_EQ(by_best.incumbent(), -kInf);
}

TEST(ImprovementStrategyTest, InvalidRoundStateIsRefusedAndChangesNothing) {
  Excess strategy;
  RoundState state = MakeRound(1, 0, 0.75);
  strategy.BeginRound(state);
  RoundState bad = MakeRound(1, 0, 5.0);
  bad.signal_variance = 0.0;
  try {
    strategy.BeginRound(bad);
    FAIL() << "signal_variance 0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("RoundState.signal_variance = 0"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(strategy.incumbent(), 0.75);
}

TEST(ImprovementStrategyTest, InvalidMarginsAreRefusedByName) {
  ImprovementOptions negative;
  negative.xi = -1.0;
  EXPECT_NE(InvalidMessage(negative).find("xi = -1"), std::string::npos)
      << InvalidMessage(negative);
  ImprovementOptions nan;
  nan.relative_xi = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(InvalidMessage(nan).find("relative_xi = nan"), std::string::npos)
      << InvalidMessage(nan);
  ImprovementOptions infinite;
  infinite.relative_xi_per_dim = kInf;
  EXPECT_NE(InvalidMessage(infinite).find("relative_xi_per_dim = inf"), std::string::npos)
      << InvalidMessage(infinite);
  ImprovementOptions zero;  // the edge: 0 is allowed
  std::string error;
  EXPECT_TRUE(zero.IsValid(&error)) << error;
  EXPECT_TRUE(zero.IsValid(nullptr));
  EXPECT_FALSE(negative.IsValid(nullptr));
}

TEST(ImprovementStrategyTest, OptionsJsonRoundTripsThroughReadOptions) {
  ImprovementOptions options;
  options.xi = 0.1 + 0.2;  // 0.30000000000000004: every bit must survive
  options.relative_xi = 1.0 / 3.0;
  options.relative_xi_per_dim = 2.0;
  options.incumbent_rule = IncumbentRule::kBestObserved;
  const std::string json = Excess(options).OptionsJson();
  EXPECT_NE(json.find("\"incumbent_rule\":\"best-observed\""), std::string::npos) << json;
  const ImprovementOptions back = Excess::Read(StrategyParams(json));
  EXPECT_EQ(back.xi, 0.1 + 0.2);
  EXPECT_EQ(back.relative_xi, 1.0 / 3.0);
  EXPECT_EQ(back.relative_xi_per_dim, 2.0);
  EXPECT_EQ(back.incumbent_rule, IncumbentRule::kBestObserved);
}

TEST(ImprovementStrategyTest, ReadOptionsKeepsDefaultsAndRefusesBadKeys) {
  ImprovementOptions defaults;
  defaults.xi = 0.01;
  defaults.incumbent_rule = IncumbentRule::kBestObserved;
  const ImprovementOptions read = Excess::Read(StrategyParams(R"({"relative_xi": 0.5})"), defaults);
  EXPECT_EQ(read.xi, 0.01);
  EXPECT_EQ(read.relative_xi, 0.5);
  EXPECT_EQ(read.incumbent_rule, IncumbentRule::kBestObserved);
  const auto message = [](const std::string& json) -> std::string {
    try {
      Excess::Read(StrategyParams(json));
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message(R"({"kappa": 1})").find("kappa"), std::string::npos);
  EXPECT_NE(message(R"({"xi": -0.5})").find("excess options: xi = -0.5"), std::string::npos)
      << message(R"({"xi": -0.5})");
  EXPECT_NE(message(R"({"incumbent_rule": "median"})").find("median"), std::string::npos);
  EXPECT_NE(message(R"({"xi": "small"})").find("xi"), std::string::npos);
}

}  // namespace
}  // namespace gpbandit
