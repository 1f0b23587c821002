// The constraint and safety-signal models (model/constraint_models.h): the legacy GPs in the
// caller's units, the signal models and their index mapping, the sense of the reward's signal,
// fit records, refits by stream, and the saved state a refit's transaction restores.
#include "model/constraint_models.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "study/round_rng.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kNaN;

std::unique_ptr<Kernel> RewardKernel() {
  return MakeSquaredExponential(FirstDims(2), true, 1.5, 0.4);
}

ConstraintModels Legacy(int num_constraints) {
  return ConstraintModels(*RewardKernel(), num_constraints, 2, GaussianProcessOptions());
}

SafetySignal Signal(double threshold, double prior_mean = kNaN) {
  SafetySignal s;
  s.threshold = threshold;
  s.model.prior_mean = prior_mean;
  return s;
}

Eigen::VectorXd At(double a, double b) { return Eigen::Vector2d(a, b); }

// Constraint signal 0 observed at six points of the unit square, signal 1 (when there is one)
// at the same points with other values.
void Observe(ConstraintModels* m) {
  for (int k = 0; k < 6; ++k) {
    const Eigen::VectorXd u = At(0.15 * k, 1.0 - 0.13 * k);
    Eigen::VectorXd g(m->num_constraints());
    g(0) = std::sin(5.0 * u(0)) + 0.3 * u(1);
    if (g.size() > 1) g(1) = 40.0 * u(0) * u(0) - 7.0;
    m->Add(u, g);
  }
}

TEST(ConstraintModelsTest, LegacyModelsCopyTheRewardKernelAndKeepTheCallersValues) {
  ConstraintModels m = Legacy(2);
  EXPECT_EQ(m.num_constraints(), 2);
  EXPECT_TRUE(m.safety_models().empty());
  EXPECT_EQ(m.reward_safety_model(), -1);
  EXPECT_EQ(m.constraint(1).kernel_log_params(), RewardKernel()->GetLogParams());
  m.Add(At(0.2, 0.7), Eigen::Vector2d(0.25, -3.0));
  m.AddReward(At(0.2, 0.7), 1.0);  // no reward signal: nothing takes it
  EXPECT_EQ(m.constraint(0).num_observations(), 1);
  EXPECT_EQ(m.constraint(1).num_observations(), 1);
  EXPECT_EQ(m.constraint(1).outputs()(0), -3.0);
  EXPECT_THROW(m.constraint(2), std::out_of_range);
  EXPECT_THROW(m.constraint(-1), std::out_of_range);
}

// A cost (sense -1) whose upper limit is 2 with prior mean 0.5 becomes a reward's lower limit
// -2 with prior mean -0.5: reward -1.5 is 1 from the mean (the unit), the limit (-2 + 0.5) / 1.
// Unflipped it would be (2 - 0.5) / |-1.5 - 0.5| = 0.75.
TEST(ConstraintModelsTest, TheRewardsSignalTurnsWithTheSenseAndComesFirst) {
  ConstraintModels m(*RewardKernel(), 1, 2, GaussianProcessOptions(),
                     {Signal(2.0, 0.5), Signal(-0.05)}, 1, -1.0);
  ASSERT_EQ(m.safety_models().size(), 2u);
  EXPECT_EQ(m.reward_safety_model(), 0);
  EXPECT_EQ(m.constraint_safety_model(0), 1);
  m.AddReward(At(0.5, 0.5), -1.5);
  EXPECT_EQ(m.safety_models()[0].unit(), 1.0);
  EXPECT_EQ(m.safety_models()[0].threshold(), -1.5);
  m.Add(At(0.5, 0.5), Eigen::VectorXd::Constant(1, 0.12));
  EXPECT_EQ(m.safety_models()[1].gp().num_observations(), 1);
  EXPECT_EQ(&m.constraint(0), &m.safety_models()[1].gp());
}

TEST(ConstraintModelsTest, ARewardSignalWithoutThresholdHasNoModel) {
  ConstraintModels m(*RewardKernel(), 2, 2, GaussianProcessOptions(),
                     {Signal(kNaN), Signal(1.0), Signal(-1.0)}, 1);
  EXPECT_EQ(m.safety_models().size(), 2u);
  EXPECT_EQ(m.reward_safety_model(), -1);
  EXPECT_EQ(m.constraint_safety_model(1), 1);
  m.AddReward(At(0.5, 0.5), 3.0);
  m.Add(At(0.5, 0.5), Eigen::Vector2d(0.0, 4.0));
  EXPECT_EQ(m.safety_models()[1].gp().num_observations(), 1);
  EXPECT_EQ(m.safety_models()[1].threshold(), 0.0);  // the threshold is the default mean
  EXPECT_EQ(m.safety_models()[1].unit(), 5.0);       // |4 - (-1)|
}

