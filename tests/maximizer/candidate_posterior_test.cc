// Both CandidatePosterior implementations against the closed-form GP posterior computed here.
#include "gpbandit/maximizer/candidate_posterior.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

struct ClosedForm {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
};

// mu = K_*x (K + s I)^-1 y, Sigma = K_** - K_*x (K + s I)^-1 K_x* (prior mean 0).
ClosedForm Posterior(const Kernel& kernel, const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                     double noise, const Eigen::MatrixXd& C) {
  Eigen::MatrixXd K = kernel.Gram(X);
  K.diagonal().array() += noise;
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  const Eigen::MatrixXd Kcx = kernel.Cross(C, X);
  return {Kcx * llt.solve(y), kernel.Gram(C) - Kcx * llt.solve(Kcx.transpose())};
}

TEST(CandidatePosteriorTest, FiniteSetViewMatchesClosedForm) {
  Rng rng(testing::TestSeed(31));
  auto kernel = MakeSquaredExponential(FirstDims(1), true, 1.0, 0.3);
  const Eigen::MatrixXd C = testing::UniformPoints(1, 8, 0.0, 1.0, rng);
  FiniteSetPosterior finite(*kernel, C, 0.1);
  finite.Observe(2, 0.7);
  finite.Observe(5, -0.2);
  finite.Observe(2, 0.9);
  Eigen::MatrixXd X(1, 3);
  X << C(0, 2), C(0, 5), C(0, 2);
  const ClosedForm exact = Posterior(*kernel, X, Eigen::Vector3d(0.7, -0.2, 0.9), 0.1, C);
  FiniteSetCandidatePosterior view(finite);
  ASSERT_EQ(view.size(), 8);
  for (int i = 0; i < 8; ++i) {
    EXPECT_NEAR(view.means()(i), exact.mean(i), 1e-10);
    EXPECT_NEAR(view.variances()(i), exact.covariance(i, i), 1e-10);
  }
}

TEST(CandidatePosteriorTest, GpViewMatchesClosedFormAndSamplesWithScale) {
  Rng rng(testing::TestSeed(32));
  auto kernel = MakeMatern52(FirstDims(2), true, 1.0, 0.5);
  GaussianProcessOptions options;
  options.standardize_outputs = false;
  options.noise_variance = 0.05;
  GaussianProcess gp(kernel->Clone(), 2, options);
  const Eigen::MatrixXd X = testing::UniformPoints(2, 5, 0.0, 1.0, rng);
  const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(5, -1.0, 1.0);
  gp.AddObservations(X, y);
  const Eigen::MatrixXd C = testing::UniformPoints(2, 3, 0.0, 1.0, rng);
  const ClosedForm exact = Posterior(*kernel, X, y, 0.05, C);
  GpCandidatePosterior view(gp, C);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(view.means()(i), exact.mean(i), 1e-9);
    EXPECT_NEAR(view.variances()(i), exact.covariance(i, i), 1e-9);
  }
  // N(mean, scale^2 Sigma): sample covariance / scale^2 ~ Sigma.
  const int n = 20000;
  const double scale = 2.0;
  const Eigen::MatrixXd samples = view.SampleJoint(n, scale, rng);
  const Eigen::VectorXd sample_mean = samples.rowwise().mean();
  const Eigen::MatrixXd centered = samples.colwise() - sample_mean;
  const Eigen::MatrixXd sample_cov = centered * centered.transpose() / (n - 1);
  for (int i = 0; i < 3; ++i) {
    const double sd = scale * std::sqrt(exact.covariance(i, i));
    EXPECT_NEAR(sample_mean(i), exact.mean(i), 5.0 * sd / std::sqrt(n));
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(
          sample_cov(i, j), scale * scale * exact.covariance(i, j),
          0.06 * scale * scale * std::sqrt(exact.covariance(i, i) * exact.covariance(j, j)));
  }
  EXPECT_THROW(GpCandidatePosterior(gp, Eigen::MatrixXd(3, 2)), std::invalid_argument);
  EXPECT_THROW(GpCandidatePosterior(gp, Eigen::MatrixXd(2, 0)), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
