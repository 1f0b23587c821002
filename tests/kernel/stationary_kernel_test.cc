// StationaryKernel: closed-form values (Rasmussen & Williams eqs. 4.9, 4.14, 4.17), ARD and
// shared lengthscales, construction errors, r = 0 and huge r, and the accuracy of the
// vectorized (norm-based) batch forms on many points far from the origin.
#include "gpbandit/kernel/stationary_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

const StationaryFamily kFamilies[] = {StationaryFamily::kSquaredExponential,
                                      StationaryFamily::kMatern12, StationaryFamily::kMatern32,
                                      StationaryFamily::kMatern52};

// The profiles of R&W eqs. 4.9, 4.14 (nu = 3/2, 5/2) and the exponential kernel, written
// independently of the implementation.
double ClosedForm(StationaryFamily family, double s2, double r) {
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      return s2 * std::exp(-0.5 * r * r);
    case StationaryFamily::kMatern12:
      return s2 * std::exp(-r);
    case StationaryFamily::kMatern32:
      return s2 * (1.0 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r);
    case StationaryFamily::kMatern52:
      return s2 * (1.0 + std::sqrt(5.0) * r + 5.0 * r * r / 3.0) * std::exp(-std::sqrt(5.0) * r);
  }
  return NAN;
}

TEST(StationaryKernelTest, SquaredExponentialAtUnitDistance) {
  const StationaryKernel kernel(StationaryFamily::kSquaredExponential, {0}, true, 2.0, 0.5);
  // |a - b| = 0.5 = one lengthscale, so r = 1.
  EXPECT_NEAR(kernel.Value(Eigen::Vector2d(0.25, 9.0), Eigen::Vector2d(-0.25, -3.0)),
              2.0 * std::exp(-0.5), 1e-15);
}

TEST(StationaryKernelTest, ClosedFormsWithArdLengthscales) {
  const Eigen::Vector2d lengthscales(0.7, 2.5);
  for (StationaryFamily family : kFamilies) {
    StationaryKernel kernel(family, {0, 2}, true, 1.0, 1.0);
    Eigen::Vector3d log_params(std::log(1.6), std::log(lengthscales(0)), std::log(lengthscales(1)));
    kernel.SetLogParams(log_params);
    EXPECT_NEAR(kernel.variance(), 1.6, 1e-14);
    EXPECT_TRUE(kernel.lengthscales().isApprox(lengthscales, 1e-14));
    for (double r : {0.0, 0.3, 1.0, 2.7}) {
      // Scaled offsets (0.6 r, 0.8 r) have norm r; coordinate 1 is not in dims.
      const Eigen::Vector3d a(0.1, 5.0, -0.2);
      const Eigen::Vector3d b(0.1 + 0.6 * r * lengthscales(0), -7.0,
                              -0.2 + 0.8 * r * lengthscales(1));
      EXPECT_NEAR(kernel.Value(a, b), ClosedForm(family, 1.6, r), 1e-13)
          << kernel.Describe() << " r = " << r;
    }
  }
}

TEST(StationaryKernelTest, SharedLengthscaleScalesEveryDim) {
  for (StationaryFamily family : kFamilies) {
    const StationaryKernel kernel(family, {0, 1}, false, 0.9, 1.5);
    EXPECT_EQ(kernel.NumParams(), 2);
    const Eigen::Vector2d a(0.0, 0.0);
    const Eigen::Vector2d b(1.5 * 0.6, 1.5 * 0.8);  // r = 1
    EXPECT_NEAR(kernel.Value(a, b), ClosedForm(family, 0.9, 1.0), 1e-14);
  }
}

TEST(StationaryKernelTest, DescribeAndParamNames) {
  const StationaryKernel ard(StationaryFamily::kMatern52, {0, 1}, true);
  EXPECT_EQ(ard.Describe(), "matern52(dims=0,1; ard)");
  EXPECT_THAT(ard.ParamNames(),
              ::testing::ElementsAre("matern52.log_variance", "matern52.log_lengthscale[0]",
                                     "matern52.log_lengthscale[1]"));
  const StationaryKernel shared(StationaryFamily::kSquaredExponential, {3}, false);
  EXPECT_EQ(shared.Describe(), "se(dims=3; shared)");
  EXPECT_EQ(shared.MinInputDim(), 4);
  EXPECT_THAT(shared.ParamNames(), ::testing::ElementsAre("se.log_variance", "se.log_lengthscale"));
}