TEST(ConstraintModelsTest, RejectsSafetySignalsThatDoNotMatchTheConstraints) {
  try {
    ConstraintModels m(*RewardKernel(), 2, 2, GaussianProcessOptions(), {Signal(1.0), Signal(1.0)},
                       1);
    FAIL() << "two safety signals for two constraint signals were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2 safety signals for 2 constraint signals"),
              std::string::npos)
        << e.what();
  }
}

// Constraint i refits from stream kStreamConstraintFit + i of its round: a second constraint
// leaves the first one's fit exactly as it was; the same round fits the same values.
TEST(ConstraintModelsTest, RefitsEachModelFromItsOwnStream) {
  ConstraintModels one = Legacy(1), two = Legacy(2), again = Legacy(2);
  Observe(&one);
  Observe(&two);
  Observe(&again);
  const HyperparameterFitOptions fit;
  const ConstraintFits a = one.Refit(fit, fit, 7, 3);
  const ConstraintFits b = two.Refit(fit, fit, 7, 3);
  const ConstraintFits c = again.Refit(fit, fit, 7, 3);
  ASSERT_EQ(a.constraint_log_params.size(), 1u);
  ASSERT_EQ(b.constraint_log_params.size(), 2u);
  EXPECT_TRUE(a.signal_log_params.empty());
  EXPECT_EQ(a.constraint_log_params[0], b.constraint_log_params[0]);
  EXPECT_EQ(a.constraint_noise_variances[0], b.constraint_noise_variances[0]);
  EXPECT_EQ(b.constraint_log_params, c.constraint_log_params);
  // The fit moved the hyperparameters, and the models hold what the record says.
  EXPECT_NE(b.constraint_log_params[1], RewardKernel()->GetLogParams());
  EXPECT_EQ(two.constraint(1).kernel_log_params(), b.constraint_log_params[1]);
  EXPECT_EQ(two.constraint(1).noise_variance(), b.constraint_noise_variances[1]);
}

TEST(ConstraintModelsTest, AModelWithoutDataIsNotRefitted) {
  ConstraintModels m = Legacy(1);
  const double noise = m.constraint(0).noise_variance();
  const ConstraintFits fits = m.Refit(HyperparameterFitOptions(), HyperparameterFitOptions(), 7, 3);
  EXPECT_EQ(fits.constraint_log_params[0], RewardKernel()->GetLogParams());
  EXPECT_EQ(fits.constraint_noise_variances[0], noise);
}

TEST(ConstraintModelsTest, FitRecordsMustHoldOneEntryPerModel) {
  ConstraintModels m = Legacy(2);
  Observe(&m);
  LogRecord record;
  record.constraint_log_params = {Eigen::Vector3d(0.1, -1.0, -0.5)};
  record.constraint_noise_variances = {0.01};
  EXPECT_THROW(m.CheckFitRecord(record), std::runtime_error);
  record.constraint_log_params.push_back(Eigen::Vector3d(0.2, -0.7, -0.9));
  record.constraint_noise_variances.push_back(0.02);
  m.CheckFitRecord(record);
  record.signal_log_params = {Eigen::Vector3d::Zero()};
  EXPECT_THROW(m.CheckFitRecord(record), std::runtime_error);
  record.signal_log_params.clear();
  m.SetHyperparameters(record);
  EXPECT_EQ(m.constraint(1).kernel_log_params(), Eigen::Vector3d(0.2, -0.7, -0.9));
  EXPECT_EQ(m.constraint(1).noise_variance(), 0.02);
}

// A refit's transaction: the models as saved, the legacy GPs the same objects as before.
TEST(ConstraintModelsTest, RestoresWhatWasSaved) {
  ConstraintModels m(*RewardKernel(), 1, 2, GaussianProcessOptions(), {Signal(1.0), Signal(-0.05)},
                     1);
  ConstraintModels legacy = Legacy(1);
  Observe(&m);
  Observe(&legacy);
  const Eigen::VectorXd signal_params = m.safety_models()[1].gp().kernel_log_params();
  const Eigen::VectorXd legacy_params = legacy.constraint(0).kernel_log_params();
  const GaussianProcess* legacy_gp = &legacy.constraint(0);
  ConstraintModels::Saved saved = m.Save(), saved_legacy = legacy.Save();
  m.Refit(HyperparameterFitOptions(), HyperparameterFitOptions(), 1, 2);
  legacy.Refit(HyperparameterFitOptions(), HyperparameterFitOptions(), 1, 2);
  m.Add(At(0.9, 0.9), Eigen::VectorXd::Constant(1, 0.3));
  ASSERT_NE(legacy.constraint(0).kernel_log_params(), legacy_params);
  m.Restore(std::move(saved));
  legacy.Restore(std::move(saved_legacy));
  EXPECT_EQ(m.safety_models()[1].gp().num_observations(), 6);
  EXPECT_EQ(m.safety_models()[1].gp().kernel_log_params(), signal_params);
  EXPECT_EQ(legacy.constraint(0).kernel_log_params(), legacy_params);
  EXPECT_EQ(&legacy.constraint(0), legacy_gp);
}

}  // namespace
}  // namespace gpbandit
