// The round chooser of a safe strategy (optimizer/safe_chooser.cc): the SafeRound it hands to
// Strategy::ChooseSafe (the told observations' models, the ask's posterior for the widths, the
// seeds still vouched for under the call's context), and how the strategy's unit-cube choice
// becomes an action (a seed exactly as declared, a finite set's candidate itself).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy_params.h"
#include "model/model_keeper.h"
#include "optimizer/round_chooser.h"
#include "tests/optimizer/chooser_test_util.h"

namespace gpbandit {
namespace {

using testing::ChooserBench;

// A box whose unit cube differs from its units: unit u is (0.1 + 0.6 u0, -2 + 4 u1).
Domain ChooserBox() { return Domain::Box(Eigen::Vector2d(0.1, -2.0), Eigen::Vector2d(0.7, 2.0)); }

// Two seeds, one per column, in original units, and their unit-cube actions by hand.
Eigen::MatrixXd Seeds() {
  Eigen::MatrixXd s(2, 2);
  s << 0.3, 0.6,  //
      0.5, -1.0;
  return s;
}
Eigen::MatrixXd UnitSeeds() {
  Eigen::MatrixXd u(2, 2);
  u << (0.3 - 0.1) / 0.6, (0.6 - 0.1) / 0.6,  //
      (0.5 + 2.0) / 4.0, (-1.0 + 2.0) / 4.0;
  return u;
}

Eigen::VectorXd Choose(const ChooserBench& b, AskCall* call) {
  double value = std::nan("");
  Rng rng(1);
  return MakeSafeChooser(Seeds(), UnitSeeds())->Choose(b.Inputs(), 0, rng, call, &value);
}

TEST(SafeChooser, ASeedIsHandedOutExactlyAsDeclared) {
  ChooserBench b(ChooserBox());
  for (int s = 0; s < 2; ++s) {
    b.strategy.safe_choice = UnitSeeds().col(s);
    AskCall call = b.Call(1);
    EXPECT_EQ(Choose(b, &call), Eigen::VectorXd(Seeds().col(s))) << "seed " << s;
  }
}

TEST(SafeChooser, AnyOtherChoiceIsMappedFromTheUnitCube) {
  ChooserBench b(ChooserBox());
  b.strategy.safe_choice = Eigen::Vector2d(0.5, 0.25);
  AskCall call = b.Call(1);
  const Eigen::VectorXd x = Choose(b, &call);
  EXPECT_NEAR(x(0), 0.4, 1e-12);   // 0.1 + 0.6 * 0.5
  EXPECT_NEAR(x(1), -1.0, 1e-12);  // -2 + 4 * 0.25
  EXPECT_TRUE(call.chosen_candidate.empty());
}

TEST(SafeChooser, TheSafeRoundCarriesTheToldModelTheAsksPosteriorAndTheBox) {
  ChooserBench b(ChooserBox());
  b.strategy.safe_choice = Eigen::Vector2d(0.5, 0.5);
  b.posterior.Hallucinate(Eigen::Vector2d(0.5, 0.5), -1);  // a pending point
  AskCall call = b.Call(1);
  Choose(b, &call);
  const SafeRound& r = b.strategy.last_safe_round;
  EXPECT_EQ(r.reward, &b.replica->model->gp());
  EXPECT_EQ(r.reward_for_widths, &b.posterior.gp());
  EXPECT_NE(r.reward_for_widths, r.reward);
  EXPECT_EQ(r.reward_unit, 1.0);
  EXPECT_EQ(r.reward_sign, 1.0);
  EXPECT_TRUE(r.constraints.empty());
  EXPECT_TRUE(r.safety.empty());
  EXPECT_EQ(r.reward_prior_stddev, 0.0);  // without safety models: the output scale's unit
  EXPECT_EQ(r.lower, b.round.unit_lower);
  EXPECT_EQ(r.upper, b.round.unit_upper);
  EXPECT_EQ(r.action_dim, 2);
  EXPECT_EQ(r.candidates.size(), 0);
  EXPECT_EQ(r.seeds, UnitSeeds());
}

TEST(SafeChooser, AMinimizingOptimizersRewardSignIsNegative) {
  OptimizerOptions options = testing::CheapOptions();
  options.sense = ObjectiveSense::kMinimize;
  ChooserBench b(ChooserBox(), options);
  b.strategy.safe_choice = Eigen::Vector2d(0.5, 0.5);
  AskCall call = b.Call(1);
  Choose(b, &call);
  EXPECT_EQ(b.strategy.last_safe_round.reward_sign, -1.0);
}

TEST(SafeChooser, OnlyTheSeedsStillVouchedForAreOffered) {
  ChooserBench b(ChooserBox());
  b.strategy.safe_choice = Eigen::Vector2d(0.5, 0.5);
  for (int dropped = 0; dropped < 2; ++dropped) {
    b.round.usable_seeds = {dropped != 0, dropped != 1};
    AskCall call = b.Call(1);
    Choose(b, &call);
    const Eigen::MatrixXd& seeds = b.strategy.last_safe_round.seeds;
    ASSERT_EQ(seeds.cols(), 1) << "seed " << dropped << " dropped";
    EXPECT_EQ(Eigen::VectorXd(seeds.col(0)), Eigen::VectorXd(UnitSeeds().col(1 - dropped)));
  }
}

TEST(SafeChooser, SeedsTakeTheCallsContext) {
  const Domain d =
      ChooserBox().WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 10));
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, 4.0);
  ChooserBench b(d, testing::CheapOptions(), "gp-ucb", {}, z);
  b.strategy.safe_choice = Eigen::Vector3d(0.5, 0.5, 0.4);
  AskCall call = b.Call(1);
  call.z = z;
  call.unit_z = Eigen::VectorXd::Constant(1, 0.4);  // 4 in [0, 10]
  Choose(b, &call);
  const Eigen::MatrixXd& seeds = b.strategy.last_safe_round.seeds;
  ASSERT_EQ(seeds.rows(), 3);
  ASSERT_EQ(seeds.cols(), 2);
  EXPECT_EQ(Eigen::MatrixXd(seeds.topRows(2)), UnitSeeds());
  EXPECT_EQ(Eigen::VectorXd(seeds.row(2).transpose()), Eigen::Vector2d(0.4, 0.4));
}

