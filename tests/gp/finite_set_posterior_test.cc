#include "gpbandit/gp/finite_set_posterior.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using testing::TestSeed;
using testing::UniformPoints;

// The rank-one updates must reproduce exact GP regression (no standardization, same noise) on
// the same observations, repeated indices included.
void ExpectEqualsExactGp(std::unique_ptr<Kernel> kernel, const Eigen::MatrixXd& candidates,
                         Rng& rng) {
  const double noise = 0.05;
  FiniteSetPosterior finite(*kernel, candidates, noise);
  GaussianProcessOptions options;
  options.noise_variance = noise;
  options.standardize_outputs = false;
  GaussianProcess gp(kernel->Clone(), static_cast<int>(candidates.rows()), options);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(candidates.cols()) - 1);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int t = 0; t < 40; ++t) {
    const int i = pick(rng);
    const double y = std::sin(3.0 * candidates(0, i)) + 0.2 * normal(rng);
    finite.Observe(i, y);
    gp.AddObservation(candidates.col(i), y);
  }
  Eigen::VectorXd means, variances;
  gp.Predict(candidates, &means, &variances);
  const Eigen::MatrixXd covariance = gp.Covariance(candidates);
  for (int i = 0; i < candidates.cols(); ++i) {
    EXPECT_NEAR(finite.mean()(i), means(i), 1e-9);
    EXPECT_NEAR(finite.variances()(i), variances(i), 1e-9);
    for (int j = 0; j < candidates.cols(); ++j)
      EXPECT_NEAR(finite.covariance()(i, j), covariance(i, j), 1e-9);
  }
  EXPECT_NEAR(finite.InformationGain(), gp.InformationGain(), 1e-9);
  EXPECT_EQ(finite.num_observations(), 40);
}

TEST(FiniteSetPosteriorTest, EqualsExactGpForStationaryKernel) {
  Rng rng(TestSeed(31));
  ExpectEqualsExactGp(MakeMatern52(FirstDims(2), true, 1.0, 0.3), UniformPoints(2, 60, 0, 1, rng),
                      rng);
}

TEST(FiniteSetPosteriorTest, EqualsExactGpForIndexKernel) {
  Rng rng(TestSeed(32));
  // An inter-task covariance over 5 items (PSD by construction: B B^T).
  const Eigen::MatrixXd B = Eigen::MatrixXd::Random(5, 3);
  const Eigen::MatrixXd M = B * B.transpose() + 0.1 * Eigen::MatrixXd::Identity(5, 5);
  Eigen::MatrixXd candidates(1, 5);
  candidates << 0, 1, 2, 3, 4;
  ExpectEqualsExactGp(MakeIndexKernel(0, M), candidates, rng);
}

// The response to all-ones data gives the mean under any constant prior mean c:
// c + K(D, X) (K + lambda I)^-1 (y - c) = mean under prior 0 + c (1 - r). Checked against a
// posterior built with prior mean c, and r against its definition solved directly.
TEST(FiniteSetPosteriorTest, OnesResponseGivesTheMeanUnderAnotherPriorMean) {
  Rng rng(TestSeed(17));
  const Eigen::MatrixXd candidates = UniformPoints(1, 12, 0.0, 1.0, rng);
  const auto kernel = MakeMatern32({0}, true, 1.5, 0.3);
  const double noise = 0.04, c = 2.5;
  FiniteSetPosterior zero(*kernel, candidates, noise);
  FiniteSetPosterior shifted(*kernel, candidates, noise, c);
  const std::vector<int> played = {3, 7, 3, 0, 11, 5};
  Eigen::MatrixXd X(1, played.size());
  for (std::size_t k = 0; k < played.size(); ++k) {
    const double y = 2.0 + std::cos(4.0 * candidates(0, played[k]));
    zero.Observe(played[k], y);
    shifted.Observe(played[k], y);
    X.col(static_cast<Eigen::Index>(k)) = candidates.col(played[k]);
  }
  const Eigen::MatrixXd A = kernel->Gram(X) + noise * Eigen::MatrixXd::Identity(X.cols(), X.cols());
  const Eigen::VectorXd r =
      kernel->Cross(candidates, X) * A.ldlt().solve(Eigen::VectorXd::Ones(X.cols()));
  const Eigen::VectorXd under_c = zero.MeanUnderPriorMean(c);
  for (Eigen::Index i = 0; i < candidates.cols(); ++i) {
    EXPECT_NEAR(zero.ones_response()(i), r(i), 1e-10) << i;
    EXPECT_NEAR(under_c(i), shifted.mean()(i), 1e-10) << i;
  }
  EXPECT_EQ(zero.MeanUnderPriorMean(0.0), zero.mean());
  EXPECT_THROW(zero.MeanUnderPriorMean(std::numeric_limits<double>::infinity()),
               std::invalid_argument);
}

