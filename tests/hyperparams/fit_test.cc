#include "gpbandit/hyperparams/fit.h"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/log_marginal_likelihood.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "numerics/thread_policy.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// Varies fast along x0 and slowly along x1: the ARD lengthscales must tell them apart.
double Anisotropic(const Eigen::VectorXd& x) { return std::sin(9.0 * x(0)) + 0.5 * x(1); }

// Smooth in both inputs, with interior lengthscales (neither a constant nor a linear trend).
double Wavy(const Eigen::VectorXd& x) { return std::sin(3.0 * x(0)) + std::cos(4.0 * x(1)); }

GaussianProcess MakeGp(int dim, int n, Rng& rng, double noise_sd = 0.05,
                       const std::function<double(const Eigen::VectorXd&)>& f = Anisotropic) {
  GaussianProcess gp(MakeMatern52(FirstDims(dim), true), dim);
  const Eigen::MatrixXd X = testing::UniformPoints(dim, n, 0.0, 1.0, rng);
  Eigen::VectorXd y(n);
  std::normal_distribution<double> noise(0.0, noise_sd);
  for (int j = 0; j < n; ++j) y(j) = f(X.col(j)) + noise(rng);
  gp.AddObservations(X, y);
  return gp;
}

// The objective at the GP's hyperparameters, computed independently of the fit.
double LmlOf(const GaussianProcess& gp, Eigen::VectorXd* gradient = nullptr) {
  return LogMarginalLikelihood(gp.kernel(), gp.inputs(), gp.standardized_outputs(),
                               gp.noise_variance(), gradient);
}

void ExpectSameHyperparameters(const GaussianProcess& a, const GaussianProcess& b) {
  EXPECT_EQ(a.kernel_log_params(), b.kernel_log_params());
  EXPECT_EQ(a.noise_variance(), b.noise_variance());
}

TEST(FitHyperparametersTest, SetsAStationaryPointThatImprovesTheStart) {
  Rng data_rng(testing::TestSeed(11));
  GaussianProcess gp = MakeGp(2, 30, data_rng);
  const double before = LmlOf(gp);
  Rng rng(5);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_FALSE(report.kept_previous);
  EXPECT_EQ(report.num_starts, 6);
  EXPECT_EQ(static_cast<int>(report.start_outcomes.size()), 6);
  EXPECT_GT(report.iterations, 0);
  EXPECT_GE(report.best_start, 0);
  // The GP holds what the report says, and the reported LML is the LML there.
  EXPECT_EQ(gp.kernel_log_params(), report.kernel_log_params);
  EXPECT_EQ(gp.noise_variance(), report.noise_variance);
  Eigen::VectorXd gradient;
  const double after = LmlOf(gp, &gradient);
  EXPECT_NEAR(report.log_marginal_likelihood, after, 1e-9 * std::abs(after));
  EXPECT_NEAR(gp.LogMarginalLikelihood(), after, 1e-6 * std::abs(after));
  EXPECT_GT(after, before);
  // No hyperparameter is at a bound here, so the fit must be a stationary point.
  EXPECT_TRUE(report.params_at_bound.empty()) << report.BriefReport();
  EXPECT_LT(gradient.lpNorm<Eigen::Infinity>(), 1e-4) << gradient.transpose();
}

TEST(FitHyperparametersTest, RecoversDifferentArdLengthscales) {
  Rng data_rng(testing::TestSeed(12));
  GaussianProcess gp = MakeGp(2, 40, data_rng);
  Rng rng(6);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  const Eigen::VectorXd lengthscales = gp.kernel_log_params().tail(2).array().exp();
  std::cout << "[ fit      ] lengthscales " << lengthscales.transpose() << std::endl;
  // sin(9 x0) turns over within ~0.35; 0.5 x1 is linear over the whole cube.
  EXPECT_LT(lengthscales(0), 1.0);
  EXPECT_GT(lengthscales(1), 4.0 * lengthscales(0));
}

