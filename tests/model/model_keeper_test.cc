// The keeper's own job (model/model_keeper.h): a told value through the outcome chain into the
// reward's model and the counts, a failure imputed at the worst reward, the constraint models
// fed first so that a refused value changes nothing, and the models' work deferred until
// CatchUp while the counts move at once.
#include "model/model_keeper.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kNaN;

// A keeper of a reward over [0, 1]^2 with num_constraints legacy constraint models.
std::unique_ptr<ModelKeeper> MakeKeeper(const OptimizerOptions& options, int num_constraints = 0,
                                        const TimeModel& time = TimeModel()) {
  return std::make_unique<ModelKeeper>(MakeSquaredExponential(FirstDims(2), true, 1.0, 0.5), 2,
                                       options, time, /*default_kernel=*/true,
                                       /*cautious=*/false, num_constraints,
                                       /*constraint_input_dim=*/2, /*local_allowed=*/false);
}

Eigen::VectorXd Point(double a, double b) { return Eigen::Vector2d(a, b); }

TEST(ModelKeeperTest, AMinimizedCostEntersTheModelAsItsNegatedReward) {
  OptimizerOptions options;
  options.sense = ObjectiveSense::kMinimize;
  auto keeper = MakeKeeper(options);
  EXPECT_TRUE(std::isnan(keeper->Add(Point(0.2, 0.3), Point(0.2, 0.3), 2.0, true, {})));
  EXPECT_TRUE(std::isnan(keeper->Add(Point(0.7, 0.6), Point(0.7, 0.6), 3.0, true, {})));
  EXPECT_EQ(keeper->counts().rows(), 2);
  EXPECT_EQ(keeper->counts().num_accepted(), 2);
  EXPECT_EQ(keeper->counts().worst_reward(), -3.0);  // the larger cost
  EXPECT_EQ(keeper->gp().num_observations(), 2);
  // The better of the two (cost 2) has the higher posterior mean in the model's sense.
  double mean_low_cost = 0, mean_high_cost = 0, variance = 0;
  keeper->gp().MeanAndVariance(Point(0.2, 0.3), &mean_low_cost, &variance);
  keeper->gp().MeanAndVariance(Point(0.7, 0.6), &mean_high_cost, &variance);
  EXPECT_GT(mean_low_cost, mean_high_cost);
}

// The prior mean a time model asks for (time_model.h) is the reward model's, whatever the study's
// GP options say; without one the study's options decide.
TEST(ModelKeeperTest, TheRewardModelTakesTheTimeModelsPriorMean) {
  OptimizerOptions options;
  TimeModel gls;
  gls.prior_mean = PriorMeanEstimate::kGeneralizedLeastSquares;
  EXPECT_EQ(MakeKeeper(options, 0, gls)->gp().options().prior_mean, gls.prior_mean);
  EXPECT_EQ(MakeKeeper(options)->gp().options().prior_mean, PriorMeanEstimate::kSampleMean);
  options.gp.prior_mean = PriorMeanEstimate::kGeneralizedLeastSquares;
  EXPECT_EQ(MakeKeeper(options)->gp().options().prior_mean, gls.prior_mean);
}

TEST(ModelKeeperTest, AFailureEntersAtTheWorstRewardOnlyWhenImputed) {
  OptimizerOptions options;
  options.non_finite_rewards = NonFiniteRewardPolicy::kImputeWorst;
  auto keeper = MakeKeeper(options);
  // Before any reward there is nothing to impute: the failure takes no row.
  EXPECT_TRUE(std::isnan(keeper->Add(Point(0.5, 0.5), Point(0.5, 0.5), kNaN, false, {})));
  EXPECT_EQ(keeper->counts().rows(), 0);
  keeper->Add(Point(0.1, 0.1), Point(0.1, 0.1), 1.0, true, {});
  keeper->Add(Point(0.9, 0.2), Point(0.9, 0.2), 4.0, true, {});
  EXPECT_EQ(keeper->Add(Point(0.4, 0.8), Point(0.4, 0.8), kNaN, false, {}), 1.0);
  EXPECT_EQ(keeper->counts().rows(), 3);
  EXPECT_EQ(keeper->counts().num_accepted(), 2);
  EXPECT_EQ(keeper->gp().num_observations(), 3);
}

TEST(ModelKeeperTest, ARefusedConstraintVectorChangesNothing) {
  auto keeper = MakeKeeper(OptimizerOptions(), /*num_constraints=*/2);
  keeper->Add(Point(0.3, 0.3), Point(0.3, 0.3), 1.0, true, Eigen::Vector2d(0.5, -0.5));
  EXPECT_THROW(keeper->Add(Point(0.6, 0.6), Point(0.6, 0.6), 2.0, true, Eigen::Vector3d::Ones()),
               std::invalid_argument);
  EXPECT_EQ(keeper->counts().rows(), 1);
  EXPECT_EQ(keeper->gp().num_observations(), 1);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(keeper->constraints().constraint(i).num_observations(), 1);
}

TEST(ModelKeeperTest, DeferredTellsAreCountedAtOnceAndModelledOnCatchUp) {
  auto keeper = MakeKeeper(OptimizerOptions(), /*num_constraints=*/1);
  keeper->Defer();
  keeper->Add(Point(0.2, 0.8), Point(0.2, 0.8), 1.5, true, Eigen::VectorXd::Constant(1, 0.1));
  keeper->Add(Point(0.6, 0.4), Point(0.6, 0.4), -0.5, true, Eigen::VectorXd::Constant(1, 0.2));
  EXPECT_EQ(keeper->counts().rows(), 2);
  EXPECT_EQ(keeper->counts().worst_reward(), -0.5);
  EXPECT_EQ(keeper->gp().num_observations(), 0);
  EXPECT_EQ(keeper->constraints().constraint(0).num_observations(), 0);
  keeper->CatchUp();
  EXPECT_EQ(keeper->gp().num_observations(), 2);
  EXPECT_EQ(keeper->constraints().constraint(0).num_observations(), 2);
  // In order: the same model as the one told directly.
  auto direct = MakeKeeper(OptimizerOptions(), 1);
  direct->Add(Point(0.2, 0.8), Point(0.2, 0.8), 1.5, true, Eigen::VectorXd::Constant(1, 0.1));
  direct->Add(Point(0.6, 0.4), Point(0.6, 0.4), -0.5, true, Eigen::VectorXd::Constant(1, 0.2));
  double deferred_mean = 0, deferred_variance = 0, direct_mean = 0, direct_variance = 0;
  keeper->gp().MeanAndVariance(Point(0.4, 0.5), &deferred_mean, &deferred_variance);
  direct->gp().MeanAndVariance(Point(0.4, 0.5), &direct_mean, &direct_variance);
  EXPECT_EQ(deferred_mean, direct_mean);
  EXPECT_EQ(deferred_variance, direct_variance);
}

}  // namespace
}  // namespace gpbandit
