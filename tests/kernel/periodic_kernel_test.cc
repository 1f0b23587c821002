// The periodic kernel against its closed form (one and several dims, ARD and shared), its
// periodicity, its parameter layout and kinds, its spectral weights against the modified Bessel
// functions, and a GP with it. Gradients, symmetry, PSD Gram matrices, batch forms and features
// are checked with every kernel in kernel_test.cc and kernel_hooks_test.cc.
#include "gpbandit/kernel/periodic_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "numerics/math.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

double OneDim(double tau, double lengthscale, double period) {
  const double s = std::sin(kPi * std::abs(tau) / period);
  return std::exp(-2.0 * s * s / (lengthscale * lengthscale));
}

TEST(PeriodicKernelTest, OneDimMatchesTheClosedForm) {
  const PeriodicKernel kernel({0}, true, 1.7, 0.6, 0.25);
  for (double tau : {0.0, 0.03, 0.125, 0.25, 0.4, -0.61, 3.3}) {
    const Eigen::VectorXd a = Eigen::VectorXd::Constant(1, 0.2 + tau);
    const Eigen::VectorXd b = Eigen::VectorXd::Constant(1, 0.2);
    EXPECT_NEAR(kernel.Value(a, b), 1.7 * OneDim(tau, 0.6, 0.25), 1e-14) << tau;
  }
  // Half a period apart is the least correlated: exp(-2 / l^2).
  EXPECT_NEAR(kernel.Value(Eigen::VectorXd::Constant(1, 0.125), Eigen::VectorXd::Zero(1)),
              1.7 * std::exp(-2.0 / 0.36), 1e-14);
}

TEST(PeriodicKernelTest, SeveralDimsAreTheProductOfOneDimKernels) {
  PeriodicKernel ard({0, 2}, true, 1.3);
  Eigen::VectorXd log_params(5);
  log_params << std::log(1.3), std::log(0.5), std::log(0.9), std::log(0.4), std::log(2.0);
  ard.SetLogParams(log_params);
  const PeriodicKernel shared({0, 2}, false, 0.8, 0.7, 0.3);
  ASSERT_EQ(shared.NumParams(), 3);
  const Eigen::Vector3d a(0.1, 5.0, 0.9), b(0.75, -1.0, 0.2);
  EXPECT_NEAR(ard.Value(a, b), 1.3 * OneDim(0.65, 0.5, 0.4) * OneDim(0.7, 0.9, 2.0), 1e-14);
  EXPECT_NEAR(shared.Value(a, b), 0.8 * OneDim(0.65, 0.7, 0.3) * OneDim(0.7, 0.7, 0.3), 1e-14);
  EXPECT_EQ(ard.periods(), Eigen::Vector2d(0.4, 2.0));
}

TEST(PeriodicKernelTest, ShiftingByAPeriodChangesNothing) {
  const PeriodicKernel kernel({0, 1}, true, 1.0, 0.8, 0.3);
  Rng rng(testing::TestSeed(61));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 5, 0.0, 1.0, rng);
  for (int j = 1; j < X.cols(); ++j) {
    Eigen::VectorXd shifted = X.col(0);
    shifted(0) += 3 * 0.3;
    shifted(1) -= 0.3;
    EXPECT_NEAR(kernel.Value(shifted, X.col(j)), kernel.Value(X.col(0), X.col(j)), 1e-12);
  }
}

TEST(PeriodicKernelTest, GramAndCrossMatchTheClosedForm) {
  const PeriodicKernel kernel({1}, true, 0.9, 1.1, 0.5);
  Rng rng(testing::TestSeed(62));
  const Eigen::MatrixXd A = testing::UniformPoints(2, 6, -1.0, 1.0, rng);
  const Eigen::MatrixXd B = testing::UniformPoints(2, 4, -1.0, 1.0, rng);
  const Eigen::MatrixXd cross = kernel.Cross(A, B);
  const Eigen::MatrixXd gram = kernel.Gram(A);
  for (int i = 0; i < A.cols(); ++i) {
    for (int j = 0; j < B.cols(); ++j)
      EXPECT_NEAR(cross(i, j), 0.9 * OneDim(A(1, i) - B(1, j), 1.1, 0.5), 1e-14);
    for (int j = 0; j < A.cols(); ++j)
      EXPECT_NEAR(gram(i, j), 0.9 * OneDim(A(1, i) - A(1, j), 1.1, 0.5), 1e-14);
  }
  EXPECT_EQ(kernel.Diagonal(A), Eigen::VectorXd::Constant(6, 0.9));
}

