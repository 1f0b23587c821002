#include "gpbandit/acquisition/gp_ts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/maximizer/candidate_posterior.h"
#include "gpbandit/maximizer/finite_argmax.h"
#include "tests/acquisition/options_json_test_util.h"
#include "tests/test_util.h"
#include "tests/user_kernel.h"

namespace gpbandit {
namespace {

RoundState Round(int t, double gamma) {
  RoundState state;
  state.t = t;
  state.information_gain = gamma;
  return state;
}

// The default samples a tempered posterior, v = 0.5, whatever the round.
TEST(GpTsTest, DefaultScaleIsHalfThePosteriorSpread) {
  GpTs ts;
  EXPECT_EQ(ts.figure(), 0.5);
  ts.BeginRound(Round(4, 2.0));
  EXPECT_EQ(ts.figure(), 0.5);
  EXPECT_EQ(GpTsOptions().fixed_scale, 0.5);
}

TEST(GpTsTest, ScaleFollowsTheSchedule) {
  GpTsOptions options;
  options.fixed_scale = 0.0;
  options.rkhs_bound = 1.0;
  options.noise_bound = 0.5;
  GpTs ts(options);
  ts.BeginRound(Round(4, 2.0));
  // v_t = B + R sqrt(2 (gamma + 1 + ln(2 / delta))), delta = 0.1.
  EXPECT_NEAR(ts.figure(), 1.0 + 0.5 * std::sqrt(2.0 * (3.0 + std::log(20.0))), 1e-12);
  EXPECT_EQ(ts.figure_name(), "v_t");
  options.fixed_scale = 1.0;
  GpTs plain(options);
  plain.BeginRound(Round(4, 2.0));
  EXPECT_EQ(plain.figure(), 1.0);
  options.num_features = 0;
  EXPECT_THROW(GpTs{options}, std::invalid_argument);
}

TEST(GpTsTest, ScheduleNoiseBoundComesFromTheModelWithAFloor) {
  GpTsOptions schedule;
  schedule.fixed_scale = 0.0;
  GpTs ts(schedule);
  RoundState state = Round(4, 50.0);
  state.noise_variance = 1e-10;  // noiseless: R = 0.02, lambda = 4e-4
  state.sequential_variances = Eigen::Vector2d(1.0, 0.0396);
  ts.BeginRound(state);
  const double gamma = 0.5 * (std::log(2501.0) + std::log(100.0));
  EXPECT_NEAR(ts.figure(), 1.0 + 0.02 * std::sqrt(2.0 * (gamma + 1.0 + std::log(20.0))), 1e-12);
  GpTsOptions options;
  options.min_noise_bound = -1.0;
  EXPECT_THROW(GpTs{options}, std::invalid_argument);
}

TEST(GpTsTest, FiniteSamplesHaveThePosteriorMeanAndScaledCovariance) {
  Rng rng(testing::TestSeed(41));
  auto kernel = MakeSquaredExponential(FirstDims(1), true, 1.0, 0.25);
  const Eigen::MatrixXd C = Eigen::RowVectorXd::LinSpaced(4, 0.0, 1.0);
  FiniteSetPosterior posterior(*kernel, C, 0.1);
  posterior.Observe(1, 0.5);
  posterior.Observe(3, -0.4);
  // Closed form with observations at C(1), C(3).
  Eigen::MatrixXd X(1, 2);
  X << C(0, 1), C(0, 3);
  Eigen::MatrixXd K = kernel->Gram(X);
  K.diagonal().array() += 0.1;
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  const Eigen::MatrixXd Kcx = kernel->Cross(C, X);
  const Eigen::VectorXd mean = Kcx * llt.solve(Eigen::Vector2d(0.5, -0.4));
  const Eigen::MatrixXd cov = kernel->Gram(C) - Kcx * llt.solve(Kcx.transpose());

  GpTsOptions options;
  options.fixed_scale = 1.5;
  GpTs ts(options);
  ts.BeginRound(Round(3, posterior.InformationGain()));
  FiniteSetCandidatePosterior view(posterior);
  const int n = 20000;
  Eigen::MatrixXd samples(4, n);
  for (int k = 0; k < n; ++k) samples.col(k) = ts.ScoreCandidates(view, rng);
  const Eigen::VectorXd sample_mean = samples.rowwise().mean();
  const Eigen::MatrixXd centered = samples.colwise() - sample_mean;
  const Eigen::MatrixXd sample_cov = centered * centered.transpose() / (n - 1);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(sample_mean(i), mean(i), 5.0 * 1.5 * std::sqrt(cov(i, i) / n)) << i;
    for (int j = 0; j < 4; ++j)
      EXPECT_NEAR(sample_cov(i, j), 2.25 * cov(i, j),
                  0.06 * 2.25 * std::sqrt(cov(i, i) * cov(j, j)))
          << i << "," << j;
  }
}

// Over many independent function draws, the pathwise samples have the GP posterior's mean and
// v^2 times its covariance (random Fourier features are unbiased for the prior covariance, and
// the conditioning step is linear), for SE and Matern-5/2.
void CheckPathwiseStatistics(std::unique_ptr<Kernel> kernel, std::uint64_t seed) {
  Rng rng(seed);
  const int dim = 2;
  GaussianProcessOptions gp_options;
  gp_options.noise_variance = 0.05;
  GaussianProcess gp(std::move(kernel), dim, gp_options);
  const Eigen::MatrixXd X = testing::UniformPoints(dim, 6, 0.0, 1.0, rng);
  Eigen::VectorXd y(6);
  for (int i = 0; i < 6; ++i) y(i) = 3.0 + 2.0 * std::cos(4.0 * X(0, i)) * X(1, i);
  gp.AddObservations(X, y);  // standardized: offset and scale are exercised
  Eigen::MatrixXd P(dim, 3);
  P.col(0) = X.col(0);  // at an observation
  P.col(1) << 0.5, 0.5;
  P.col(2) << 0.9, 0.1;
  const Eigen::MatrixXd cov = gp.Covariance(P);
  Eigen::VectorXd mean(3);
  for (int i = 0; i < 3; ++i) mean(i) = gp.Mean(P.col(i));

  GpTsOptions options;
  options.fixed_scale = 1.3;
  options.num_features = 256;
  GpTs ts(options);
  ts.BeginRound(Round(7, 0.0));
  const int n = 6000;
  Eigen::MatrixXd samples(3, n);
  for (int k = 0; k < n; ++k) {
    const auto f = ts.MakeContinuous(gp, rng);
    for (int i = 0; i < 3; ++i) samples(i, k) = f->Evaluate(P.col(i), nullptr);
  }
  const Eigen::VectorXd sample_mean = samples.rowwise().mean();
  const Eigen::MatrixXd centered = samples.colwise() - sample_mean;
  const Eigen::MatrixXd sample_cov = centered * centered.transpose() / (n - 1);
  const double v2 = 1.3 * 1.3;
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(sample_mean(i), mean(i), 5.0 * std::sqrt(v2 * cov(i, i) / n) + 1e-9) << i;
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(sample_cov(i, j), v2 * cov(i, j), 0.1 * v2 * std::sqrt(cov(i, i) * cov(j, j)))
          << i << "," << j;
  }
}

