// safe-opt's recommendation at a context (Optimizer::Best(context)) on a contextual domain:
// every evaluated action is a candidate at the requested context, wherever it was evaluated,
// when its lower bounds clear every threshold there; one that does not clear there is never
// recommended (the declared seed is, when nothing else clears); the rule that chose the
// evaluations plays no part in the recommendation from the same observations.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit {
namespace {

Domain LineWithPayload() {
  return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1))
      .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
}

StrategyParams BestParams(const std::string& rule) {
  return StrategyParams()
      .WithText("constraint_thresholds", "[0]")
      .WithText("seeds", "[[0.5]]")
      .WithText("rule", rule);
}

Eigen::VectorXd V(double v) { return Eigen::VectorXd::Constant(1, v); }

// The constraint is safe on x in [0.1, 0.7] at every payload; the reward grows with x.
double BestG(double x) { return 0.3 - std::abs(x - 0.4); }
double F(double x, double z) { return x - 0.1 * z; }

// Actions told at payloads 0, 0.1, 0.2 and 0.3 only, the seed among them.
const std::vector<double> kActions = {0.5, 0.3, 0.45, 0.55, 0.6, 0.5, 0.35, 0.58, 0.4, 0.62};
const std::vector<double> kPayloads = {0.0, 0.1, 0.2, 0.3};

void TellLowPayloads(Optimizer* opt) {
  for (std::size_t k = 0; k < kActions.size(); ++k) {
    const double x = kActions[k], z = kPayloads[k % kPayloads.size()];
    opt->Tell(V(x), V(z), F(x, z), V(BestG(x)));
  }
}

TEST(SafeOptContextBestTest, ActionsEvaluatedAtOtherContextsAreRecommendedWhereTheyClear) {
  Optimizer opt(LineWithPayload(), nullptr, "safe-opt", BestParams("ucb"),
                testing::CheapOptions(3));
  TellLowPayloads(&opt);
  // 0.15: a payload at which nothing was evaluated, between the evaluated ones.
  const Recommendation near = opt.Best(V(0.15));
  EXPECT_EQ(near.z, V(0.15));
  EXPECT_NE(near.x, V(0.5)) << "only the seed: the other actions were not considered at 0.15";
  bool evaluated = false;
  for (double x : kActions) evaluated = evaluated || near.x == V(x);
  EXPECT_TRUE(evaluated) << near.x(0);
  EXPECT_GT(near.x(0), 0.5);  // towards the reward, inside [0.1, 0.7]
  EXPECT_GE(BestG(near.x(0)), 0.0);
  EXPECT_GE(opt.SafetyMargin(near.x, V(0.15)), 0.0);
  EXPECT_TRUE(std::isnan(near.observed_reward));  // never observed at 0.15

  // Far from every evaluation (payload 1), no evaluated action clears the threshold: the
  // recommendation is the declared seed, never an action measured safe elsewhere.
  for (double x : kActions) {
    if (x != 0.5) {
      ASSERT_LT(opt.SafetyMargin(V(x), V(1.0)), 0.0) << x;
    }
  }
  EXPECT_EQ(opt.Best(V(1.0)).x, V(0.5));
}

// The rule chooses the evaluations; from the same observations, SafeOpt's rule and the
// goal-directed one recommend the same action at every payload.
TEST(SafeOptContextBestTest, TheRecommendationDependsOnTheObservationsNotOnTheRule) {
  Optimizer ucb(LineWithPayload(), nullptr, "safe-opt", BestParams("ucb"),
                testing::CheapOptions(3));
  Optimizer safeopt(LineWithPayload(), nullptr, "safe-opt", BestParams("safeopt"),
                    testing::CheapOptions(3));
  TellLowPayloads(&ucb);
  TellLowPayloads(&safeopt);
  for (double z : {0.0, 0.15, 0.3, 0.6, 1.0}) {
    const Recommendation a = ucb.Best(V(z)), b = safeopt.Best(V(z));
    EXPECT_EQ(a.x, b.x) << "payload " << z;
    EXPECT_EQ(a.posterior_mean, b.posterior_mean) << "payload " << z;
  }
  EXPECT_NE(safeopt.Best(V(0.15)).x, V(0.5));
}

}  // namespace
}  // namespace gpbandit
