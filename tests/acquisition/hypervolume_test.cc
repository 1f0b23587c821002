#include "gpbandit/acquisition/hypervolume.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "gpbandit/acquisition/pareto.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

TEST(HypervolumeTest, HandComputedValues) {
  // A staircase: [0,1]x[0,3] u [0,2]x[0,2] u [0,3]x[0,1] = 3 + 2 + 1.
  Eigen::MatrixXd stairs(2, 3);
  stairs << 1, 2, 3,  //
      3, 2, 1;
  EXPECT_DOUBLE_EQ(Hypervolume(stairs, Eigen::Vector2d(0, 0)), 6.0);
  // Three 2x1x1 boxes along the axes: 3 * 2 - 3 * 1 (pairwise overlaps) + 1 (common cube) = 4.
  Eigen::MatrixXd boxes = Eigen::MatrixXd::Ones(3, 3) + Eigen::MatrixXd::Identity(3, 3);
  EXPECT_DOUBLE_EQ(Hypervolume(boxes, Eigen::Vector3d(0, 0, 0)), 4.0);
  // One point in 4-D: the product of its margins over the reference.
  Eigen::MatrixXd one(4, 1);
  one << 2, 3, 4, 5;
  EXPECT_DOUBLE_EQ(Hypervolume(one, Eigen::Vector4d(1, 1, 1, 1)), 1.0 * 2 * 3 * 4);
  EXPECT_EQ(Hypervolume(Eigen::MatrixXd(3, 0), Eigen::Vector3d(0, 0, 0)), 0.0);
}

TEST(HypervolumeTest, DuplicatesAndDominatedPointsAddNothing) {
  Eigen::MatrixXd points(2, 4);
  points << 1, 2, 3, 1,  //
      3, 2, 1, 0.5;      // the last is dominated by the first
  Eigen::MatrixXd doubled(2, 7);
  doubled << points, points.leftCols(3);
  EXPECT_DOUBLE_EQ(Hypervolume(doubled, Eigen::Vector2d(0, 0)), 6.0);
}

TEST(HypervolumeTest, MatchesInclusionExclusionOnRandomSets) {
  Rng rng(testing::TestSeed(7));
  double worst = 0.0;
  for (int trial = 0; trial < 60; ++trial) {
    const int k = 2 + trial % 3, n = 1 + trial % 12;
    const Eigen::MatrixXd points = testing::UniformPoints(k, n, 0.0, 1.0, rng);
    const Eigen::VectorXd reference = Eigen::VectorXd::Zero(k);
    const double exact = HypervolumeInclusionExclusion(points, reference);
    const double sliced = Hypervolume(points, reference);
    EXPECT_NEAR(sliced, exact, 1e-12 * exact) << "k = " << k << ", n = " << n;
    worst = std::max(worst, std::abs(sliced - exact) / exact);
  }
  std::cout << "[ accuracy ] largest relative difference from inclusion-exclusion: " << worst
            << std::endl;
}

TEST(HypervolumeTest, MonteCarloAgreesWithinItsStandardError) {
  Rng rng(testing::TestSeed(11));
  const Eigen::MatrixXd points = testing::UniformPoints(4, 15, 0.2, 1.0, rng);
  const Eigen::VectorXd reference = Eigen::VectorXd::Zero(4);
  const double exact = HypervolumeInclusionExclusion(points, reference);
  const MonteCarloEstimate estimate = HypervolumeMonteCarlo(points, reference, 200000, rng);
  EXPECT_GT(estimate.standard_error, 0.0);
  EXPECT_NEAR(estimate.value, exact, 4.0 * estimate.standard_error);
}

TEST(HypervolumeImprovementTest, IsTheDifferenceOfHypervolumes) {
  Rng rng(testing::TestSeed(5));
  for (int k = 2; k <= 4; ++k) {
    const Eigen::MatrixXd points = testing::UniformPoints(k, 8, 0.0, 1.0, rng);
    const Eigen::VectorXd reference = Eigen::VectorXd::Zero(k);
    for (int c = 0; c < 10; ++c) {
      const Eigen::VectorXd y = testing::UniformPoints(k, 1, -0.1, 1.2, rng).col(0);
      Eigen::MatrixXd with_y(k, 9);
      with_y << points, y.cwiseMax(0.0);
      const double expected = HypervolumeInclusionExclusion(with_y, reference) -
                              HypervolumeInclusionExclusion(points, reference);
      EXPECT_NEAR(HypervolumeImprovement(y, points, reference), expected, 1e-12);
    }
  }
}