TEST(GpTsTest, PathwiseSamplesMatchThePosteriorSE) {
  CheckPathwiseStatistics(MakeSquaredExponential(FirstDims(2), true, 1.0, 0.3),
                          testing::TestSeed(42));
}

TEST(GpTsTest, PathwiseSamplesMatchThePosteriorMatern52) {
  CheckPathwiseStatistics(MakeMatern52(FirstDims(2), false, 0.8, 0.4), testing::TestSeed(43));
}

// The pathwise samples of GP-TS through any kernel's features have the posterior's mean and v^2
// times its covariance at a few points: the features are unbiased for k (kernel_features.h),
// the weights are independent N(0, 1), and the conditioning step is linear, so over draws of
// (features, weights, noise) the covariance is exact. Each of the n sample means and sample
// covariances is checked against the closed form within 5 of its standard errors, estimated
// from the same draws (the standard deviation of the samples, or of the products of centered
// samples, over sqrt(n)): a correct sampler fails a check with probability ~1e-6, while prior
// features 10% too large (21% too much prior variance) fail every kernel below at n = 4000.
void CheckPathwiseMoments(std::unique_ptr<Kernel> kernel, const Eigen::MatrixXd& X,
                          const Eigen::MatrixXd& P, std::uint64_t seed) {
  Rng rng(seed);
  GaussianProcessOptions gp_options;
  gp_options.noise_variance = 0.05;
  GaussianProcess gp(std::move(kernel), static_cast<int>(X.rows()), gp_options);
  Eigen::VectorXd y(X.cols());
  for (int i = 0; i < X.cols(); ++i) y(i) = 3.0 + 2.0 * std::cos(4.0 * X(0, i)) * X(1, i);
  gp.AddObservations(X, y);
  const int k = static_cast<int>(P.cols());
  const Eigen::MatrixXd cov = gp.Covariance(P);
  Eigen::VectorXd mean(k);
  for (int i = 0; i < k; ++i) mean(i) = gp.Mean(P.col(i));
  GpTsOptions options;
  options.fixed_scale = 1.3;
  options.num_features = 128;
  GpTs ts(options);
  ts.BeginRound(Round(static_cast<int>(X.cols()) + 1, 0.0));
  const int n = 4000;
  Eigen::MatrixXd samples(k, n);
  for (int r = 0; r < n; ++r) {
    const auto f = ts.MakeContinuous(gp, rng);
    for (int i = 0; i < k; ++i) samples(i, r) = f->Evaluate(P.col(i), nullptr);
  }
  const Eigen::VectorXd sample_mean = samples.rowwise().mean();
  const Eigen::MatrixXd centered = samples.colwise() - sample_mean;
  const double v2 = 1.3 * 1.3;
  for (int i = 0; i < k; ++i) {
    const double sd = std::sqrt(centered.row(i).squaredNorm() / (n - 1));
    EXPECT_NEAR(sample_mean(i), mean(i), 5.0 * sd / std::sqrt(n) + 1e-9) << "mean " << i;
    for (int j = 0; j < k; ++j) {
      const Eigen::ArrayXd products = centered.row(i).array() * centered.row(j).array();
      const double c = products.sum() / (n - 1);
      const double se = std::sqrt((products - products.mean()).square().sum() / (n - 1) / n);
      EXPECT_NEAR(c, v2 * cov(i, j), 5.0 * se + 1e-9) << "covariance " << i << "," << j;
    }
  }
}

