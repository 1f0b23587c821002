#include "bench/ranking.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gpbandit {
namespace bench {
namespace {

// Closed forms: P(X <= k) for X ~ Binomial(n, 1/2) is sum_{i <= k} C(n, i) / 2^n.
TEST(RankingTest, SignTestPValuesMatchTheBinomialTail) {
  // (lgamma's roundoff: 1e-14 relative.)
  EXPECT_NEAR(TwoSidedSignTestP(10, 0), 2.0 / 1024.0, 1e-16);
  EXPECT_NEAR(TwoSidedSignTestP(9, 1), 2.0 * 11.0 / 1024.0, 1e-15);
  EXPECT_NEAR(TwoSidedSignTestP(1, 9), 2.0 * 11.0 / 1024.0, 1e-15);
  // n = 20, k = 5: (1 + 20 + 190 + 1140 + 4845 + 15504) / 2^20, doubled.
  EXPECT_NEAR(TwoSidedSignTestP(15, 5), 2.0 * 21700.0 / 1048576.0, 1e-12);
  EXPECT_DOUBLE_EQ(TwoSidedSignTestP(5, 5), 1.0);
  EXPECT_DOUBLE_EQ(TwoSidedSignTestP(0, 0), 1.0);
  EXPECT_THROW(TwoSidedSignTestP(-1, 3), std::invalid_argument);
}

TEST(RankingTest, PairedSignTestCountsWinsLossesAndTies) {
  const SignTest t = PairedSignTest({1, 2, 3, 4, 5}, {2, 2, 1, 5, 5 + 1e-14});
  EXPECT_EQ(t.wins, 2);  // 1 < 2, 4 < 5
  EXPECT_EQ(t.losses, 1);
  EXPECT_EQ(t.ties, 2);  // 2 = 2, 5 ~ 5 + 1e-14
  EXPECT_DOUBLE_EQ(t.p_value, TwoSidedSignTestP(2, 1));
  EXPECT_THROW(PairedSignTest({1, 2}, {1}), std::invalid_argument);
}

TEST(RankingTest, TiedValuesShareTheirMeanRank) {
  const std::vector<double> r = Ranks({3.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(r, (std::vector<double>{3.5, 1.0, 3.5, 2.0}));
  // Two problems: method 0 ranks 1 and 3, method 1 ranks 2 and 1, method 2 ranks 3 and 2.
  const std::vector<double> mean = MeanRanks({{1.0, 2.0, 3.0}, {9.0, 1.0, 5.0}});
  EXPECT_EQ(mean, (std::vector<double>{2.0, 1.5, 2.5}));
}

TEST(RankingTest, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(MedianOf({5, 1, 3}), 3.0);
  EXPECT_DOUBLE_EQ(MedianOf({4, 1, 3, 2}), 2.5);
  EXPECT_THROW(MedianOf({}), std::invalid_argument);
  EXPECT_TRUE(Lower(1.0, 2.0));
  EXPECT_FALSE(Lower(1.0, 1.0 + 1e-15));
  EXPECT_FALSE(Lower(2.0, 1.0));
}

}  // namespace
}  // namespace bench
}  // namespace gpbandit