TEST(FitHyperparametersTest, MoreRestartsNeverGiveALowerOptimum) {
  Rng data_rng(testing::TestSeed(13));
  const GaussianProcess original = MakeGp(3, 25, data_rng, 0.2);
  double previous = -std::numeric_limits<double>::infinity();
  for (int restarts = 0; restarts <= 6; ++restarts) {
    GaussianProcess gp = original;
    HyperparameterFitOptions options;
    options.num_restarts = restarts;
    Rng rng(99);
    const HyperparameterFitReport report = FitHyperparameters(options, rng, &gp);
    ASSERT_TRUE(report.success) << report.BriefReport();
    EXPECT_GE(report.log_posterior, previous) << restarts << " restarts";
    previous = report.log_posterior;
  }
}

TEST(FitHyperparametersTest, SameSeedGivesIdenticalFits) {
  Rng data_rng(testing::TestSeed(14));
  const GaussianProcess original = MakeGp(2, 20, data_rng);
  GaussianProcess a = original, b = original;
  Rng rng_a(3), rng_b(3);
  const HyperparameterFitReport ra = FitHyperparameters(HyperparameterFitOptions(), rng_a, &a);
  const HyperparameterFitReport rb = FitHyperparameters(HyperparameterFitOptions(), rng_b, &b);
  ExpectSameHyperparameters(a, b);
  EXPECT_EQ(ra.log_marginal_likelihood, rb.log_marginal_likelihood);
  EXPECT_EQ(ra.start_outcomes, rb.start_outcomes);
  EXPECT_EQ(rng_a(), rng_b());
}

// The likelihood's work is split by size alone: a fit on 1 thread and on 2 ends bit-identical
// (n = 90 crosses the sizes where the Gram matrix, the inverse and the contraction split).
TEST(FitHyperparametersTest, ThreadCountDoesNotChangeTheFit) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const ScopedParallelismForTesting parallel;  // n = 90 is small work for the thread policy
  Rng data_rng(testing::TestSeed(15));
  const GaussianProcess original = MakeGp(2, 90, data_rng);
  GaussianProcess a = original, b = original;
  HyperparameterFitOptions one, two;
  one.num_restarts = two.num_restarts = 1;
  one.num_threads = 1;
  two.num_threads = 2;
  Rng rng_a(5), rng_b(5);
  const HyperparameterFitReport ra = FitHyperparameters(one, rng_a, &a);
  const HyperparameterFitReport rb = FitHyperparameters(two, rng_b, &b);
  ASSERT_TRUE(ra.success) << ra.BriefReport();
  ExpectSameHyperparameters(a, b);
  EXPECT_EQ(ra.log_marginal_likelihood, rb.log_marginal_likelihood);
  EXPECT_EQ(ra.iterations, rb.iterations);
  EXPECT_EQ(ra.start_outcomes, rb.start_outcomes);
}

// Outputs of 1e200 (without standardization) overflow y^T Ky^-1 y to infinity for every
// hyperparameter inside the bounds: every start fails at its first evaluation.
TEST(FitHyperparametersTest, EveryStartFailingKeepsThePreviousHyperparameters) {
  GaussianProcessOptions gp_options;
  gp_options.standardize_outputs = false;
  gp_options.noise_variance = 0.01;
  GaussianProcess gp(MakeSquaredExponential({0}, true, 1.0, 0.3), 1, gp_options);
  Eigen::MatrixXd X(1, 3);
  X << 0.1, 0.5, 0.9;
  Eigen::VectorXd y(3);
  y << 1e200, -1e200, 1e200;
  gp.AddObservations(X, y);
  const GaussianProcess before = gp;
  Rng rng(1);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  EXPECT_FALSE(report.success);
  EXPECT_TRUE(report.kept_previous);
  EXPECT_EQ(report.termination, FitTermination::kFailure);
  EXPECT_EQ(report.failed_starts.size(), 6u);
  EXPECT_EQ(report.best_start, -1);
  EXPECT_NE(report.message.find("every one of the 6 starts failed"), std::string::npos)
      << report.message;
  EXPECT_NE(report.BriefReport().find("kept previous"), std::string::npos);
  ExpectSameHyperparameters(gp, before);
  EXPECT_EQ(report.kernel_log_params, before.kernel_log_params());
  EXPECT_EQ(report.noise_variance, before.noise_variance());
  EXPECT_FALSE(std::isnan(report.log_marginal_likelihood));
  EXPECT_TRUE(gp.kernel_log_params().allFinite());
}