TEST(StationaryKernelTest, ConstructorRejectsBadArguments) {
  using F = StationaryFamily;
  EXPECT_THAT([] { StationaryKernel(F::kMatern32, {}); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("dims is empty")));
  EXPECT_THAT(
      [] {
        StationaryKernel(F::kMatern32, {0, -1});
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("dims[1] = -1 is negative")));
  EXPECT_THAT(
      [] {
        StationaryKernel(F::kMatern32, {2, 2});
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("dims[1] = 2 is a duplicate")));
  EXPECT_THAT([] { StationaryKernel(F::kSquaredExponential, {0}, true, -1.0); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("variance = -1")));
  EXPECT_THAT([] { StationaryKernel(F::kSquaredExponential, {0}, true, 0.0); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("variance = 0")));
  EXPECT_THAT([] { StationaryKernel(F::kMatern12, {0}, true, 1.0, 0.0); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("lengthscale = 0")));
  EXPECT_THAT([] { StationaryKernel(F::kMatern12, {0}, true, 1.0, NAN); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("lengthscale = nan")));
  EXPECT_THAT(
      [] { StationaryKernel(F::kMatern12, {0}, true, std::numeric_limits<double>::infinity()); },
      ThrowsMessage<std::invalid_argument>(HasSubstr("variance = inf")));
  EXPECT_THAT([] { StationaryKernel(F::kMatern12, {0}, true, 1.0, -2.0); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("matern12")));
}

TEST(StationaryKernelTest, ValidatePointChecksOnlyItsDims) {
  const StationaryKernel kernel(StationaryFamily::kMatern32, {1, 3});
  // Coordinates 0 and 2 are not read, so a NaN there is none of this kernel's business.
  EXPECT_NO_THROW(kernel.ValidatePoint(Eigen::Vector4d(NAN, 0.5, NAN, 1.0), "x"));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector4d(0.0, 0.5, 0.0, INFINITY), "x_new"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("x_new[3] = inf")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector3d(0.0, 0.5, 0.0), "x_new"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("x_new has size 3")));
}

TEST(StationaryKernelTest, ZeroDistanceGivesVarianceAndZeroGradients) {
  for (StationaryFamily family : kFamilies) {
    const StationaryKernel kernel(family, {0, 1}, true, 1.3, 0.4);
    const Eigen::Vector2d a(0.3, -0.8);
    EXPECT_DOUBLE_EQ(kernel.Value(a, a), 1.3);
    Eigen::Vector2d grad_a = Eigen::Vector2d::Zero();
    kernel.AccumulateGradientA(a, a, 1.0, grad_a);
    EXPECT_EQ(grad_a, Eigen::Vector2d::Zero());
    Eigen::Vector3d grad_theta;
    kernel.GradientLogParams(a, a, grad_theta);
    EXPECT_DOUBLE_EQ(grad_theta(0), 1.3);
    EXPECT_EQ(grad_theta(1), 0.0);
    EXPECT_EQ(grad_theta(2), 0.0);
  }
}

TEST(StationaryKernelTest, Matern12GradientNearZeroDistanceStaysFinite) {
  // h = exp(-r) / r blows up as r -> 0, but every gradient multiplies it by d_k or d_k^2.
  const StationaryKernel kernel(StationaryFamily::kMatern12, {0, 1}, true, 1.0, 1.0);
  const Eigen::Vector2d a(0.0, 0.2);
  const Eigen::Vector2d b(3e-150, 0.2);  // r^2 = 9e-300 is still representable
  Eigen::Vector2d grad_a = Eigen::Vector2d::Zero();
  kernel.AccumulateGradientA(a, b, 1.0, grad_a);
  EXPECT_TRUE(grad_a.allFinite());
  EXPECT_NEAR(grad_a(0), 1.0, 1e-12);  // d/da exp(-|a - b|) = sign(b - a) exp(-r)
  EXPECT_EQ(grad_a(1), 0.0);
}

TEST(StationaryKernelTest, FarApartIsExactlyZero) {
  for (StationaryFamily family : kFamilies) {
    const StationaryKernel kernel(family, {0}, true, 1.0, 1.0);
    const Eigen::VectorXd a = Eigen::VectorXd::Constant(1, 1e300);
    const Eigen::VectorXd b = Eigen::VectorXd::Constant(1, -1e300);  // a - b overflows to inf
    EXPECT_EQ(kernel.Value(a, b), 0.0);
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(1);
    kernel.AccumulateGradientA(a, b, 1.0, grad);
    EXPECT_EQ(grad(0), 0.0);
    Eigen::MatrixXd X(1, 2);
    X << 1e300, -1e300;
    const Eigen::MatrixXd K = kernel.Gram(X);
    // Eigen's vectorized exp saturates at the smallest denormals instead of 0.
    EXPECT_LT(K(0, 1), 1e-300);
    EXPECT_GE(K(0, 1), 0.0);
    EXPECT_EQ(K(0, 0), 1.0);
  }
}