TEST(PeriodicKernelTest, ParamsHaveNamesAndKinds) {
  const PeriodicKernel kernel({3, 5}, true);
  EXPECT_EQ(kernel.Describe(), "periodic(dims=3,5; ard)");
  EXPECT_EQ(kernel.MinInputDim(), 6);
  EXPECT_THAT(kernel.ParamNames(),
              ::testing::ElementsAre("periodic.log_variance", "periodic.log_lengthscale[0]",
                                     "periodic.log_lengthscale[1]", "periodic.log_period[0]",
                                     "periodic.log_period[1]"));
  EXPECT_THAT(
      kernel.ParamKinds(),
      ::testing::ElementsAre(ParamKind::kSignalVariance, ParamKind::kLengthscale,
                             ParamKind::kLengthscale, ParamKind::kPeriod, ParamKind::kPeriod));
  testing::ExpectInvalid([] { PeriodicKernel({0}, true, 1.0, 1.0, 0.0); }, "period");
  testing::ExpectInvalid([] { PeriodicKernel({}, true); }, "dims");
  EXPECT_EQ(MakeKernel("periodic", {0}, true, 2.0, 0.5)->Describe(), "periodic(dims=0; ard)");
}

// The spectral weights against e^{-z} I_n(z) from the standard library (an independent
// computation), across the regimes of the two algorithms (series for z <= 1, Miller above).
TEST(PeriodicKernelTest, SpectralWeightsAreScaledBesselFunctions) {
  for (double z : {1e-6, 0.3, 1.0, 2.5, 20.0, 300.0}) {
    const std::vector<double> weights = PeriodicSpectralWeights(z);
    double total = 0.0;
    for (double w : weights) total += w;
    EXPECT_NEAR(total, 1.0, 1e-14) << z;
    for (int n = 0; n < 6 && n < static_cast<int>(weights.size()); ++n) {
      const double expected = (n == 0 ? 1.0 : 2.0) * std::exp(-z) * std::cyl_bessel_i(n, z);
      EXPECT_NEAR(weights[static_cast<std::size_t>(n)], expected, 1e-13 * (1.0 + expected))
          << "z = " << z << ", n = " << n;
    }
  }
  EXPECT_THROW(PeriodicSpectralWeights(-1.0), std::invalid_argument);
  EXPECT_THROW(PeriodicSpectralWeights(2e8), std::invalid_argument);
}

// A GP with a periodic kernel extrapolates: its posterior at x + p equals that at x (exactly,
// since k(x + p, X) = k(x, X)), and a periodic signal observed on one period is predicted on the
// next two.
TEST(PeriodicKernelTest, GaussianProcessExtrapolatesAPeriodicSignal) {
  const double period = 0.25;
  GaussianProcessOptions options;
  options.noise_variance = 1e-6;
  GaussianProcess gp(MakePeriodic({0}, true, 1.0, 1.0, period), 1, options);
  const auto signal = [&](double x) {
    return std::sin(2.0 * kPi * x / period) + 0.3 * std::cos(4.0 * kPi * x / period);
  };
  for (int i = 0; i < 12; ++i) {
    const double x = period * i / 12.0;
    gp.AddObservation(Eigen::VectorXd::Constant(1, x), signal(x));
  }
  for (double x : {0.013, 0.1, 0.2}) {
    for (int shift : {1, 2}) {
      const Eigen::VectorXd far = Eigen::VectorXd::Constant(1, x + shift * period);
      EXPECT_NEAR(gp.Mean(far), gp.Mean(Eigen::VectorXd::Constant(1, x)), 1e-9);
      EXPECT_NEAR(gp.Mean(far), signal(x), 0.02) << x;
      EXPECT_LT(gp.Variance(far), 1e-3);
    }
  }
}

}  // namespace
}  // namespace gpbandit
