// The initial design (optimizer/initial_design.h): its size, a Latin hypercube over a box, legal
// points of a parameter space, a subset of a finite set, and how observations told and points
// in progress count towards it.
#include "optimizer/initial_design.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "gpbandit/space/parameter_spec.h"

namespace gpbandit {
namespace {

Domain Box2() { return Domain::Box(Eigen::Vector2d(0.0, -1.0), Eigen::Vector2d(10.0, 1.0)); }

Domain FiveCandidates() {
  Eigen::MatrixXd c(1, 5);
  c << 3.0, 1.0, 4.0, 1.5, 9.0;
  return Domain::FiniteSet(c);
}

AskCall Call(const Domain& d, int q) {
  AskCall call;
  call.chosen = Eigen::MatrixXd::Zero(d.action_dim(), q);
  call.design_index.assign(static_cast<std::size_t>(q), -1);
  return call;
}

TEST(InitialDesign, SizeDefaultsToOneMoreThanTheDimensionAndAtLeastTwo) {
  EXPECT_EQ(InitialDesign::Size(Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1)), -1,
                                false),
            2);
  EXPECT_EQ(InitialDesign::Size(Domain::Box(Eigen::VectorXd::Zero(3), Eigen::VectorXd::Ones(3)), -1,
                                false),
            4);
  EXPECT_EQ(InitialDesign::Size(Box2(), 7, false), 7);
  EXPECT_EQ(InitialDesign::Size(Box2(), 0, false), 0);
}

TEST(InitialDesign, SizeIsAtMostTheCandidatesAndNoneForASafeStrategy) {
  EXPECT_EQ(InitialDesign::Size(FiveCandidates(), 10, false), 5);
  EXPECT_EQ(InitialDesign::Size(FiveCandidates(), -1, false), 2);
  EXPECT_EQ(InitialDesign::Size(Box2(), 5, true), 0);
  EXPECT_EQ(InitialDesign::Size(Box2(), -1, true), 0);
}

TEST(InitialDesign, ABoxDesignIsALatinHypercube) {
  const Domain d = Box2();
  const InitialDesign design(d, 4, d.UnitActionUpper(), 11);
  AskCall call = Call(d, 4);
  design.Take(d, 0, 0, &call);
  EXPECT_EQ(call.num_model, 0);
  EXPECT_EQ(call.design_next, 4);
  EXPECT_EQ(call.design_index, (std::vector<long>{0, 1, 2, 3}));
  // Each coordinate has one point in each quarter of its range.
  for (int dim = 0; dim < 2; ++dim) {
    std::set<int> strata;
    for (int j = 0; j < 4; ++j) {
      const double unit =
          (call.chosen(dim, j) - d.lower()(dim)) / (d.upper()(dim) - d.lower()(dim));
      ASSERT_GE(unit, 0.0);
      ASSERT_LE(unit, 1.0);
      strata.insert(std::min(3, static_cast<int>(std::floor(unit * 4.0))));
    }
    EXPECT_EQ(strata.size(), 4u) << "coordinate " << dim;
  }
}

TEST(InitialDesign, TheSeedFixesThePoints) {
  const Domain d = Box2();
  AskCall a = Call(d, 3), b = Call(d, 3), c = Call(d, 3);
  InitialDesign(d, 3, d.UnitActionUpper(), 11).Take(d, 0, 0, &a);
  InitialDesign(d, 3, d.UnitActionUpper(), 11).Take(d, 0, 0, &b);
  InitialDesign(d, 3, d.UnitActionUpper(), 12).Take(d, 0, 0, &c);
  EXPECT_EQ(a.chosen, b.chosen);
  EXPECT_NE(a.chosen, c.chosen);
}

