#include "gpbandit/hyperparams/log_marginal_likelihood.h"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/numerics/random.h"
#include "numerics/thread_policy.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

constexpr double kLog2Pi = 1.8378770664093454835606594728112;

// Points whose coordinates 0 and 1 are in the unit cube and whose coordinate 2 is an item index
// in {0, 1, 2} (for the index kernel).
Eigen::MatrixXd MixedPoints(int n, Rng& rng) {
  Eigen::MatrixXd X = testing::UniformPoints(3, n, 0.0, 1.0, rng);
  std::uniform_int_distribution<int> item(0, 2);
  for (int j = 0; j < n; ++j) X(2, j) = item(rng);
  return X;
}

Eigen::MatrixXd TaskCovariance() {
  Eigen::MatrixXd M(3, 3);
  M << 1.0, 0.6, 0.2,  //
      0.6, 1.2, 0.4,   //
      0.2, 0.4, 0.9;
  return M;
}

struct KernelCase {
  std::string name;
  std::function<std::unique_ptr<Kernel>()> make;
};

std::vector<KernelCase> AllKernels() {
  const std::vector<int> xy{0, 1};
  return {
      {"se_ard", [=] { return MakeSquaredExponential(xy, true, 1.3, 0.4); }},
      {"se_shared", [=] { return MakeSquaredExponential(xy, false, 0.8, 0.3); }},
      {"matern12", [=] { return MakeMatern12(xy, true, 1.1, 0.5); }},
      {"matern32", [=] { return MakeMatern32(xy, true, 0.7, 0.3); }},
      {"matern52", [=] { return MakeMatern52(xy, true, 1.6, 0.35); }},
      {"linear", [=] { return MakeLinear(xy, true, 0.9, 0.8); }},
      {"constant", [] { return MakeConstant(0.7); }},
      {"index", [] { return MakeIndexKernel(2, TaskCovariance(), 1.4); }},
      {"sum",
       [=] {
         std::vector<std::unique_ptr<Kernel>> parts;
         parts.push_back(MakeMatern52(xy, true, 1.2, 0.3));
         parts.push_back(MakeLinear({0}, true, 0.3, 1.1));
         parts.push_back(MakeConstant(0.2));
         return MakeSum(std::move(parts));
       }},
      {"product_with_index",
       [=] {
         std::vector<std::unique_ptr<Kernel>> parts;
         parts.push_back(MakeSquaredExponential(xy, true, 1.1, 0.4));
         parts.push_back(MakeIndexKernel(2, TaskCovariance(), 0.8));
         return MakeProduct(std::move(parts));
       }},
      {"periodic", [=] { return MakePeriodic(xy, true, 1.2, 0.9, 0.6); }},
      {"product_of_stationary",
       [=] {
         // The Optimizer's default kernel with a context: actions x context.
         std::vector<std::unique_ptr<Kernel>> parts;
         parts.push_back(MakeMatern52({0}, true, 1.1, 0.3));
         parts.push_back(MakeMatern52({1}, true, 0.9, 0.5));
         return MakeProduct(std::move(parts));
       }},
      {"sum_of_products",
       [=] {
         std::vector<std::unique_ptr<Kernel>> product;
         product.push_back(MakeMatern32({0}, true, 0.9, 0.4));
         product.push_back(MakeIndexKernel(2, TaskCovariance(), 1.2));
         std::vector<std::unique_ptr<Kernel>> parts;
         parts.push_back(MakeProduct(std::move(product)));
         parts.push_back(MakeSquaredExponential({1}, true, 0.5, 0.6));
         return MakeSum(std::move(parts));
       }},
  };
}

// The gradient in [kernel log-params..., log noise] against central finite differences of the
// value, for every kernel and composite.
TEST(LogMarginalLikelihoodTest, GradientMatchesFiniteDifferencesForEveryKernel) {
  Rng rng(testing::TestSeed(41));
  for (const KernelCase& c : AllKernels()) {
    SCOPED_TRACE(c.name);
    const std::unique_ptr<Kernel> kernel = c.make();
    const int n = 14;
    const Eigen::MatrixXd X = MixedPoints(n, rng);
    const Eigen::VectorXd y = StandardNormalVector(n, rng);
    const double noise = 0.05;
    // Move the log-params off the constructor's round values.
    Eigen::VectorXd theta(kernel->NumParams() + 1);
    theta.head(kernel->NumParams()) =
        kernel->GetLogParams() + 0.1 * StandardNormalVector(kernel->NumParams(), rng);
    theta(kernel->NumParams()) = std::log(noise);

    auto value = [&](const Eigen::VectorXd& t) {
      const std::unique_ptr<Kernel> k = kernel->Clone();
      k->SetLogParams(t.head(k->NumParams()));
      return LogMarginalLikelihood(*k, X, y, std::exp(t(k->NumParams())), nullptr);
    };
    kernel->SetLogParams(theta.head(kernel->NumParams()));
    Eigen::VectorXd gradient;
    const double lml = LogMarginalLikelihood(*kernel, X, y, noise, &gradient);
    ASSERT_TRUE(std::isfinite(lml));
    ASSERT_EQ(gradient.size(), kernel->NumParams() + 1);
    // value() round-trips the noise through exp(log), hence not bit-identical.
    EXPECT_NEAR(lml, value(theta), 1e-12 * std::abs(lml));
    testing::ExpectGradientNear(value, theta, gradient, 1e-5, 1e-6, c.name);
  }
}