// Outputs scaled by a power of two midway give the bits of the posterior fed the scaled
// outputs from the start (the Optimizer's reward unit changes so).
TEST(FiniteSetPosteriorTest, ScaleOutputsIsExact) {
  Rng rng(TestSeed(19));
  const Eigen::MatrixXd candidates = UniformPoints(2, 15, 0.0, 1.0, rng);
  const auto kernel = MakeMatern52(FirstDims(2), true, 1.0, 0.3);
  FiniteSetPosterior scaled_midway(*kernel, candidates, 0.01, 0.5);
  FiniteSetPosterior scaled_throughout(*kernel, candidates, 0.01, std::ldexp(0.5, -7));
  const std::vector<int> played = {4, 9, 4, 1, 14, 2, 9};
  for (std::size_t k = 0; k < played.size(); ++k) {
    const double y = 3.0 + std::sin(5.0 * candidates(0, played[k])) + 0.1 * k;
    if (k == 4) scaled_midway.ScaleOutputs(-7);
    scaled_midway.Observe(played[k], k < 4 ? y : std::ldexp(y, -7));
    scaled_throughout.Observe(played[k], std::ldexp(y, -7));
  }
  EXPECT_EQ(scaled_midway.mean(), scaled_throughout.mean());
  EXPECT_EQ(scaled_midway.prior_mean(), scaled_throughout.prior_mean());
  EXPECT_EQ(scaled_midway.covariance(), scaled_throughout.covariance());
  EXPECT_EQ(scaled_midway.ones_response(), scaled_throughout.ones_response());
}

TEST(FiniteSetPosteriorTest, SamplesMatchMeanAndCovariance) {
  Rng rng(TestSeed(33));
  Eigen::MatrixXd candidates(1, 4);
  candidates << 0.0, 0.2, 0.5, 0.9;
  FiniteSetPosterior finite(*MakeSquaredExponential({0}, true, 1.0, 0.3), candidates, 0.1);
  finite.Observe(1, 0.7);
  finite.Observe(3, -0.4);
  const double scale = 1.7;
  const int n = 40000;
  const Eigen::MatrixXd samples = finite.SampleJoint(n, scale, rng);
  const Eigen::VectorXd mean = samples.rowwise().mean();
  const Eigen::MatrixXd centered = samples.colwise() - mean;
  const Eigen::MatrixXd cov = centered * centered.transpose() / (n - 1);
  const Eigen::MatrixXd expected = scale * scale * finite.covariance();
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(mean(i), finite.mean()(i), 5 * std::sqrt(expected(i, i) / n));
    for (int j = 0; j < 4; ++j)
      EXPECT_NEAR(cov(i, j), expected(i, j), 0.05 * std::sqrt(expected(i, i) * expected(j, j)));
  }
}

TEST(FiniteSetPosteriorTest, ManyRepeatsStaySymmetricAndSampleable) {
  Rng rng(TestSeed(34));
  const Eigen::MatrixXd candidates = UniformPoints(1, 30, 0, 1, rng);
  FiniteSetPosterior finite(*MakeSquaredExponential({0}, true, 1.0, 0.2), candidates, 1e-4);
  for (int t = 0; t < 3000; ++t) finite.Observe(t % 3, 1.0);
  EXPECT_EQ(finite.covariance(), finite.covariance().transpose());
  EXPECT_GE(finite.variances().minCoeff(), 0.0);
  const Eigen::MatrixXd samples = finite.SampleJoint(3, 1.0, rng);
  EXPECT_TRUE(samples.allFinite());
}

TEST(FiniteSetPosteriorTest, BadInputThrowsAndLeavesStateUnchanged) {
  Eigen::MatrixXd candidates(1, 3);
  candidates << 0.0, 0.5, 1.0;
  auto kernel = MakeSquaredExponential({0});
  EXPECT_THROW(FiniteSetPosterior(*kernel, Eigen::MatrixXd(1, 0), 0.1), std::invalid_argument);
  try {
    FiniteSetPosterior(*kernel, candidates, 0.0);
    ADD_FAILURE() << "zero noise accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("noise_variance = 0"));
  }
  FiniteSetPosterior finite(*kernel, candidates, 0.1);
  finite.Observe(0, 1.0);
  const Eigen::VectorXd mean = finite.mean();
  const Eigen::MatrixXd cov = finite.covariance();
  try {
    finite.Observe(3, 1.0);
    ADD_FAILURE() << "index out of range accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("index = 3"));
  }
  try {
    finite.Observe(1, std::numeric_limits<double>::quiet_NaN());
    ADD_FAILURE() << "NaN accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("y = nan"));
  }
  EXPECT_EQ(finite.mean(), mean);
  EXPECT_EQ(finite.covariance(), cov);
  EXPECT_EQ(finite.num_observations(), 1);
}

}  // namespace
}  // namespace gpbandit
