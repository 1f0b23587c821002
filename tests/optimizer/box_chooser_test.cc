// The round chooser of a box (optimizer/box_chooser.cc): the strategy's acquisition climbed over
// the action box or the local model's trust regions, a repeat of a handed-out point replaced by
// a uniform point of the box; and the helpers it shares with the mixed chooser
// (RepeatsAHandedOutPoint, FallbackUniforms, MaximizeOverSearchRegions).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "optimizer/round_chooser.h"
#include "tests/optimizer/chooser_test_util.h"

namespace gpbandit {
namespace {

using testing::Bowl;
using testing::ChooserBench;
using testing::FunctionAcquisition;
using testing::Linear;

// A box whose unit cube differs from its original units.
Domain Plate() { return Domain::Box(Eigen::Vector2d(-1.0, 10.0), Eigen::Vector2d(3.0, 20.0)); }

// The action of unit-cube point u of Plate(), by hand.
Eigen::Vector2d PlateAction(const Eigen::Vector2d& u) {
  return Eigen::Vector2d(-1.0 + 4.0 * u(0), 10.0 + 10.0 * u(1));
}

TEST(BoxChooser, ClimbsTheAcquisitionToItsMaximizerOnThePosteriorsGp) {
  ChooserBench b(Plate());
  b.strategy.acquisition = Bowl(Eigen::Vector2d(0.25, 0.75));
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(7);
  const Eigen::VectorXd x = MakeBoxChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  ASSERT_EQ(x.size(), 2);
  EXPECT_NEAR(x(0), 0.0, 1e-3);   // -1 + 4 * 0.25
  EXPECT_NEAR(x(1), 17.5, 1e-3);  // 10 + 10 * 0.75
  EXPECT_LE(value, 0.0);
  EXPECT_GT(value, -1e-6);
  EXPECT_EQ(b.strategy.last_gp, &b.posterior.gp());
  EXPECT_TRUE(call.chosen_candidate.empty());
}

TEST(BoxChooser, AnIncreasingAcquisitionEndsExactlyAtTheUpperCorner) {
  ChooserBench b(Plate());
  b.strategy.acquisition = Linear(Eigen::Vector2d(1.0, 2.0));
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(1);
  const Eigen::VectorXd x = MakeBoxChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_EQ(x, Eigen::Vector2d(3.0, 20.0));
  // 1 * 1 + 2 * 1 at the unit corner, which the maximizer approaches within roundoff (the
  // domain maps a coordinate that close to a face onto the bound).
  EXPECT_NEAR(value, 3.0, 1e-9);
}

TEST(BoxChooser, ARepeatOfAnActivePendingPointIsReplacedByAUniformPointOfTheBox) {
  ChooserBench b(Plate());
  const Eigen::Vector2d w(1.0, 2.0);
  b.strategy.acquisition = Linear(w);
  b.AddPending(Eigen::Vector2d(3.0, 20.0));  // where the maximizer ends
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(1);
  const Eigen::VectorXd x = MakeBoxChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_NE(x, Eigen::Vector2d(3.0, 20.0));
  const Eigen::VectorXd s = FallbackUniforms(b.Inputs(), call, 0);
  const Eigen::Vector2d expected = PlateAction(s);
  EXPECT_NEAR(x(0), expected(0), 1e-12);
  EXPECT_NEAR(x(1), expected(1), 1e-12);
  EXPECT_NEAR(value, w.dot(s), 1e-12);  // the acquisition at the replacement, not the corner's
  EXPECT_LT(value, 3.0);
}

TEST(BoxChooser, AnExpiredPendingPointIsNoRepeat) {
  ChooserBench b(Plate());
  b.strategy.acquisition = Linear(Eigen::Vector2d(1.0, 1.0));
  b.pending.Add({Eigen::Vector2d(3.0, 20.0), Eigen::VectorXd(), 0, "w", /*lease_until=*/5.0, -1});
  b.now = 10.0;
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(1);
  EXPECT_EQ(MakeBoxChooser()->Choose(b.Inputs(), 0, rng, &call, &value),
            Eigen::Vector2d(3.0, 20.0));
}

TEST(BoxChooser, ARepeatOfAnEarlierSlotOfTheBatchIsReplaced) {
  ChooserBench b(Plate());
  b.strategy.acquisition = Linear(Eigen::Vector2d(1.0, 1.0));
  AskCall call = b.Call(2);
  const auto chooser = MakeBoxChooser();
  double value = std::nan("");
  Rng rng(3);
  call.chosen.col(0) = chooser->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_EQ(Eigen::VectorXd(call.chosen.col(0)), Eigen::Vector2d(3.0, 20.0));
  const Eigen::VectorXd second = chooser->Choose(b.Inputs(), 1, rng, &call, &value);
  EXPECT_NE(second, Eigen::VectorXd(call.chosen.col(0)));
  const Eigen::Vector2d expected = PlateAction(FallbackUniforms(b.Inputs(), call, 1));
  EXPECT_NEAR((second - expected).norm(), 0.0, 1e-12);
}

TEST(RepeatsAHandedOutPoint, SeesActivePendingPointsAndEarlierSlotsOnly) {
  ChooserBench b(Plate());
  AskCall call = b.Call(3);
  call.chosen.col(0) = Eigen::Vector2d(0.0, 11.0);
  call.chosen.col(1) = Eigen::Vector2d(1.0, 12.0);
  b.AddPending(Eigen::Vector2d(2.0, 13.0));
  b.pending.Add({Eigen::Vector2d(2.5, 14.0), Eigen::VectorXd(), 0, "w", /*lease_until=*/1.0, -1});
  b.now = 2.0;
  const ChoiceInputs in = b.Inputs();
  EXPECT_TRUE(RepeatsAHandedOutPoint(in, call, 0, Eigen::Vector2d(2.0, 13.0)));
  EXPECT_FALSE(RepeatsAHandedOutPoint(in, call, 0, Eigen::Vector2d(2.5, 14.0)));  // expired
  EXPECT_FALSE(RepeatsAHandedOutPoint(in, call, 0, Eigen::Vector2d(0.0, 11.0)));  // not before 0
  EXPECT_TRUE(RepeatsAHandedOutPoint(in, call, 1, Eigen::Vector2d(0.0, 11.0)));
  EXPECT_FALSE(RepeatsAHandedOutPoint(in, call, 1, Eigen::Vector2d(1.0, 12.0)));  // slot 1 itself
  EXPECT_TRUE(RepeatsAHandedOutPoint(in, call, 2, Eigen::Vector2d(1.0, 12.0)));
  // Exact equality: a point a hair away is no repeat.
  EXPECT_FALSE(
      RepeatsAHandedOutPoint(in, call, 2, Eigen::Vector2d(std::nextafter(1.0, 2.0), 12.0)));
}

TEST(FallbackUniforms, AreInTheUnitIntervalAndFixedBySeedRoundAndSlot) {
  ChooserBench b(Plate());
  AskCall call = b.Call(2);
  call.round = 4;
  const Eigen::VectorXd s = FallbackUniforms(b.Inputs(), call, 0);
  ASSERT_EQ(s.size(), 2);
  EXPECT_TRUE((s.array() >= 0.0).all() && (s.array() < 1.0).all());
  EXPECT_EQ(FallbackUniforms(b.Inputs(), call, 0), s);
  EXPECT_NE(FallbackUniforms(b.Inputs(), call, 1), s);
  AskCall later = call;
  later.round = 5;
  EXPECT_NE(FallbackUniforms(b.Inputs(), later, 0), s);
  ChooserBench other(Plate(), testing::CheapOptions(/*seed=*/2));
  EXPECT_NE(FallbackUniforms(other.Inputs(), call, 0), s);
}

TEST(MaximizeOverSearchRegions, WithoutRegionsClimbsTheWholeBox) {
  ModelRound m;
  m.unit_lower = Eigen::Vector2d(0.0, 0.0);
  m.unit_upper = Eigen::Vector2d(1.0, 1.0);
  m.observed_starts.resize(2, 0);
  m.box_options = internal::MaximizerOptions(testing::CheapOptions());
  const FunctionAcquisition bowl(Bowl(Eigen::Vector2d(0.6, 0.2)));
  Rng rng(5);
  const BoxMaximizerResult result = MaximizeOverSearchRegions(bowl, m, rng);
  EXPECT_NEAR(result.x(0), 0.6, 1e-3);
  EXPECT_NEAR(result.x(1), 0.2, 1e-3);
}

// Two trust regions: the left half and the right half of the unit square.
ModelRound TwoRegions() {
  ModelRound m;
  m.unit_lower = Eigen::Vector2d(0.0, 0.0);
  m.unit_upper = Eigen::Vector2d(1.0, 1.0);
  m.observed_starts.resize(2, 0);
  m.box_options = internal::MaximizerOptions(testing::CheapOptions());
  m.region_lower.resize(2, 2);
  m.region_upper.resize(2, 2);
  m.region_starts.resize(2, 2);
  m.region_lower << 0.0, 0.5, 0.0, 0.0;
  m.region_upper << 0.5, 1.0, 1.0, 1.0;
  m.region_starts << 0.25, 0.75, 0.5, 0.5;
  return m;
}

TEST(MaximizeOverSearchRegions, TakesTheBestRegionAndStaysInsideIt) {
  const ModelRound m = TwoRegions();
  Rng rng(5);
  // A peak at (0.8, 0.3), in the right region: the right region wins.
  const BoxMaximizerResult right =
      MaximizeOverSearchRegions(FunctionAcquisition(Bowl(Eigen::Vector2d(0.8, 0.3))), m, rng);
  EXPECT_NEAR(right.x(0), 0.8, 1e-3);
  EXPECT_NEAR(right.x(1), 0.3, 1e-3);
  // A peak at (0.1, 0.9), in the left region: the left region wins.
  const BoxMaximizerResult left =
      MaximizeOverSearchRegions(FunctionAcquisition(Bowl(Eigen::Vector2d(0.1, 0.9))), m, rng);
  EXPECT_NEAR(left.x(0), 0.1, 1e-3);
  EXPECT_NEAR(left.x(1), 0.9, 1e-3);
}

TEST(MaximizeOverSearchRegions, ATieGoesToTheFirstRegion) {
  const ModelRound m = TwoRegions();
  // A flat acquisition: both regions' maxima are 0.25 exactly.
  const testing::AcquisitionFunction flat = [](const Eigen::VectorXd&, Eigen::VectorXd* g) {
    if (g != nullptr) *g = Eigen::Vector2d::Zero();
    return 0.25;
  };
  Rng rng(5);
  const BoxMaximizerResult result = MaximizeOverSearchRegions(FunctionAcquisition(flat), m, rng);
  EXPECT_EQ(result.value, 0.25);
  EXPECT_LT(result.x(0), 0.5);  // in the left region, the first
}

TEST(MaximizeOverSearchRegions, ARegionWithAValueBeatsOneWithout) {
  ModelRound m = TwoRegions();
  // NaN on the whole left region: the right region's finite maximum wins though it comes second.
  const testing::AcquisitionFunction f = [](const Eigen::VectorXd& x, Eigen::VectorXd* g) {
    if (g != nullptr) *g = Eigen::Vector2d(1.0, 0.0);
    return x(0) <= 0.5 ? std::numeric_limits<double>::quiet_NaN() : x(0);
  };
  Rng rng(5);
  const BoxMaximizerResult result = MaximizeOverSearchRegions(FunctionAcquisition(f), m, rng);
  EXPECT_FALSE(std::isnan(result.value));
  EXPECT_DOUBLE_EQ(result.x(0), 1.0);
}

}  // namespace
}  // namespace gpbandit