std::vector<std::unique_ptr<Kernel>> TwoParts(std::unique_ptr<Kernel> a,
                                              std::unique_ptr<Kernel> b) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(a));
  parts.push_back(std::move(b));
  return parts;
}

// Observations on [0, 1]^2 x {context}, and three evaluation points under one context (as GP-TS
// on a box with a context evaluates them): one at an observation.
void ContextPoints(int context_values, Rng& rng, Eigen::MatrixXd* X, Eigen::MatrixXd* P) {
  *X = testing::UniformPoints(3, 8, 0.0, 1.0, rng);
  if (context_values > 0)
    for (int j = 0; j < 8; ++j) (*X)(2, j) = j % context_values;
  *P = Eigen::MatrixXd(3, 3);
  P->col(0) = X->col(0);
  P->col(1) << 0.5, 0.5, (*X)(2, 0);
  P->col(2) << 0.9, 0.1, (*X)(2, 0);
}

// The Optimizer's default kernel on a box with a context (Matern-5/2 over the actions times
// Matern-5/2 over the context): one joint spectral sample.
TEST(GpTsTest, PathwiseSamplesMatchThePosteriorWithTheContextualProductKernel) {
  Rng rng(testing::TestSeed(45));
  Eigen::MatrixXd X, P;
  ContextPoints(0, rng, &X, &P);
  CheckPathwiseMoments(
      MakeProduct(TwoParts(MakeMatern52({0, 1}, true, 1.0, 0.4), MakeMatern52({2}, true, 0.8))), X,
      P, testing::TestSeed(46));
}