// Above ~50 points the inverse is computed blockwise (recursively, with uneven halves for odd
// sizes); the gradient must still match the value.
TEST(LogMarginalLikelihoodTest, BlockedInverseGradientMatchesFiniteDifferences) {
  Rng rng(testing::TestSeed(43));
  for (int n : {49, 131}) {
    SCOPED_TRACE(n);
    const std::unique_ptr<Kernel> kernel = MakeMatern52({0, 1}, true, 1.3, 0.3);
    const Eigen::MatrixXd X = testing::UniformPoints(2, n, 0.0, 1.0, rng);
    Eigen::VectorXd y(n);
    const Eigen::VectorXd noise = StandardNormalVector(n, rng);
    for (int j = 0; j < n; ++j) y(j) = std::sin(5.0 * X(0, j)) + 0.1 * noise(j);
    Eigen::VectorXd theta(4);
    theta << kernel->GetLogParams(), std::log(0.02);
    auto value = [&](const Eigen::VectorXd& t) {
      const std::unique_ptr<Kernel> k = kernel->Clone();
      k->SetLogParams(t.head(3));
      return LogMarginalLikelihood(*k, X, y, std::exp(t(3)), nullptr);
    };
    Eigen::VectorXd gradient;
    LogMarginalLikelihood(*kernel, X, y, 0.02, &gradient);
    testing::ExpectGradientNear(value, theta, gradient, 1e-5, 1e-5);
  }
}

// The Gram matrix, the inverse and the contraction are split by size alone, so one, two and
// three threads give bit-identical values and gradients, below and above the sizes where the
// splits and the parallel regions start (48, 64), for stationary ARD and shared-lengthscale
// kernels and composites (whose stationary parts take their own split contractions).
TEST(LogMarginalLikelihoodTest, ThreadCountDoesNotChangeValueOrGradient) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const ScopedParallelismForTesting parallel;  // small sizes too run on the threads given
  Rng rng(testing::TestSeed(47));
  const std::vector<int> xy{0, 1};
  std::vector<KernelCase> kernels = {
      {"matern52_ard", [=] { return MakeMatern52(xy, true, 1.3, 0.3); }},
      {"se_shared", [=] { return MakeSquaredExponential(xy, false, 0.8, 0.2); }},
  };
  for (const KernelCase& c : AllKernels())
    if (c.name == "sum" || c.name == "product_of_stationary") kernels.push_back(c);
  ASSERT_EQ(kernels.size(), 4u);
  for (const KernelCase& c : kernels) {
    for (int n : {30, 49, 64, 97, 130, 301}) {
      SCOPED_TRACE(c.name + ", n = " + std::to_string(n));
      const std::unique_ptr<Kernel> kernel = c.make();
      const Eigen::MatrixXd X = MixedPoints(n, rng);
      Eigen::VectorXd y(n);
      for (int j = 0; j < n; ++j) y(j) = std::sin(4.0 * X(0, j)) * std::cos(3.0 * X(1, j));
      Eigen::VectorXd g1, g2, g3;
      const double v1 = LogMarginalLikelihood(*kernel, X, y, 1e-3, &g1, 1e-2, 1);
      const double v2 = LogMarginalLikelihood(*kernel, X, y, 1e-3, &g2, 1e-2, 2);
      const double v3 = LogMarginalLikelihood(*kernel, X, y, 1e-3, &g3, 1e-2, 3);
      ASSERT_TRUE(std::isfinite(v1));
      EXPECT_EQ(v1, v2);
      EXPECT_EQ(v1, v3);
      EXPECT_EQ(g1, g2);
      EXPECT_EQ(g1, g3);
    }
  }
}

