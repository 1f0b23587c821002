#include "optimizer/recommender.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/optimizer/replica_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using internal::Recommender;
using internal::SafeRecommender;
using testing::AddObservation;
using testing::MakeReplica;

Domain UnitLine() { return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1)); }
using testing::At;

TEST(Recommender, BestIsTheObservationOfTheHighestMean) {
  auto replica = MakeReplica(UnitLine(), "gp-ucb");
  SafeRecommender safe(replica.get());
  Recommender recommender(replica.get(), &safe);
  EXPECT_THROW(recommender.Best(), std::logic_error);
  AddObservation(replica.get(), At(0.1), 1.0);
  AddObservation(replica.get(), At(0.5), 3.0);
  AddObservation(replica.get(), At(0.9), 2.0);
  const Recommendation best = recommender.Best();
  EXPECT_EQ(best.x, At(0.5));
  EXPECT_EQ(best.observed_reward, 3.0);
  EXPECT_NEAR(best.posterior_mean, 3.0, 0.5);
}

TEST(Recommender, PredictNarrowsWhereObservedAndChecksItsInput) {
  auto replica = MakeReplica(UnitLine(), "gp-ucb");
  SafeRecommender safe(replica.get());
  Recommender recommender(replica.get(), &safe);
  const double prior = recommender.Predict(At(0.5), Eigen::VectorXd()).stddev;
  AddObservation(replica.get(), At(0.5), 3.0);
  AddObservation(replica.get(), At(0.1), 1.0);
  const Prediction p = recommender.Predict(At(0.5), Eigen::VectorXd());
  EXPECT_LT(p.stddev, prior);
  EXPECT_NEAR(p.mean, 3.0, 0.5);
  EXPECT_THROW(recommender.Predict(Eigen::VectorXd::Zero(2), Eigen::VectorXd()),
               std::invalid_argument);
  EXPECT_THROW(recommender.Predict(At(1.5), Eigen::VectorXd()), std::invalid_argument);
}

TEST(Recommender, BestAtOnTheRankOneModelIsTheCandidateOfTheHighestMean) {
  Eigen::MatrixXd candidates(1, 5);
  candidates << 0.0, 0.25, 0.5, 0.75, 1.0;
  OptimizerOptions options = testing::CheapOptions();
  options.refit.enabled = false;
  options.gp.noise_variance = 1e-4;
  auto replica = MakeReplica(Domain::FiniteSet(candidates), "gp-ucb", {}, options);
  ASSERT_NE(replica->model->reward().rank_one(), nullptr);
  SafeRecommender safe(replica.get());
  Recommender recommender(replica.get(), &safe);
  AddObservation(replica.get(), At(0.0), 1.0);
  AddObservation(replica.get(), At(0.5), 3.0);
  AddObservation(replica.get(), At(1.0), 1.0);
  const Recommendation best = recommender.BestAt(Eigen::VectorXd());
  EXPECT_EQ(best.x, At(0.5));
  EXPECT_EQ(best.observed_reward, 3.0);
}

}  // namespace
}  // namespace gpbandit