TEST(SafeChooser, TheSafetyModelsAndConstraintModelsAreTheKeepers) {
  const StrategyParams params = StrategyParams()
                                    .WithText("constraint_thresholds", "[0, 1]")
                                    .WithText("seeds", "[[0.3, 0.5], [0.6, -1.0]]");
  ChooserBench b(ChooserBox(), testing::CheapOptions(), "safe-opt", params);
  const ModelKeeper& keeper = *b.replica->model;
  ASSERT_EQ(keeper.constraints().num_constraints(), 2);
  ASSERT_EQ(keeper.constraints().safety_models().size(), 2u);  // no threshold on the reward
  b.strategy.safe_choice = Eigen::Vector2d(0.5, 0.5);
  AskCall call = b.Call(1);
  Choose(b, &call);
  const SafeRound& r = b.strategy.last_safe_round;
  ASSERT_EQ(r.constraints.size(), 2u);
  ASSERT_EQ(r.safety.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(r.constraints[static_cast<std::size_t>(i)], &keeper.constraints().constraint(i));
    const SignalModel& m = keeper.constraints().safety_models()[static_cast<std::size_t>(i)];
    const SafetyModel& s = r.safety[static_cast<std::size_t>(i)];
    EXPECT_EQ(s.gp, &m.gp());
    EXPECT_EQ(s.threshold, m.threshold());
    EXPECT_EQ(s.prior_stddev, m.prior_stddev());
    EXPECT_EQ(s.max_mean, m.max_observed());
  }
  EXPECT_GT(r.reward_prior_stddev, 0.0);
}

// Four candidates in the plane.
Domain SafeCandidates() {
  Eigen::MatrixXd c(2, 4);
  c << 0.0, 1.0, 2.0, 4.0,  //
      3.0, 1.0, 0.0, 2.0;
  return Domain::FiniteSet(c);
}

TEST(SafeChooser, OnAFiniteSetTheCandidateItselfIsHandedOutAndRecorded) {
  ChooserBench b(SafeCandidates());
  b.strategy.safe_choice = b.round.unit_candidates.col(2);
  AskCall call = b.Call(1);
  call.chosen_candidate = {0};
  double value = std::nan("");
  Rng rng(1);
  const Eigen::VectorXd x = MakeSafeChooser(Eigen::Vector2d(0.0, 3.0), Eigen::Vector2d(0.0, 1.0))
                                ->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_EQ(x, Eigen::Vector2d(2.0, 0.0));
  EXPECT_EQ(call.chosen_candidate, (std::vector<int>{0, 2}));
  EXPECT_EQ(b.strategy.last_safe_round.candidates, b.round.unit_candidates);
  EXPECT_TRUE(std::isnan(value));  // a safe strategy reports no acquisition value
}

TEST(SafeChooser, AChoiceThatIsNoCandidateIsABugOfTheStrategy) {
  ChooserBench b(SafeCandidates());
  b.strategy.safe_choice = Eigen::Vector2d(0.3, 0.3);
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(1);
  const auto chooser = MakeSafeChooser(Eigen::Vector2d(0.0, 3.0), Eigen::Vector2d(0.0, 1.0));
  try {
    chooser->Choose(b.Inputs(), 0, rng, &call, &value);
    ADD_FAILURE() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()), "strategy 'scripted' chose a point that is no candidate");
  }
  EXPECT_TRUE(call.chosen_candidate.empty());
}

}  // namespace
}  // namespace gpbandit