// One observation: log N(y; 0, k(x, x) + noise) in closed form.
TEST(LogMarginalLikelihoodTest, SinglePointMatchesClosedForm) {
  const std::unique_ptr<Kernel> kernel = MakeMatern52({0, 1}, true, 2.5, 0.3);
  Eigen::MatrixXd X(2, 1);
  X << 0.3, 0.7;
  Eigen::VectorXd y(1);
  y << -1.2;
  const double noise = 0.1;
  const double v = 2.5 + noise;
  const double expected = -0.5 * 1.2 * 1.2 / v - 0.5 * std::log(v) - 0.5 * kLog2Pi;
  Eigen::VectorXd gradient;
  EXPECT_NEAR(LogMarginalLikelihood(*kernel, X, y, noise, &gradient), expected, 1e-14);
  // d/d log s2 = s2 * d/dv, d/d log noise = noise * d/dv, with d/dv = (y^2/v - 1)/(2v); the
  // lengthscales do not enter k(x, x).
  const double d_dv = 0.5 * (1.2 * 1.2 / v - 1.0) / v;
  EXPECT_NEAR(gradient(0), 2.5 * d_dv, 1e-14);
  EXPECT_NEAR(gradient(1), 0.0, 1e-14);
  EXPECT_NEAR(gradient(2), 0.0, 1e-14);
  EXPECT_NEAR(gradient(3), noise * d_dv, 1e-14);
}

// A constant kernel c over n points: Ky = noise I + c 11^T, whose inverse and determinant are
// known (Sherman-Morrison, matrix determinant lemma).
TEST(LogMarginalLikelihoodTest, ConstantKernelMatchesClosedForm) {
  Rng rng(testing::TestSeed(7));
  const int n = 6;
  const double c = 0.8, noise = 0.3;
  const std::unique_ptr<Kernel> kernel = MakeConstant(c);
  const Eigen::MatrixXd X = testing::UniformPoints(2, n, 0.0, 1.0, rng);
  const Eigen::VectorXd y = StandardNormalVector(n, rng);
  const double sum = y.sum();
  const double quadratic = (y.squaredNorm() - c * sum * sum / (noise + n * c)) / noise;
  const double log_det = (n - 1) * std::log(noise) + std::log(noise + n * c);
  const double expected = -0.5 * quadratic - 0.5 * log_det - 0.5 * n * kLog2Pi;
  EXPECT_NEAR(LogMarginalLikelihood(*kernel, X, y, noise, nullptr), expected, 1e-12);
}

TEST(LogMarginalLikelihoodTest, NoDataGivesZeroAndZeroGradient) {
  const std::unique_ptr<Kernel> kernel = MakeSquaredExponential({0});
  Eigen::VectorXd gradient;
  EXPECT_EQ(
      LogMarginalLikelihood(*kernel, Eigen::MatrixXd(1, 0), Eigen::VectorXd(0), 0.1, &gradient),
      0.0);
  ASSERT_EQ(gradient.size(), 3);
  EXPECT_TRUE(gradient.isZero(0.0));
}

// Duplicated points with zero noise make Ky singular: the jitter ladder must still give a
// finite value and a finite gradient.
TEST(LogMarginalLikelihoodTest, DuplicatePointsWithZeroNoiseStayFinite) {
  const std::unique_ptr<Kernel> kernel = MakeSquaredExponential({0, 1}, true, 1.0, 0.5);
  Eigen::MatrixXd X(2, 4);
  X << 0.2, 0.2, 0.7, 0.7,  //
      0.4, 0.4, 0.1, 0.1;
  Eigen::VectorXd y(4);
  y << 0.5, 0.6, -1.0, -0.9;
  Eigen::VectorXd gradient;
  const double lml = LogMarginalLikelihood(*kernel, X, y, 0.0, &gradient);
  EXPECT_TRUE(std::isfinite(lml));
  EXPECT_TRUE(gradient.allFinite());
}

TEST(LogMarginalLikelihoodTest, RejectsBadArgumentsNamingThem) {
  const std::unique_ptr<Kernel> kernel = MakeSquaredExponential({0, 1});
  const Eigen::MatrixXd X = Eigen::MatrixXd::Zero(2, 3);
  const Eigen::VectorXd y = Eigen::VectorXd::Zero(3);
  auto message_of = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(message_of([&] {
              LogMarginalLikelihood(*kernel, X, Eigen::VectorXd(2), 0.1, nullptr);
            }).find("y has 2"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              LogMarginalLikelihood(*kernel, Eigen::MatrixXd::Zero(1, 3), y, 0.1, nullptr);
            }).find("X has 1 rows"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              LogMarginalLikelihood(*kernel, X, y, -1.0, nullptr);
            }).find("noise_variance"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              LogMarginalLikelihood(*kernel, X, y, std::numeric_limits<double>::quiet_NaN(),
                                    nullptr);
            }).find("noise_variance"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              LogMarginalLikelihood(*kernel, X, y, 0.1, nullptr, 0.0);
            }).find("max_relative_jitter"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              LogMarginalLikelihood(*kernel, X, y, 0.1, nullptr, 1e-2, -1);
            }).find("num_threads must be >= 0, got -1"),
            std::string::npos);
}

}  // namespace
}  // namespace gpbandit