TEST(GpTsTest, PathwiseSamplesMatchThePosteriorWithAPeriodicContextKernel) {
  Rng rng(testing::TestSeed(47));
  Eigen::MatrixXd X, P;
  ContextPoints(0, rng, &X, &P);
  CheckPathwiseMoments(MakePeriodic({0, 1, 2}, true, 1.2, 0.8, 0.5), X, P, testing::TestSeed(48));
  CheckPathwiseMoments(
      MakeProduct(TwoParts(MakeMatern52({0, 1}, true, 1.0, 0.4), MakePeriodic({2}, true, 1.0))), X,
      P, testing::TestSeed(49));
}

// A product with an index kernel (exact features) takes the randomly indexed product of
// features, a sum the parts' features side by side.
TEST(GpTsTest, PathwiseSamplesMatchThePosteriorWithIndexAndSumKernels) {
  Rng rng(testing::TestSeed(50));
  Eigen::MatrixXd X, P;
  ContextPoints(3, rng, &X, &P);
  Eigen::MatrixXd M(3, 3);
  M << 1.0, 0.6, 0.2,  //
      0.6, 1.2, 0.4,   //
      0.2, 0.4, 0.9;
  CheckPathwiseMoments(
      MakeProduct(TwoParts(MakeSquaredExponential({0, 1}, true, 1.0, 0.4), MakeIndexKernel(2, M))),
      X, P, testing::TestSeed(51));
  CheckPathwiseMoments(
      MakeSum(TwoParts(MakeMatern32({0, 1}, true, 0.7, 0.3), MakeLinear({2}, true, 0.4))), X, P,
      testing::TestSeed(52));
}

TEST(GpTsTest, PathwiseGradientMatchesFiniteDifferences) {
  Rng rng(testing::TestSeed(44));
  GaussianProcess gp(MakeMatern32(FirstDims(3), true, 1.0, 0.5), 3);
  const Eigen::MatrixXd X = testing::UniformPoints(3, 10, 0.0, 1.0, rng);
  gp.AddObservations(X, X.row(0).transpose() - X.row(2).transpose());
  GpTs ts;
  ts.BeginRound(Round(11, gp.InformationGain()));
  const auto f = ts.MakeContinuous(gp, rng);
  for (int k = 0; k < 5; ++k) {
    const Eigen::VectorXd x = testing::UniformPoints(3, 1, 0.0, 1.0, rng).col(0);
    Eigen::VectorXd gradient;
    f->Evaluate(x, &gradient);
    testing::ExpectGradientNear([&](const Eigen::VectorXd& p) { return f->Evaluate(p, nullptr); },
                                x, gradient, 1e-4, 1e-6, "gp-ts sample");
  }
}