TEST(InitialDesign, AFixedCoordinateStaysAtItsValue) {
  const Domain d = Domain::Box(Eigen::Vector2d(0.0, 2.5), Eigen::Vector2d(1.0, 2.5));
  AskCall call = Call(d, 3);
  InitialDesign(d, 3, d.UnitActionUpper(), 1).Take(d, 0, 0, &call);
  for (int j = 0; j < 3; ++j) EXPECT_EQ(call.chosen(1, j), 2.5);
}

TEST(InitialDesign, ToldAndPendingPointsCountTowardsTheSize) {
  const Domain d = Box2();
  const InitialDesign design(d, 4, d.UnitActionUpper(), 11);
  AskCall call = Call(d, 3);
  design.Take(d, /*told=*/1, /*active_pending=*/1, &call);  // 2 in flight: 2 design points left
  EXPECT_EQ(call.design_index, (std::vector<long>{0, 1, -1}));
  EXPECT_EQ(call.num_model, 1);
  EXPECT_EQ(call.design_next, 2);
  AskCall full = Call(d, 2);
  design.Take(d, 4, 0, &full);
  EXPECT_EQ(full.num_model, 2);
  EXPECT_EQ(full.design_next, 0);
}

TEST(InitialDesign, HandedOutPointsAreNotHandedOutAgain) {
  const Domain d = Box2();
  InitialDesign design(d, 4, d.UnitActionUpper(), 11);
  AskCall first = Call(d, 4);
  design.Take(d, 0, 0, &first);
  design.set_handed_out(3);
  EXPECT_EQ(design.handed_out(), 3);
  AskCall call = Call(d, 2);
  design.Take(d, 0, 0, &call);  // the fourth point, then the model
  EXPECT_EQ(call.design_index, (std::vector<long>{3, -1}));
  EXPECT_EQ(Eigen::VectorXd(call.chosen.col(0)), Eigen::VectorXd(first.chosen.col(3)));
  EXPECT_EQ(call.num_model, 1);
  EXPECT_EQ(call.design_next, 4);
}

TEST(InitialDesign, ASizeOfZeroLeavesEverySlotToTheModel) {
  const Domain d = Box2();
  AskCall call = Call(d, 2);
  InitialDesign(d, 0, d.UnitActionUpper(), 1).Take(d, 0, 0, &call);
  EXPECT_EQ(call.num_model, 2);
  EXPECT_EQ(call.design_index, (std::vector<long>{-1, -1}));
}

TEST(InitialDesign, AFiniteSetDesignIsDistinctCandidates) {
  const Domain d = FiveCandidates();
  AskCall call = Call(d, 4);
  InitialDesign(d, 4, d.UnitActionUpper(), 5).Take(d, 0, 0, &call);
  ASSERT_EQ(call.chosen_candidate.size(), 4u);
  EXPECT_EQ(std::set<int>(call.chosen_candidate.begin(), call.chosen_candidate.end()).size(), 4u);
  for (int j = 0; j < 4; ++j) {
    const int c = call.chosen_candidate[static_cast<std::size_t>(j)];
    ASSERT_GE(c, 0);
    ASSERT_LT(c, 5);
    EXPECT_EQ(call.chosen(0, j), d.candidates()(0, c));
  }
}

TEST(InitialDesign, ASpaceDesignIsLegalPoints) {
  const Domain d =
      Domain::Space(ParseParameterSpecs({"n=int:1:7", "mode=cat:a,b,c", "kp=log:0.1:100"}));
  AskCall call = Call(d, 6);
  InitialDesign(d, 6, d.UnitActionUpper(), 3).Take(d, 0, 0, &call);
  EXPECT_EQ(call.num_model, 0);
  std::set<double> labels;
  for (int j = 0; j < 6; ++j) {
    EXPECT_NO_THROW(d.CheckAction(call.chosen.col(j), "design point"));
    labels.insert(call.chosen(1, j));
  }
  EXPECT_EQ(labels.size(), 3u);  // six strata over three labels: every label twice
}

}  // namespace
}  // namespace gpbandit