TEST(FitHyperparametersTest, NoObservationsKeepsThePreviousHyperparameters) {
  GaussianProcess gp(MakeMatern52({0, 1}), 2);
  const GaussianProcess before = gp;
  Rng rng(1), untouched(1);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  EXPECT_FALSE(report.success);
  EXPECT_TRUE(report.kept_previous);
  EXPECT_EQ(report.termination, FitTermination::kNotRun);
  ExpectSameHyperparameters(gp, before);
  EXPECT_EQ(rng(), untouched());
}

// Constant rewards standardize to all zeros: the likelihood then prefers the smallest
// variances, which must end at their bounds, finite, and be reported as such.
TEST(FitHyperparametersTest, ConstantOutputsGiveFiniteHyperparametersAtBounds) {
  GaussianProcess gp(MakeMatern52({0, 1}), 2);
  Rng data_rng(testing::TestSeed(15));
  gp.AddObservations(testing::UniformPoints(2, 8, 0.0, 1.0, data_rng),
                     Eigen::VectorXd::Constant(8, 3.5));
  Rng rng(2);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_TRUE(gp.kernel_log_params().allFinite());
  EXPECT_TRUE(std::isfinite(gp.noise_variance()));
  EXPECT_TRUE(std::isfinite(report.log_marginal_likelihood));
  EXPECT_NEAR(gp.noise_variance(), HyperparameterFitOptions().min_noise_variance, 1e-12);
  EXPECT_NE(report.BriefReport().find("log_noise_variance at lower bound"), std::string::npos)
      << report.BriefReport();
  EXPECT_TRUE(std::isfinite(gp.Mean(Eigen::Vector2d(0.5, 0.5))));
}

TEST(FitHyperparametersTest, TwoPointsGiveAFiniteFit) {
  GaussianProcess gp(MakeSquaredExponential({0, 1}), 2);
  Eigen::MatrixXd X(2, 2);
  X << 0.2, 0.8,  //
      0.3, 0.6;
  gp.AddObservations(X, Eigen::Vector2d(1.0, -0.5));
  Rng rng(3);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_TRUE(gp.kernel_log_params().allFinite());
  EXPECT_GE(report.log_marginal_likelihood, LmlOf(gp) - 1e-9);
  EXPECT_TRUE(std::isfinite(gp.Variance(Eigen::Vector2d(0.5, 0.5))));
}

// A noisy bandit re-samples the same point: duplicates with different rewards force the noise
// above the floor.
TEST(FitHyperparametersTest, DuplicatedPointsFitTheNoise) {
  Rng data_rng(testing::TestSeed(16));
  GaussianProcess gp(MakeMatern52({0, 1}), 2);
  const Eigen::MatrixXd base = testing::UniformPoints(2, 6, 0.0, 1.0, data_rng);
  Eigen::MatrixXd X(2, 24);
  Eigen::VectorXd y(24);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (int j = 0; j < 24; ++j) {
    X.col(j) = base.col(j % 6);
    y(j) = Anisotropic(X.col(j)) + noise(data_rng);
  }
  gp.AddObservations(X, y);
  Rng rng(4);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_TRUE(gp.kernel_log_params().allFinite());
  EXPECT_GT(gp.noise_variance(), 1e-3);  // well above the 1e-6 floor
  EXPECT_TRUE(std::isfinite(report.log_marginal_likelihood));
}

