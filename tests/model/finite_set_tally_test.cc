// The rank-one model's tally: per observation and per candidate, accepted candidates in first
// order, running sums, exact scaling by powers of two.
#include "model/finite_set_tally.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace gpbandit {
namespace {

TEST(FiniteSetTallyTest, StartsEmpty) {
  const FiniteSetTally tally(3);
  EXPECT_EQ(tally.size(), 0);
  EXPECT_EQ(tally.counts, Eigen::VectorXd::Zero(3));
  EXPECT_EQ(tally.accepted, (std::vector<char>{0, 0, 0}));
  EXPECT_EQ(tally.best_output, -INFINITY);
}

TEST(FiniteSetTallyTest, AddNotesEachObservation) {
  FiniteSetTally tally(4);
  tally.Add(2, 1.5, 0.5, 0.9, 1.0, false);
  tally.Add(1, 3.0, 2.0, 0.8, 2.0, true);
  tally.Add(2, -1.0, -2.0, 0.1, 1.0, true);
  tally.Add(1, 0.0, -1.0, 0.2, 2.0, true);
  EXPECT_EQ(tally.rows, (std::vector<int>{2, 1, 2, 1}));
  EXPECT_EQ(tally.outputs, (std::vector<double>{1.5, 3.0, -1.0, 0.0}));
  EXPECT_EQ(tally.sequential_variances, (std::vector<double>{0.9, 0.8, 0.1, 0.2}));
  EXPECT_EQ(tally.counts, (Eigen::VectorXd(4) << 0, 2, 2, 0).finished());
  EXPECT_EQ(tally.sums, (Eigen::VectorXd(4) << 0, 1.0, -1.5, 0).finished());
  // Candidate 1 was accepted first, 2 after its accepted second observation.
  EXPECT_EQ(tally.accepted_candidates, (std::vector<int>{1, 2}));
  EXPECT_EQ(tally.diagonal_sum, 6.0);
  EXPECT_EQ(tally.best_output, 3.0);
}

TEST(FiniteSetTallyTest, ScaleIsExact) {
  FiniteSetTally tally(2);
  tally.Add(0, 0.3, 0.1, 0.5, 1.0, true);
  tally.Add(1, -0.7, -0.2, 0.4, 1.0, true);
  tally.Scale(-3);
  EXPECT_EQ(tally.outputs, (std::vector<double>{0.3 / 8, -0.7 / 8}));
  EXPECT_EQ(tally.sums, (Eigen::VectorXd(2) << 0.1 / 8, -0.2 / 8).finished());
  EXPECT_EQ(tally.best_output, 0.3 / 8);
  // Variances are of the standardized outputs: unchanged.
  EXPECT_EQ(tally.sequential_variances, (std::vector<double>{0.5, 0.4}));
}

}  // namespace
}  // namespace gpbandit