// Boxes are disjoint, lie above the reference, contain no dominated interior, and fill the
// non-dominated part of any bounding box: vol(box [r, U]) - HV = sum of clipped box volumes.
void ExpectExactDecomposition(const Eigen::MatrixXd& points, const Eigen::VectorXd& reference) {
  const BoxDecomposition boxes = NonDominatedBoxes(points, reference);
  const int k = static_cast<int>(points.rows());
  const Eigen::VectorXd bound = Eigen::VectorXd::Constant(k, 2.0);
  double covered = 0.0;
  for (int b = 0; b < boxes.size(); ++b) {
    const Eigen::VectorXd lower = boxes.lower.col(b);
    const Eigen::VectorXd upper = boxes.upper.col(b).cwiseMin(bound);
    ASSERT_TRUE((lower.array() >= reference.array()).all());
    ASSERT_TRUE((upper.array() > lower.array()).all()) << "degenerate box " << b;
    covered += (upper - lower).prod();
    // The box's lower corner is not dominated strictly inside: nudge it inward.
    const Eigen::VectorXd inside = lower.array() + 1e-9;
    for (Eigen::Index j = 0; j < points.cols(); ++j)
      EXPECT_FALSE((points.col(j).array() >= inside.array()).all()) << "box " << b;
    for (int other = 0; other < b; ++other) {
      const Eigen::ArrayXd overlap =
          (upper.array().min(boxes.upper.col(other).cwiseMin(bound).array()) -
           lower.array().max(boxes.lower.col(other).array()))
              .max(0.0);
      EXPECT_EQ(overlap.prod(), 0.0) << "boxes " << b << " and " << other;
    }
  }
  const double total = (bound - reference).prod();
  EXPECT_NEAR(covered, total - HypervolumeInclusionExclusion(points, reference), 1e-12 * total);
}

TEST(NonDominatedBoxesTest, ExactDecompositionOnRandomSets) {
  Rng rng(testing::TestSeed(3));
  for (int trial = 0; trial < 30; ++trial) {
    const int k = 1 + trial % 3, n = trial % 10;
    Eigen::MatrixXd points = testing::UniformPoints(k, n, 0.0, 1.0, rng);
    if (trial % 2 == 0) points = (points * 5).array().round() / 5;  // ties and duplicates
    ExpectExactDecomposition(points, Eigen::VectorXd::Zero(k));
  }
}

TEST(NonDominatedBoxesTest, TwoDimensionalStaircaseHasOneBoxPerStep) {
  Eigen::MatrixXd stairs(2, 3);
  stairs << 1, 2, 3,  //
      3, 2, 1;
  EXPECT_EQ(NonDominatedBoxes(stairs, Eigen::Vector2d(0, 0)).size(), 4);
}

TEST(NonDominatedBoxesTest, ThreeDimensionalBoxCountIsQuadraticAtMost) {
  Rng rng(testing::TestSeed(9));
  // Points on the sphere's positive orthant: all non-dominated.
  Eigen::MatrixXd points = testing::UniformPoints(3, 100, 0.0, 1.0, rng);
  for (Eigen::Index j = 0; j < points.cols(); ++j) points.col(j).normalize();
  const BoxDecomposition boxes = NonDominatedBoxes(points, Eigen::Vector3d::Zero());
  std::cout << "[ boxes    ] 100 non-dominated points in 3-D: " << boxes.size() << " boxes"
            << std::endl;
  EXPECT_LE(boxes.size(), 101 * 101);
}

TEST(HypervolumeTest, RefusesBadInput) {
  Eigen::MatrixXd points(2, 2);
  points << 1, 2,  //
      2, 1;
  ExpectInvalid([&] { Hypervolume(points, Eigen::Vector3d(0, 0, 0)); }, "reference has 3 entries");
  ExpectInvalid([&] { Hypervolume(points, Eigen::Vector2d(0, 1.5)); },
                "reference(1) = 1.5 is not dominated by points(1, 1) = 1");
  ExpectInvalid([&] { Hypervolume(points, Eigen::Vector2d(NAN, 0)); }, "reference(0, 0) = nan");
  points(0, 1) = NAN;
  ExpectInvalid([&] { NonDominatedBoxes(points, Eigen::Vector2d(0, 0)); }, "points(0, 1) = nan");
  ExpectInvalid([&] { NonDominatedBoxes(Eigen::MatrixXd::Ones(4, 2), Eigen::Vector4d::Zero()); },
                "4 objectives; at most 3");
  ExpectInvalid(
      [&] { HypervolumeInclusionExclusion(Eigen::MatrixXd::Ones(2, 21), Eigen::Vector2d::Zero()); },
      "21 columns; at most 20");
  Rng rng(1);
  ExpectInvalid(
      [&] { HypervolumeMonteCarlo(Eigen::MatrixXd::Ones(2, 1), Eigen::Vector2d::Zero(), 0, rng); },
      "samples = 0");
}

TEST(PointsDominatingReferenceTest, KeepsStrictlyDominatingColumns) {
  Eigen::MatrixXd points(2, 4);
  points << 1, 0, 2, -1,  //
      1, 3, 0.5, 5;
  const Eigen::MatrixXd kept = PointsDominatingReference(points, Eigen::Vector2d(0, 0.5));
  ASSERT_EQ(kept.cols(), 1);
  EXPECT_EQ(kept.col(0), points.col(0));
}

}  // namespace
}  // namespace gpbandit
