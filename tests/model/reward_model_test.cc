// The reward's model switching between posteriors: exact -> local at the observation past
// exact_until (only where allowed), rank-one -> exact at the first told point that is no
// candidate, each predicting as the model it switched to; copies independent; UseRankOne only
// before the first observation.
#include "model/reward_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

LocalModelOptions Switching(int exact_until) {
  LocalModelOptions o;
  o.exact_until = exact_until;
  o.size = 10;
  o.regions = 1;
  return o;
}

RewardModel Model(bool local_allowed, int exact_until = 20) {
  GaussianProcessOptions options;
  options.noise_variance = 0.01;
  return RewardModel(MakeSquaredExponential(FirstDims(2), true, 1.0, 0.25), 2, options,
                     Switching(exact_until), local_allowed);
}

double F(const Eigen::VectorXd& u) { return std::sin(4.0 * u(0)) + u(1); }

TEST(RewardModelTest, SwitchesToTheLocalModelPastExactUntil) {
  Rng rng(testing::TestSeed(41));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 30, 0.0, 1.0, rng);
  RewardModel model = Model(true);
  for (Eigen::Index i = 0; i < 20; ++i) model.AddObservation(X.col(i), F(X.col(i)));
  EXPECT_EQ(model.posterior().kind(), PosteriorKind::kExact);
  const GaussianProcess exact = model.gp();
  model.AddObservation(X.col(20), F(X.col(20)));
  EXPECT_EQ(model.posterior().kind(), PosteriorKind::kLocal);
  EXPECT_EQ(model.num_observations(), 21);
  // The local GP built from the exact one's observations and hyperparameters, then fed.
  LocalGaussianProcess local(exact, 10);
  local.AddObservation(X.col(20), F(X.col(20)));
  Eigen::VectorXd means, variances;
  model.posterior().Posterior(X.rightCols(5), &means, &variances);
  for (Eigen::Index j = 0; j < 5; ++j) {
    double mean = 0, variance = 0;
    local.local().MeanAndVariance(X.col(25 + j), &mean, &variance);
    EXPECT_EQ(means(j), mean) << j;
    EXPECT_EQ(variances(j), variance) << j;
  }
  EXPECT_EQ(model.gp().num_observations(), 10);
}

TEST(RewardModelTest, StaysExactWhereTheLocalModelIsNotAllowed) {
  Rng rng(testing::TestSeed(42));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 25, 0.0, 1.0, rng);
  RewardModel model = Model(false);
  for (Eigen::Index i = 0; i < X.cols(); ++i) model.AddObservation(X.col(i), F(X.col(i)));
  EXPECT_EQ(model.posterior().kind(), PosteriorKind::kExact);
  EXPECT_EQ(model.gp().num_observations(), 25);
}

TEST(RewardModelTest, RankOneUntilAToldPointIsNoCandidate) {
  Rng rng(testing::TestSeed(43));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 12, 0.0, 1.0, rng);
  RewardModel model = Model(true, 3);  // the rank-one model never switches to the local one
  model.UseRankOne(candidates);
  EXPECT_THROW(model.gp(), std::logic_error);
  for (int i = 0; i < 8; ++i) model.AddObservation(candidates.col(i % 5), F(candidates.col(i % 5)));
  ASSERT_NE(model.rank_one(), nullptr);
  EXPECT_EQ(model.posterior().kind(), PosteriorKind::kRankOne);
  EXPECT_THROW(model.UseRankOne(candidates), std::logic_error);
  const RewardModel before = model;
  const Eigen::VectorXd outside = Eigen::VectorXd::Constant(2, 0.5);
  model.AddObservation(outside, F(outside));
  EXPECT_EQ(model.rank_one(), nullptr);
  EXPECT_EQ(model.posterior().kind(), PosteriorKind::kExact);
  EXPECT_EQ(model.num_observations(), 9);
  // The exact GP on every observation, in order.
  GaussianProcess expected = before.rank_one()->ExactModel();
  expected.AddObservation(outside, F(outside));
  EXPECT_EQ(model.gp().outputs(), expected.outputs());
  EXPECT_EQ(model.gp().inputs(), expected.inputs());
  // The copy taken before is independent and still rank-one.
  EXPECT_NE(before.rank_one(), nullptr);
  EXPECT_EQ(before.num_observations(), 8);
}

TEST(RewardModelTest, UnchangedWhenTheSwitchingObservationIsBad) {
  Rng rng(testing::TestSeed(44));
  const Eigen::MatrixXd candidates = testing::UniformPoints(2, 6, 0.0, 1.0, rng);
  RewardModel model = Model(true);
  model.UseRankOne(candidates);
  model.AddObservation(candidates.col(0), 1.0);
  EXPECT_THROW(model.AddObservation(Eigen::VectorXd::Constant(2, 0.5), std::nan("")),
               std::invalid_argument);
  EXPECT_NE(model.rank_one(), nullptr);
  EXPECT_EQ(model.num_observations(), 1);
}

}  // namespace
}  // namespace gpbandit
