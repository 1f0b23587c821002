#include "gpbandit/acquisition/pareto.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

using testing::kInf;

Eigen::VectorXd V(double a, double b) { return Eigen::Vector2d(a, b); }

TEST(DominatesTest, MaximizationWithStrictnessSomewhere) {
  EXPECT_TRUE(Dominates(V(2, 2), V(1, 2)));
  EXPECT_FALSE(Dominates(V(1, 2), V(2, 2)));
  EXPECT_FALSE(Dominates(V(2, 2), V(2, 2)));  // duplicates do not dominate each other
  EXPECT_FALSE(Dominates(V(2, 1), V(1, 2)));
  EXPECT_FALSE(Dominates(V(1, 2), V(2, 1)));
  ExpectInvalid([] { Dominates(V(1, 2), Eigen::Vector3d(1, 2, 3)); }, "b has 3");
}

// Columns: A(3,1) B(1,3) C(2,2) D(1,1) E(2,2) = C, F(0,0).
Eigen::MatrixXd HandSet() {
  Eigen::MatrixXd points(2, 6);
  points << 3, 1, 2, 1, 2, 0,  //
      1, 3, 2, 1, 2, 0;
  return points;
}

TEST(NonDominatedIndicesTest, KeepsAllOrFirstOfDuplicates) {
  EXPECT_EQ(NonDominatedIndices(HandSet()), (std::vector<int>{0, 1, 2, 4}));
  EXPECT_EQ(NonDominatedIndices(HandSet(), Duplicates::kKeepFirst), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(NonDominatedIndices(Eigen::MatrixXd(2, 0)).empty());
}

TEST(NonDominatedSortingTest, HandComputedFrontsAndCrowding) {
  const NonDominatedSortingResult result = NonDominatedSorting(HandSet());
  ASSERT_EQ(result.fronts.size(), 3u);
  EXPECT_EQ(result.fronts[0], (std::vector<int>{0, 1, 2, 4}));
  EXPECT_EQ(result.fronts[1], (std::vector<int>{3}));
  EXPECT_EQ(result.fronts[2], (std::vector<int>{5}));
  EXPECT_EQ(result.rank, (std::vector<int>{0, 0, 0, 1, 0, 2}));
  // Front 0 sorted by objective 0 (stably): B(1) C(2) E(2) A(3), range 2: C gets (2-1)/2, E gets
  // (3-2)/2; by objective 1: A(1) C(2) E(2) B(3): C (2-1)/2, E (3-2)/2. Extremes infinite.
  EXPECT_EQ(result.crowding_distance[0], kInf);
  EXPECT_EQ(result.crowding_distance[1], kInf);
  EXPECT_DOUBLE_EQ(result.crowding_distance[2], 1.0);
  EXPECT_DOUBLE_EQ(result.crowding_distance[4], 1.0);
  EXPECT_EQ(result.crowding_distance[3], kInf);  // a front of one point
}

TEST(NonDominatedSortingTest, FlatObjectiveAddsNoCrowding) {
  Eigen::MatrixXd points(2, 3);  // three copies of one point: one front, both objectives flat
  points << 1, 1, 1,             //
      1, 1, 1;
  const NonDominatedSortingResult result = NonDominatedSorting(points);
  ASSERT_EQ(result.fronts.size(), 1u);
  EXPECT_EQ(result.crowding_distance[0], kInf);
  EXPECT_EQ(result.crowding_distance[1], 0.0);  // inside both flat objectives
  EXPECT_EQ(result.crowding_distance[2], kInf);
}

TEST(NonDominatedSortingTest, RandomSetsSatisfyTheDefinition) {
  Rng rng(testing::TestSeed(32));
  for (int trial = 0; trial < 20; ++trial) {
    const int k = 2 + trial % 3, n = 30;
    Eigen::MatrixXd points = testing::UniformPoints(k, n, 0.0, 1.0, rng);
    points = (points * 4).array().round();  // many ties and duplicates
    const NonDominatedSortingResult result = NonDominatedSorting(points);
    for (int p = 0; p < n; ++p) {
      for (int q = 0; q < n; ++q) {
        // No point is dominated by one of the same or a worse front.
        if (Dominates(points.col(q), points.col(p))) {
          EXPECT_LT(result.rank[q], result.rank[p]);
        }
      }
      if (result.rank[p] == 0) continue;
      // A point of front r + 1 is dominated by some point of front r.
      bool dominated = false;
      for (int q : result.fronts[result.rank[p] - 1])
        dominated = dominated || Dominates(points.col(q), points.col(p));
      EXPECT_TRUE(dominated) << "point " << p;
    }
    std::vector<int> filter = NonDominatedIndices(points);
    EXPECT_EQ(filter, result.fronts[0]);
  }
}

TEST(NonDominatedSortingTest, RefusesNonFinitePoints) {
  Eigen::MatrixXd points = HandSet();
  points(1, 3) = NAN;
  ExpectInvalid([&] { NonDominatedSorting(points); }, "points(1, 3) = nan");
  points(1, 3) = kInf;
  ExpectInvalid([&] { NonDominatedIndices(points); }, "points(1, 3) = inf");
}

}  // namespace
}  // namespace gpbandit
