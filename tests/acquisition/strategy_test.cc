// IndexStrategy's continuous acquisitions: values agree with Score() at the GP's posterior, and
// gradients (chain rule through the GP's mean and variance gradients) match finite differences.
#include "gpbandit/acquisition/strategy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "gpbandit/acquisition/expected_improvement.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/igp_ucb.h"
#include "gpbandit/acquisition/mean_only.h"
#include "gpbandit/acquisition/probability_of_improvement.h"
#include "gpbandit/acquisition/variance_only.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

std::vector<std::unique_ptr<IndexStrategy>> AllIndexStrategies() {
  std::vector<std::unique_ptr<IndexStrategy>> all;
  all.push_back(std::make_unique<GpUcb>());
  all.push_back(std::make_unique<IgpUcb>());
  all.push_back(std::make_unique<ExpectedImprovement>());
  all.push_back(std::make_unique<ProbabilityOfImprovement>());
  all.push_back(std::make_unique<MeanOnly>());
  all.push_back(std::make_unique<VarianceOnly>());
  return all;
}

TEST(IndexStrategyTest, ContinuousGradientsMatchFiniteDifferences) {
  Rng rng(testing::TestSeed(21));
  const int dim = 3;
  GaussianProcess gp(MakeMatern52(FirstDims(dim), true, 1.3, 0.4), dim);
  const Eigen::MatrixXd X = testing::UniformPoints(dim, 12, 0.0, 1.0, rng);
  Eigen::VectorXd y(12);
  for (int i = 0; i < 12; ++i) y(i) = std::sin(3.0 * X(0, i)) + X(1, i) * X(2, i);
  gp.AddObservations(X, y);
  RoundState state;
  state.t = 13;
  state.action_dim = dim;
  state.information_gain = gp.InformationGain();
  state.incumbent = y.maxCoeff();
  for (auto& strategy : AllIndexStrategies()) {
    strategy->BeginRound(state);
    const auto acquisition = strategy->MakeContinuous(gp, rng);
    for (int k = 0; k < 5; ++k) {
      const Eigen::VectorXd x = testing::UniformPoints(dim, 1, 0.05, 0.95, rng).col(0);
      Eigen::VectorXd gradient;
      const double value = acquisition->Evaluate(x, &gradient);
      double mean = 0, variance = 0;
      gp.MeanAndVariance(x, &mean, &variance);
      EXPECT_NEAR(value, strategy->Score(mean, variance, nullptr, nullptr), 1e-12)
          << strategy->name();
      testing::ExpectGradientNear(
          [&](const Eigen::VectorXd& p) { return acquisition->Evaluate(p, nullptr); }, x, gradient,
          1e-4, 1e-7, strategy->name());
    }
  }
}

TEST(IndexStrategyTest, ScoreCandidatesMatchesScore) {
  Rng rng(testing::TestSeed(22));
  GaussianProcess gp(MakeSquaredExponential(FirstDims(1), true, 1.0, 0.2), 1);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.3), 1.0);
  RoundState state;
  state.incumbent = 1.0;
  state.num_candidates = 4;
  ExpectedImprovement ei;
  ei.BeginRound(state);
  const Eigen::MatrixXd candidates = testing::UniformPoints(1, 4, 0.0, 1.0, rng);
  Eigen::VectorXd means, variances;
  gp.Predict(candidates, &means, &variances);
  class Posterior : public CandidatePosterior {
   public:
    Posterior(const Eigen::VectorXd& m, const Eigen::VectorXd& v) : m_(m), v_(v) {}
    int size() const override { return static_cast<int>(m_.size()); }
    const Eigen::VectorXd& means() const override { return m_; }
    const Eigen::VectorXd& variances() const override { return v_; }
    Eigen::MatrixXd SampleJoint(int, double, Rng&) const override { return {}; }

   private:
    Eigen::VectorXd m_, v_;
  } posterior(means, variances);
  const Eigen::VectorXd scores = ei.ScoreCandidates(posterior, rng);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(scores(i), ei.Score(means(i), variances(i), nullptr, nullptr));
}

TEST(IndexStrategyTest, ContinuousAcquisitionOutlivesTheStrategy) {
  GaussianProcess gp(MakeSquaredExponential(FirstDims(1)), 1);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.5), 2.0);
  Rng rng(1);
  std::unique_ptr<ContinuousAcquisition> acquisition;
  {
    MeanOnly mean;
    acquisition = mean.MakeContinuous(gp, rng);
  }
  EXPECT_DOUBLE_EQ(acquisition->Evaluate(Eigen::VectorXd::Constant(1, 0.5), nullptr),
                   gp.Mean(Eigen::VectorXd::Constant(1, 0.5)));
}

TEST(RoundStateTest, ValidationNamesTheField) {
  RoundState state;
  state.noise_variance = -1.0;
  try {
    ValidateRoundState(state);
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("noise_variance = -1"), std::string::npos) << e.what();
  }
  state = RoundState();
  state.incumbent = std::numeric_limits<double>::infinity();
  EXPECT_THROW(ValidateRoundState(state), std::invalid_argument);
  state = RoundState();
  state.action_dim = 0;
  EXPECT_THROW(ValidateRoundState(state), std::invalid_argument);
  state = RoundState();
  state.best_observed = std::nan("");
  testing::ExpectInvalid([&] { ValidateRoundState(state); }, "best_observed");
  state = RoundState();
  state.signal_variance = 0.0;
  testing::ExpectInvalid([&] { ValidateRoundState(state); }, "signal_variance = 0");
  state = RoundState();
  state.sequential_variances = Eigen::Vector2d(1.0, -1e-3);
  testing::ExpectInvalid([&] { ValidateRoundState(state); }, "sequential_variances");
  state = RoundState();
  state.one_step_residuals = Eigen::Vector2d(0.5, std::nan(""));
  testing::ExpectInvalid([&] { ValidateRoundState(state); }, "one_step_residuals");
  EXPECT_NO_THROW(ValidateRoundState(RoundState()));
}

}  // namespace
}  // namespace gpbandit