TEST(StationaryKernelTest, BatchFormsStayAccurateFarFromTheOrigin) {
  // Norm-based distances cancel badly for nearby points with large coordinates; the centering
  // must keep the result close to the pairwise definition.
  Rng rng(testing::TestSeed(21));
  Eigen::MatrixXd X = testing::UniformPoints(6, 400, -1e-3, 1e-3, rng);
  X.array() += 1e4;
  for (StationaryFamily family : kFamilies) {
    const StationaryKernel kernel(family, FirstDims(6), true, 1.0, 2e-3);
    const Eigen::MatrixXd K = kernel.Gram(X);
    double worst = 0.0;
    for (int j = 0; j < X.cols(); j += 7)
      for (int i = 0; i < X.cols(); i += 3)
        worst = std::max(worst, std::abs(K(i, j) - kernel.Value(X.col(i), X.col(j))));
    EXPECT_LT(worst, 1e-9) << kernel.Describe();
  }
}

TEST(StationaryKernelTest, ContractionOfGramIsConsistentWithScaling) {
  // d/dlog s2 of sum_ij W_ij k_ij is sum_ij W_ij k_ij itself: an identity independent of the
  // implementation's slope formulas.
  Rng rng(testing::TestSeed(22));
  const Eigen::MatrixXd X = testing::UniformPoints(3, 50, -2.0, 2.0, rng);
  const Eigen::MatrixXd W = Eigen::MatrixXd::Ones(50, 50);
  for (StationaryFamily family : kFamilies) {
    const StationaryKernel kernel(family, FirstDims(3), true, 0.7, 0.9);
    EXPECT_NEAR(kernel.ContractGradientLogParams(X, W)(0), kernel.Gram(X).sum(), 1e-10);
  }
}

TEST(StationaryKernelTest, ContractRejectsMismatchedWeights) {
  const StationaryKernel kernel(StationaryFamily::kMatern52, {0});
  EXPECT_THAT(
      [&] {
        kernel.ContractGradientLogParams(Eigen::MatrixXd::Zero(1, 3), Eigen::MatrixXd::Zero(3, 2));
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("W is 3 x 2, expected 3 x 3")));
}

// The one-pass path of single-point predictions against the pairwise definitions: values
// against Value, weighted gradients against a sum of AccumulateGradientA, for every family,
// ARD or not, on a subset of the input dims (the others must get no gradient).
TEST(StationaryKernelTest, ValuesAndSlopesMatchThePairwiseDefinitions) {
  Rng rng(testing::TestSeed(77));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (StationaryFamily family :
       {StationaryFamily::kSquaredExponential, StationaryFamily::kMatern12,
        StationaryFamily::kMatern32, StationaryFamily::kMatern52}) {
    for (bool ard : {true, false}) {
      StationaryKernel k(family, {0, 2}, ard, 1.7, 0.4);
      Eigen::VectorXd log_params = k.GetLogParams();
      for (int j = 1; j < log_params.size(); ++j) log_params(j) += 0.3 * j;
      k.SetLogParams(log_params);
      Eigen::MatrixXd X(3, 7);
      for (int c = 0; c < X.cols(); ++c)
        for (int r = 0; r < X.rows(); ++r) X(r, c) = u(rng);
      const Eigen::Vector3d x(u(rng), u(rng), u(rng));
      Eigen::VectorXd c(X.cols());
      for (int j = 0; j < c.size(); ++j) c(j) = u(rng);
      Eigen::VectorXd values, slopes;
      k.ValuesAndSlopes(x, X, &values, &slopes);
      ASSERT_EQ(values.size(), X.cols());
      Eigen::VectorXd expected = Eigen::VectorXd::Zero(3);
      for (int j = 0; j < X.cols(); ++j) {
        EXPECT_NEAR(values(j), k.Value(x, X.col(j)), 1e-13)
            << "family " << static_cast<int>(family);
        k.AccumulateGradientA(x, X.col(j), c(j), expected);
      }
      Eigen::VectorXd grad = Eigen::VectorXd::Constant(3, 0.25);  // accumulates onto it
      k.AccumulateWeightedGradientA(x, X, slopes, c, 1.0, grad);
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(grad(i), 0.25 + expected(i), 1e-12) << "family " << static_cast<int>(family);
      EXPECT_EQ(grad(1), 0.25);  // dim 1 is not the kernel's
      Eigen::VectorXd values_only;
      k.ValuesAndSlopes(x, X, &values_only, nullptr);
      EXPECT_EQ(values_only, values);
    }
  }
}

}  // namespace
}  // namespace gpbandit
