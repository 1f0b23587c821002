#include "optimizer/safe_recommender.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/optimizer/replica_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using internal::SafeRecommender;
using testing::AddObservation;
using testing::MakeReplica;

using testing::At;

// GridCandidates -1, -0.95, ..., 1; f(x) = 0.49 - x^2 is safe (>= 0) where |x| <= 0.7.
Domain GridCandidates() {
  Eigen::MatrixXd c(1, 41);
  for (int j = 0; j < 41; ++j) c(0, j) = -1.0 + 0.05 * j;
  return Domain::FiniteSet(c);
}
double F(double x) { return 0.49 - x * x; }

StrategyParams RecommenderSafeParams() {
  return StrategyParams().With("threshold", 0.0).WithText("seeds", "[[0.0]]");
}

TEST(SafeRecommender, DoesNotApplyWithoutSafetySignals) {
  auto replica = MakeReplica(GridCandidates(), "gp-ucb");
  SafeRecommender safe(replica.get());
  EXPECT_FALSE(safe.applies());
  EXPECT_TRUE(std::isnan(safe.SafetyMargin(At(0.0), Eigen::VectorXd())));
  EXPECT_THROW(safe.PredictConstraint(0, At(0.0), Eigen::VectorXd()), std::out_of_range);
}

TEST(SafeRecommender, BestIsAnObservationMeasuredSafe) {
  auto replica = MakeReplica(GridCandidates(), "safe-opt", RecommenderSafeParams());
  SafeRecommender safe(replica.get());
  ASSERT_TRUE(safe.applies());
  EXPECT_THROW(safe.Best(), std::logic_error);  // nothing evaluated yet
  for (double x : {0.0, 0.1, 0.2, 0.3}) AddObservation(replica.get(), At(x), F(x));
  const Recommendation best = safe.Best();
  ASSERT_EQ(best.x.size(), 1);
  EXPECT_TRUE(best.x(0) == 0.0 || best.x(0) == 0.1 || best.x(0) == 0.2 || best.x(0) == 0.3);
  EXPECT_EQ(best.observed_reward, F(best.x(0)));
  EXPECT_GE(best.observed_reward, 0.0);
}

TEST(SafeRecommender, MarginIsLargerWhereObservedSafeThanFarAway) {
  auto replica = MakeReplica(GridCandidates(), "safe-opt", RecommenderSafeParams());
  SafeRecommender safe(replica.get());
  for (double x : {0.0, 0.1, 0.2}) AddObservation(replica.get(), At(x), F(x));
  const double near = safe.SafetyMargin(At(0.1), Eigen::VectorXd());
  const double far = safe.SafetyMargin(At(-1.0), Eigen::VectorXd());
  EXPECT_GT(near, far);
  EXPECT_THROW(safe.SafetyMargin(At(2.0), Eigen::VectorXd()), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