TEST(GpTsTest, PathwiseGradientMatchesFiniteDifferencesForCompositeKernels) {
  Rng rng(testing::TestSeed(53));
  std::vector<std::unique_ptr<Kernel>> kernels;
  kernels.push_back(MakeProduct(TwoParts(MakeMatern52({0, 1}), MakeMatern52({2}))));
  kernels.push_back(MakeProduct(TwoParts(MakeMatern52({0, 1}), MakePeriodic({2}, true, 1.0))));
  kernels.push_back(MakeSum(TwoParts(MakeSquaredExponential({0, 1}), MakeLinear({2}))));
  for (std::unique_ptr<Kernel>& kernel : kernels) {
    const std::string name = kernel->Describe();
    GaussianProcess gp(std::move(kernel), 3);
    const Eigen::MatrixXd X = testing::UniformPoints(3, 10, 0.0, 1.0, rng);
    gp.AddObservations(X, X.row(0).transpose() - X.row(2).transpose());
    GpTs ts;
    ts.BeginRound(Round(11, gp.InformationGain()));
    const auto f = ts.MakeContinuous(gp, rng);
    for (int k = 0; k < 3; ++k) {
      const Eigen::VectorXd x = testing::UniformPoints(3, 1, 0.0, 1.0, rng).col(0);
      Eigen::VectorXd gradient;
      f->Evaluate(x, &gradient);
      testing::ExpectGradientNear([&](const Eigen::VectorXd& p) { return f->Evaluate(p, nullptr); },
                                  x, gradient, 1e-4, 1e-6, name);
    }
  }
}

TEST(GpTsTest, KernelWithoutFeaturesIsRejectedOnContinuousDomains) {
  GaussianProcess gp(std::make_unique<testing::UserKernel>(MakeMatern52(FirstDims(2))), 2);
  GpTs ts;
  Rng rng(1);
  EXPECT_THAT([&] { ts.MakeContinuous(gp, rng); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  ::testing::HasSubstr("use a finite candidate set")));
  EXPECT_THROW(CheckContinuousGpTsKernel(gp.kernel()), std::invalid_argument);
  EXPECT_NO_THROW(CheckContinuousGpTsKernel(*MakeLinear(FirstDims(2))));
  // The capability check the Optimizer runs when it is built: a box needs features, a finite
  // set does not.
  SearchSpace box;
  box.action_dim = 2;
  EXPECT_THROW(ts.CheckSupports(gp.kernel(), box), std::invalid_argument);
  EXPECT_NO_THROW(ts.CheckSupports(*MakeMatern52(FirstDims(2)), box));
  SearchSpace finite = box;
  finite.finite_set = true;
  EXPECT_NO_THROW(ts.CheckSupports(gp.kernel(), finite));
}

TEST(GpTsTest, SameSeedSameSample) {
  GaussianProcess gp(MakeSquaredExponential(FirstDims(1)), 1);
  gp.AddObservation(Eigen::VectorXd::Constant(1, 0.2), 1.0);
  GpTs ts;
  Rng a(5), b(5);
  const auto fa = ts.MakeContinuous(gp, a), fb = ts.MakeContinuous(gp, b);
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 0.77);
  EXPECT_EQ(fa->Evaluate(x, nullptr), fb->Evaluate(x, nullptr));
}

TEST(GpTsTest, OptionsSurviveJsonExactly) {
  using namespace testing;  // NOLINT: the extreme doubles
  GpTsOptions o;
  o.rkhs_bound = -0.0;
  o.noise_bound = kLargest;
  o.min_noise_bound = kThird;
  o.delta = kAfterOne - 1.0;
  o.gamma.source = GammaSource::kMaternBound;
  o.gamma.dim = 0;
  o.gamma.nu = kSmallestNormal;
  o.gamma.scale = kThird;
  o.fixed_scale = kPointThree;
  o.num_features = std::numeric_limits<int>::max();
  const GpTs ts(o);
  const auto back = RebuiltFromJson(ts);
  ASSERT_NE(back, nullptr);
  const GpTsOptions& b = back->options();
  ExpectSameBoundFields(b, o);
  EXPECT_TRUE(SameBits(b.fixed_scale, o.fixed_scale));
  EXPECT_EQ(b.num_features, o.num_features);
  EXPECT_EQ(back->OptionsJson(), ts.OptionsJson());
  EXPECT_EQ(StrategyParams(ts.OptionsJson()).keys(),
            (std::vector<std::string>{"delta", "fixed_scale", "gamma_dim", "gamma_nu",
                                      "gamma_scale", "gamma_source", "min_noise_bound",
                                      "noise_bound", "num_features", "rkhs_bound"}));
}

}  // namespace
}  // namespace gpbandit
