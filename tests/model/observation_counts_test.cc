// The observation counts (model/observation_counts.h): rows, accepted rewards and the worst of
// them, and the imputation of failures under each NonFiniteRewardPolicy.
#include "model/observation_counts.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kNaN;

TEST(ObservationCountsTest, StartsEmptyWithNoWorstReward) {
  const ObservationCounts counts(NonFiniteRewardPolicy::kImputeWorst);
  EXPECT_EQ(counts.rows(), 0);
  EXPECT_EQ(counts.num_accepted(), 0);
  EXPECT_EQ(counts.worst_reward(), std::numeric_limits<double>::infinity());
  // Nothing accepted yet: a failure has nothing to be imputed with.
  EXPECT_TRUE(std::isnan(counts.ImputedReward()));
}

// Rewards 3 and -1 accepted, a skipped failure (NaN: no row) and an imputed one (-1: a row).
TEST(ObservationCountsTest, CountsRowsAcceptedRewardsAndTheWorst) {
  ObservationCounts counts(NonFiniteRewardPolicy::kImputeWorst);
  counts.Count(3.0, true);
  counts.Count(-1.0, true);
  counts.Count(kNaN, false);
  counts.Count(-1.0, false);
  EXPECT_EQ(counts.rows(), 3);
  EXPECT_EQ(counts.num_accepted(), 2);
  EXPECT_EQ(counts.worst_reward(), -1.0);
  // An imputed failure is not an accepted reward: it never lowers the worst.
  counts.Count(-5.0, false);
  EXPECT_EQ(counts.worst_reward(), -1.0);
  EXPECT_EQ(counts.num_accepted(), 2);
  EXPECT_EQ(counts.rows(), 4);
}

TEST(ObservationCountsTest, ImputesTheWorstAcceptedRewardOnlyWhenAskedTo) {
  ObservationCounts impute(NonFiniteRewardPolicy::kImputeWorst);
  impute.Count(2.0, true);
  impute.Count(5.0, true);
  EXPECT_EQ(impute.ImputedReward(), 2.0);
  // The same rule for counts other than the current ones (a batch's later tells).
  EXPECT_EQ(impute.ImputedReward(-7.0, 1), -7.0);
  EXPECT_TRUE(std::isnan(impute.ImputedReward(-7.0, 0)));
  for (NonFiniteRewardPolicy policy :
       {NonFiniteRewardPolicy::kSkip, NonFiniteRewardPolicy::kThrow}) {
    ObservationCounts counts(policy);
    counts.Count(2.0, true);
    EXPECT_TRUE(std::isnan(counts.ImputedReward()));
    EXPECT_TRUE(std::isnan(counts.ImputedReward(2.0, 1)));
  }
}

}  // namespace
}  // namespace gpbandit