TEST(FitHyperparametersTest, FixedNoiseIsKept) {
  Rng data_rng(testing::TestSeed(17));
  GaussianProcess gp = MakeGp(2, 15, data_rng);
  const double noise = gp.noise_variance();
  HyperparameterFitOptions options;
  options.fit_noise = false;
  Rng rng(5);
  const HyperparameterFitReport report = FitHyperparameters(options, rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_EQ(gp.noise_variance(), noise);
  Eigen::VectorXd gradient;
  LmlOf(gp, &gradient);
  // Stationary in the kernel log-params only (the noise entry is not optimized).
  EXPECT_LT(gradient.head(3).lpNorm<Eigen::Infinity>(), 1e-4) << gradient.transpose();
}

TEST(FitHyperparametersTest, ExplicitBoundsHoldAndAreReported) {
  Rng data_rng(testing::TestSeed(18));
  GaussianProcess gp = MakeGp(2, 30, data_rng, 0.02, Wavy);
  HyperparameterFitOptions options;
  // Keep the first lengthscale (which wants to be ~1 for sin(3 x0) on [0, 1]) in [0.05, 0.3]:
  // the fit must press against the upper bound, end exactly on it, and say so.
  options.lower_log_bounds = {std::log(1e-3), std::log(0.05), std::log(1e-3)};
  options.upper_log_bounds = {std::log(1e3), std::log(0.3), std::log(1e2)};
  Rng rng(6);
  const HyperparameterFitReport report = FitHyperparameters(options, rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_EQ(gp.kernel_log_params()(1), std::log(0.3)) << report.BriefReport();
  bool reported = false;
  for (const std::string& p : report.params_at_bound)
    reported |= p.find("log_lengthscale[0] at upper bound") != std::string::npos;
  EXPECT_TRUE(reported) << report.BriefReport();
}

// Infinite bound pairs leave the log-params unconstrained (theta = u); the fit must still end
// at a stationary point, as good as the bounded fit when that one is interior.
TEST(FitHyperparametersTest, UnboundedLogParamsReachAStationaryPoint) {
  Rng data_rng(testing::TestSeed(24));
  const GaussianProcess original = MakeGp(2, 30, data_rng, 0.1, Wavy);
  GaussianProcess bounded = original, unbounded = original;
  const double inf = std::numeric_limits<double>::infinity();
  HyperparameterFitOptions options;
  options.lower_log_bounds.assign(3, -inf);
  options.upper_log_bounds.assign(3, inf);
  Rng rng(10), rng2(10);
  const HyperparameterFitReport report = FitHyperparameters(options, rng, &unbounded);
  ASSERT_TRUE(report.success) << report.BriefReport();
  const HyperparameterFitReport bounded_report =
      FitHyperparameters(HyperparameterFitOptions(), rng2, &bounded);
  ASSERT_TRUE(bounded_report.params_at_bound.empty()) << bounded_report.BriefReport();
  Eigen::VectorXd gradient;
  LmlOf(unbounded, &gradient);
  EXPECT_LT(gradient.lpNorm<Eigen::Infinity>(), 1e-4) << gradient.transpose();
  EXPECT_NEAR(report.log_marginal_likelihood, bounded_report.log_marginal_likelihood, 1e-6);
}

TEST(FitHyperparametersTest, StrongPriorPinsItsParameter) {
  Rng data_rng(testing::TestSeed(19));
  GaussianProcess gp = MakeGp(2, 25, data_rng);
  HyperparameterFitOptions options;
  options.kernel_priors.resize(3);  // flat by default
  options.kernel_priors[2].mean_log = std::log(0.7);
  options.kernel_priors[2].stddev_log = 1e-3;
  options.noise_prior.mean_log = std::log(0.05);
  options.noise_prior.stddev_log = 1e-3;
  Rng rng(7);
  const HyperparameterFitReport report = FitHyperparameters(options, rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_NEAR(gp.kernel_log_params()(2), std::log(0.7), 1e-2);
  EXPECT_NEAR(std::log(gp.noise_variance()), std::log(0.05), 1e-2);
  EXPECT_NE(report.log_posterior, report.log_marginal_likelihood);
  // Without the prior the same data want a clearly different lengthscale.
  Rng same_data_rng(testing::TestSeed(19));
  GaussianProcess free_gp = MakeGp(2, 25, same_data_rng);
  Rng rng2(7);
  FitHyperparameters(HyperparameterFitOptions(), rng2, &free_gp);
  EXPECT_GT(std::abs(free_gp.kernel_log_params()(2) - std::log(0.7)), 0.1);
}

TEST(FitHyperparametersTest, InvalidOptionsAreRejectedNamingTheField) {
  struct Bad {
    std::string field;
    std::function<void(HyperparameterFitOptions*)> spoil;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<Bad> bad = {
      {"num_restarts", [](HyperparameterFitOptions* o) { o->num_restarts = -1; }},
      {"max_iterations", [](HyperparameterFitOptions* o) { o->max_iterations = 0; }},
      {"function_tolerance", [](HyperparameterFitOptions* o) { o->function_tolerance = 0.0; }},
      {"gradient_tolerance", [=](HyperparameterFitOptions* o) { o->gradient_tolerance = nan; }},
      {"parameter_tolerance", [](HyperparameterFitOptions* o) { o->parameter_tolerance = -1; }},
      {"min_noise_variance", [](HyperparameterFitOptions* o) { o->min_noise_variance = 0.0; }},
      {"max_noise_variance", [](HyperparameterFitOptions* o) { o->max_noise_variance = 1e-7; }},
      {"max_noise_variance", [=](HyperparameterFitOptions* o) { o->max_noise_variance = inf; }},
      {"min_lengthscale", [](HyperparameterFitOptions* o) { o->min_lengthscale = -1.0; }},
      {"max_lengthscale", [](HyperparameterFitOptions* o) { o->max_lengthscale = 1e-4; }},
      {"min_signal_variance", [=](HyperparameterFitOptions* o) { o->min_signal_variance = nan; }},
      {"max_signal_variance", [](HyperparameterFitOptions* o) { o->max_signal_variance = 0.0; }},
      {"start_max_lengthscale",
       [](HyperparameterFitOptions* o) { o->start_max_lengthscale = o->start_min_lengthscale; }},
      {"start_min_signal_variance",
       [](HyperparameterFitOptions* o) { o->start_min_signal_variance = 0.0; }},
      {"start_max_noise_variance",
       [=](HyperparameterFitOptions* o) { o->start_max_noise_variance = inf; }},
      {"lower_log_bounds", [](HyperparameterFitOptions* o) { o->lower_log_bounds = {0.0}; }},
      {"lower_log_bounds[1]",
       [](HyperparameterFitOptions* o) {
         o->lower_log_bounds = {0.0, 1.0};
         o->upper_log_bounds = {1.0, 0.5};
       }},
      {"upper_log_bounds[0]",
       [=](HyperparameterFitOptions* o) {
         o->lower_log_bounds = {0.0};
         o->upper_log_bounds = {nan};
       }},
      {"both finite or both infinite",
       [=](HyperparameterFitOptions* o) {
         o->lower_log_bounds = {-inf};
         o->upper_log_bounds = {1.0};
       }},
      {"kernel_priors[1].stddev_log",
       [](HyperparameterFitOptions* o) {
         o->kernel_priors.resize(2);
         o->kernel_priors[1].stddev_log = 0.0;
       }},
      {"noise_prior.mean_log", [=](HyperparameterFitOptions* o) { o->noise_prior.mean_log = inf; }},
      {"num_threads", [](HyperparameterFitOptions* o) { o->num_threads = -1; }},
  };
  Rng data_rng(testing::TestSeed(20));
  GaussianProcess gp = MakeGp(2, 6, data_rng);
  const GaussianProcess before = gp;
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.field);
    HyperparameterFitOptions options;
    b.spoil(&options);
    std::string error;
    EXPECT_FALSE(options.IsValid(&error));
    EXPECT_NE(error.find(b.field), std::string::npos) << error;
    Rng rng(1), untouched(1);
    try {
      FitHyperparameters(options, rng, &gp);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(b.field), std::string::npos) << e.what();
    }
    ExpectSameHyperparameters(gp, before);
    EXPECT_EQ(rng(), untouched());
  }
  std::string error;
  EXPECT_TRUE(HyperparameterFitOptions().IsValid(&error)) << error;
}

TEST(FitHyperparametersTest, BoundsOrPriorsOfTheWrongSizeAreRejected) {
  Rng data_rng(testing::TestSeed(21));
  GaussianProcess gp = MakeGp(2, 6, data_rng);  // 3 kernel log-params
  const GaussianProcess before = gp;
  HyperparameterFitOptions options;
  options.lower_log_bounds = {0.0, 0.0};
  options.upper_log_bounds = {1.0, 1.0};
  Rng rng(1);
  try {
    FitHyperparameters(options, rng, &gp);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lower_log_bounds has 2 entries"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("has 3 log-params"), std::string::npos) << e.what();
  }
  options = HyperparameterFitOptions();
  options.kernel_priors.resize(4);
  EXPECT_THROW(FitHyperparameters(options, rng, &gp), std::invalid_argument);
  EXPECT_THROW(FitHyperparameters(HyperparameterFitOptions(), rng, nullptr), std::invalid_argument);
  ExpectSameHyperparameters(gp, before);
}

// A composite kernel (product of a stationary kernel and a fixed task covariance, as in
// CGP-UCB) is fitted through the same code path; the index kernel's scale is a log-param.
TEST(FitHyperparametersTest, FitsACompositeKernelWithAnIndexPart) {
  Rng data_rng(testing::TestSeed(22));
  Eigen::MatrixXd M(2, 2);
  M << 1.0, 0.5, 0.5, 1.0;
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeMatern52({0}, true));
  parts.push_back(MakeIndexKernel(1, M));
  GaussianProcess gp(MakeProduct(std::move(parts)), 2);
  const int n = 20;
  Eigen::MatrixXd X = testing::UniformPoints(2, n, 0.0, 1.0, data_rng);
  Eigen::VectorXd y(n);
  for (int j = 0; j < n; ++j) {
    X(1, j) = j % 2;
    y(j) = std::sin(6.0 * X(0, j)) * (X(1, j) == 0 ? 1.0 : 0.6);
  }
  gp.AddObservations(X, y);
  const double before = LmlOf(gp);
  Rng rng(8);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_GT(report.log_marginal_likelihood, before);
  EXPECT_EQ(report.kernel_log_params.size(), 3);
  EXPECT_NEAR(LmlOf(gp), report.log_marginal_likelihood, 1e-9 * std::abs(before));
}

