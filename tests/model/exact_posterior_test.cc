// The exact posterior against the closed form (without standardization), against the
// GaussianProcess it wraps (with it), its round statistics, and its refit data.
#include "model/exact_posterior.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

TEST(ExactPosteriorTest, EqualsTheClosedFormWithoutStandardization) {
  Rng rng(testing::TestSeed(11));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 12, 0.0, 1.0, rng);
  const Eigen::MatrixXd elsewhere = testing::UniformPoints(2, 5, 0.0, 1.0, rng);
  GaussianProcessOptions options;
  options.noise_variance = 0.02;
  options.standardize_outputs = false;
  ExactPosterior model(MakeSquaredExponential(FirstDims(2), true, 1.5, 0.3), 2, options);
  Eigen::VectorXd y(X.cols());
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    y(i) = std::sin(3.0 * X(0, i)) + X(1, i);
    model.AddObservation(X.col(i), y(i), true);
  }
  // mean k_t(x)^T (K + lambda I)^-1 y, variance k(x, x) - k_t(x)^T (K + lambda I)^-1 k_t(x).
  const auto kernel = MakeSquaredExponential(FirstDims(2), true, 1.5, 0.3);
  Eigen::MatrixXd K = kernel->Gram(X);
  K.diagonal().array() += 0.02;
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  const Eigen::MatrixXd cross = kernel->Cross(X, elsewhere);
  Eigen::VectorXd means, variances;
  model.Posterior(elsewhere, &means, &variances);
  ASSERT_EQ(means.size(), elsewhere.cols());
  ASSERT_EQ(variances.size(), elsewhere.cols());
  for (Eigen::Index j = 0; j < elsewhere.cols(); ++j) {
    const Eigen::VectorXd k = cross.col(j);
    EXPECT_NEAR(means(j), k.dot(llt.solve(y)), 1e-9) << j;
    EXPECT_NEAR(variances(j),
                kernel->Value(elsewhere.col(j), elsewhere.col(j)) - k.dot(llt.solve(k)), 1e-9)
        << j;
  }
  EXPECT_EQ(model.num_observations(), 12);
  EXPECT_EQ(model.kind(), PosteriorKind::kExact);
}

TEST(ExactPosteriorTest, EqualsItsGaussianProcessBitForBit) {
  Rng rng(testing::TestSeed(12));
  const Eigen::MatrixXd X = testing::UniformPoints(3, 20, 0.0, 1.0, rng);
  const Eigen::MatrixXd elsewhere = testing::UniformPoints(3, 6, 0.0, 1.0, rng);
  GaussianProcessOptions options;
  options.noise_variance = 0.01;
  GaussianProcess gp(MakeMatern52(FirstDims(3), true, 1.0, 0.4), 3, options);
  for (Eigen::Index i = 0; i < X.cols(); ++i) gp.AddObservation(X.col(i), 100.0 + X(0, i));
  const ExactPosterior model(gp);
  Eigen::VectorXd means, variances;
  model.Posterior(elsewhere, &means, &variances);
  for (Eigen::Index j = 0; j < elsewhere.cols(); ++j) {
    double mean = 0, variance = 0;
    gp.MeanAndVariance(elsewhere.col(j), &mean, &variance);
    EXPECT_EQ(means(j), mean);
    EXPECT_EQ(variances(j), variance);
  }
  EXPECT_EQ(model.MeansAtObservations(), gp.MeansAtObservations());
  EXPECT_EQ(model.InformationGain(), gp.InformationGain());
  // The round's statistics in original units.
  RoundState state;
  model.RoundStatistics(true, &state);
  const double scale2 = gp.output_scale() * gp.output_scale();
  EXPECT_EQ(state.information_gain, gp.InformationGain());
  EXPECT_DOUBLE_EQ(state.noise_variance, (gp.noise_variance() + gp.jitter()) * scale2);
  EXPECT_DOUBLE_EQ(state.signal_variance, scale2);  // Matern amplitude 1
  EXPECT_EQ(state.best_observed, gp.outputs().maxCoeff());
  EXPECT_EQ(state.sequential_variances.size(), 20);
  // The exact model searches the whole box.
  Eigen::MatrixXd lower, upper, starts;
  model.SearchRegions(3, Eigen::VectorXd::Zero(3), Eigen::VectorXd::Ones(3), &lower, &upper,
                      &starts);
  EXPECT_EQ(lower.cols(), 0);
  EXPECT_EQ(starts.rows(), 3);
}

TEST(ExactPosteriorTest, FitDataSpreadsItsRowsOverTheStudy) {
  GaussianProcessOptions options;
  ExactPosterior model(MakeSquaredExponential({0}, true, 1.0, 0.2), 1, options);
  for (int i = 0; i < 10; ++i)
    model.AddObservation(Eigen::VectorXd::Constant(1, i / 10.0), i, true);
  EXPECT_EQ(model.FitData(10).num_observations(), 10);
  const GaussianProcess data = model.FitData(4);
  ASSERT_EQ(data.num_observations(), 4);
  // Rows floor(i 10 / 4): 0, 2, 5, 7.
  EXPECT_EQ(data.outputs(), (Eigen::VectorXd(4) << 0, 2, 5, 7).finished());
  EXPECT_EQ(data.kernel_log_params(), model.kernel_log_params());
}

TEST(ExactPosteriorTest, BadObservationLeavesItUnchanged) {
  GaussianProcessOptions options;
  ExactPosterior model(MakeSquaredExponential({0}, true, 1.0, 0.2), 1, options);
  model.AddObservation(Eigen::VectorXd::Constant(1, 0.5), 1.0, true);
  EXPECT_THROW(model.AddObservation(Eigen::VectorXd::Zero(2), 1.0, true), std::invalid_argument);
  EXPECT_THROW(model.AddObservation(Eigen::VectorXd::Zero(1), std::nan(""), true),
               std::invalid_argument);
  EXPECT_EQ(model.num_observations(), 1);
  const std::unique_ptr<PosteriorModel> copy = model.Clone();
  model.AddObservation(Eigen::VectorXd::Constant(1, 0.1), 2.0, true);
  EXPECT_EQ(copy->num_observations(), 1);
}

}  // namespace
}  // namespace gpbandit