TEST(FitHyperparametersTest, BriefReportSummarizesTheFit) {
  Rng data_rng(testing::TestSeed(23));
  GaussianProcess gp = MakeGp(2, 10, data_rng);
  Rng rng(9);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  const std::string brief = report.BriefReport();
  EXPECT_NE(brief.find("fit succeeded"), std::string::npos) << brief;
  EXPECT_NE(brief.find("starts = 6"), std::string::npos) << brief;
  EXPECT_TRUE(report.termination == FitTermination::kConvergence ||
              report.termination == FitTermination::kNoConvergence)
      << FitTerminationName(report.termination);
  EXPECT_NE(brief.find("termination = " + FitTerminationName(report.termination)),
            std::string::npos)
      << brief;
}

// The names are Ceres' spelling, which the command line's JSON and the Python module show.
TEST(FitHyperparametersTest, TerminationNames) {
  EXPECT_EQ(FitTerminationName(FitTermination::kConvergence), "CONVERGENCE");
  EXPECT_EQ(FitTerminationName(FitTermination::kNoConvergence), "NO_CONVERGENCE");
  EXPECT_EQ(FitTerminationName(FitTermination::kFailure), "FAILURE");
  EXPECT_EQ(FitTerminationName(FitTermination::kNotRun), "NOT_RUN");
  EXPECT_EQ(HyperparameterFitReport().termination, FitTermination::kNotRun);
}

// A fit cut off after one iteration reports that it did not converge, and still uses the
// result.
TEST(FitHyperparametersTest, IterationLimitGivesNoConvergence) {
  Rng data_rng(testing::TestSeed(24));
  GaussianProcess gp = MakeGp(2, 10, data_rng);
  HyperparameterFitOptions options;
  options.num_restarts = 0;
  options.max_iterations = 1;
  Rng rng(9);
  const HyperparameterFitReport report = FitHyperparameters(options, rng, &gp);
  EXPECT_TRUE(report.success) << report.BriefReport();
  EXPECT_EQ(report.termination, FitTermination::kNoConvergence) << report.BriefReport();
}

}  // namespace
}  // namespace gpbandit
