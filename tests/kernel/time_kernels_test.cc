// The kernels over the round index: closed-form values, gradients against finite differences,
// and the posterior of a drifting model against the GP formulas computed here directly.
#include "gpbandit/kernel/time_kernels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;

Eigen::VectorXd Point(double x, double t) {
  Eigen::VectorXd p(2);
  p << x, t;
  return p;
}

TEST(ForgettingKernelTest, ValueIsOneMinusEpsilonToHalfTheLag) {
  const ForgettingKernel k(1, 0.19, false);
  // (1 - 0.19)^{|d|/2}: 0.81^1 = 0.81 at lag 2, 0.81^2 = 0.6561 at lag 4, 0.9 at lag 1.
  EXPECT_DOUBLE_EQ(k.Value(Point(0.3, 5), Point(0.9, 7)), 0.81);
  EXPECT_DOUBLE_EQ(k.Value(Point(0.3, 9), Point(0.9, 5)), 0.6561);
  EXPECT_NEAR(k.Value(Point(0.3, 2), Point(0.9, 3)), 0.9, 1e-15);
  EXPECT_EQ(k.Value(Point(0.3, 4), Point(0.9, 4)), 1.0);
  EXPECT_EQ(k.NumParams(), 0);
}

TEST(ForgettingKernelTest, GradientInTheRoundMatchesFiniteDifferences) {
  const ForgettingKernel k(1, 0.07, true);
  const Eigen::VectorXd b = Point(0.2, 3.0);
  for (double t : {0.5, 2.2, 3.7, 11.0}) {
    const Eigen::VectorXd a = Point(0.6, t);
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(2);
    k.AccumulateGradientA(a, b, 1.0, grad);
    ExpectGradientNear([&](const Eigen::VectorXd& p) { return k.Value(p, b); }, a, grad, 1e-6, 1e-9,
                       "t = " + std::to_string(t));
  }
}

TEST(ForgettingKernelTest, GradientInLogEpsilonMatchesFiniteDifferences) {
  ForgettingKernel k(1, 0.07, true);
  ASSERT_EQ(k.NumParams(), 1);
  EXPECT_EQ(k.ParamKinds(), std::vector<ParamKind>{ParamKind::kOther});
  EXPECT_DOUBLE_EQ(k.GetLogParams()(0), std::log(0.07));
  const Eigen::VectorXd a = Point(0.1, 9.0), b = Point(0.4, 2.0);
  Eigen::VectorXd grad(1);
  k.GradientLogParams(a, b, grad);
  const auto value_at = [&](const Eigen::VectorXd& theta) {
    ForgettingKernel copy = k;
    copy.SetLogParams(theta);
    return copy.Value(a, b);
  };
  ExpectGradientNear(value_at, k.GetLogParams(), grad, 1e-6, 1e-10);
}

TEST(ForgettingKernelTest, ProductWithASpatialKernelHasFiniteDifferenceGradients) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0}, true, 1.3, 0.4));
  parts.push_back(std::make_unique<ForgettingKernel>(1, 0.1, true));
  const std::unique_ptr<Kernel> k = MakeProduct(std::move(parts));
  const Eigen::VectorXd a = Point(0.25, 6.0), b = Point(0.7, 1.0);
  Eigen::VectorXd grad(k->NumParams());
  k->GradientLogParams(a, b, grad);
  const auto value_at = [&](const Eigen::VectorXd& theta) {
    std::unique_ptr<Kernel> copy = k->Clone();
    copy->SetLogParams(theta);
    return copy->Value(a, b);
  };
  ExpectGradientNear(value_at, k->GetLogParams(), grad, 1e-6, 1e-10);
  Eigen::VectorXd grad_a = Eigen::VectorXd::Zero(2);
  k->AccumulateGradientA(a, b, 1.0, grad_a);
  ExpectGradientNear([&](const Eigen::VectorXd& p) { return k->Value(p, b); }, a, grad_a, 1e-6,
                     1e-10);
}

TEST(ForgettingKernelTest, RejectsEpsilonOutsideTheOpenUnitInterval) {
  ExpectInvalid([] { ForgettingKernel(1, 0.0, false); }, "epsilon = 0");
  ExpectInvalid([] { ForgettingKernel(1, 1.0, false); }, "epsilon = 1");
  ExpectInvalid([] { ForgettingKernel(-1, 0.5, false); }, "time_dim = -1");
  ForgettingKernel k(0, 0.5, true);
  ExpectInvalid([&] { k.SetLogParams(Eigen::VectorXd::Constant(1, 0.0)); }, "log_epsilon = 0");
  EXPECT_DOUBLE_EQ(k.epsilon(), 0.5);  // unchanged by the refused call
}

// mu(x*) = k*^T (K + s I)^{-1} y and sigma^2(x*) = k** - k*^T (K + s I)^{-1} k* with
// k((x, t), (x', t')) = exp(-(x - x')^2 / (2 l^2)) (1 - eps)^{|t - t'| / 2}, written out here.
TEST(ForgettingKernelTest, PosteriorMatchesTheDirectFormula) {
  const double eps = 0.2, l = 0.3, noise = 0.01;
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0}, true, 1.0, l));
  parts.push_back(std::make_unique<ForgettingKernel>(1, eps, false));
  GaussianProcessOptions options;
  options.noise_variance = noise;
  options.standardize_outputs = false;
  GaussianProcess gp(MakeProduct(std::move(parts)), 2, options);
  const std::vector<Eigen::VectorXd> inputs = {Point(0.1, 0), Point(0.5, 1), Point(0.15, 2),
                                               Point(0.8, 3), Point(0.12, 6)};
  const std::vector<double> y = {1.0, -0.3, 0.4, 0.9, -1.2};
  for (std::size_t i = 0; i < inputs.size(); ++i) gp.AddObservation(inputs[i], y[i]);
  const auto direct_k = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    const double dx = a(0) - b(0), dt = std::abs(a(1) - b(1));
    return std::exp(-dx * dx / (2 * l * l)) * std::pow(1 - eps, dt / 2);
  };
  const int n = static_cast<int>(inputs.size());
  Eigen::MatrixXd K(n, n);
  Eigen::VectorXd Y(n);
  for (int i = 0; i < n; ++i) {
    Y(i) = y[static_cast<std::size_t>(i)];
    for (int j = 0; j < n; ++j)
      K(i, j) = direct_k(inputs[static_cast<std::size_t>(i)], inputs[static_cast<std::size_t>(j)]);
  }
  K.diagonal().array() += noise;
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  for (const Eigen::VectorXd& probe : {Point(0.12, 7), Point(0.12, 20), Point(0.5, 7)}) {
    Eigen::VectorXd ks(n);
    for (int i = 0; i < n; ++i) ks(i) = direct_k(probe, inputs[static_cast<std::size_t>(i)]);
    const double mean = ks.dot(llt.solve(Y));
    const double variance = 1.0 - ks.dot(llt.solve(ks));
    double gp_mean = 0, gp_variance = 0;
    gp.MeanAndVariance(probe, &gp_mean, &gp_variance);
    EXPECT_NEAR(gp_mean, mean, 1e-10) << probe.transpose();
    EXPECT_NEAR(gp_variance, variance, 1e-10) << probe.transpose();
  }
  // Far in the future the model has forgotten: the prior (mean 0, variance 1) within 0.8^25.
  double far_mean = 0, far_variance = 0;
  gp.MeanAndVariance(Point(0.12, 60), &far_mean, &far_variance);
  EXPECT_NEAR(far_mean, 0.0, 1e-2);
  EXPECT_NEAR(far_variance, 1.0, 1e-2);
}

TEST(EpochKernelTest, OneWithinAnEpochZeroAcross) {
  const EpochKernel k(1, 5);
  EXPECT_EQ(k.Value(Point(0, 0), Point(0, 4)), 1.0);
  EXPECT_EQ(k.Value(Point(0, 4), Point(0, 5)), 0.0);
  EXPECT_EQ(k.Value(Point(0, 5), Point(0, 9)), 1.0);
  EXPECT_EQ(k.Value(Point(0, 10), Point(0, 9)), 0.0);
  EXPECT_EQ(k.Epoch(14), 2);
  ExpectInvalid([] { EpochKernel(1, 0); }, "epoch_length = 0");
}

// A GP over (x, round) without standardization: a squared-exponential kernel of variance 2 and
// lengthscale 0.3 in x times `time` over the round.
GaussianProcess SpaceTimeGp(std::unique_ptr<Kernel> time) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0}, true, 2.0, 0.3));
  parts.push_back(std::move(time));
  GaussianProcessOptions options;
  options.standardize_outputs = false;
  return GaussianProcess(MakeProduct(std::move(parts)), 2, options);
}

// In a new epoch the posterior is exactly the prior: every covariance with the old epochs is 0.
TEST(EpochKernelTest, PosteriorInANewEpochIsExactlyThePrior) {
  GaussianProcess gp = SpaceTimeGp(std::make_unique<EpochKernel>(1, 3));
  for (int t = 0; t < 3; ++t) gp.AddObservation(Point(0.2 * t, t), 1.0 + t);
  double mean = 0, variance = 0;
  gp.MeanAndVariance(Point(0.2, 3), &mean, &variance);
  EXPECT_EQ(mean, 0.0);
  EXPECT_EQ(variance, 2.0);
  gp.MeanAndVariance(Point(0.2, 2), &mean, &variance);
  EXPECT_LT(variance, 0.1);  // within the epoch, the observation at 0.2 is still seen
}

// Epochs start at the listed rounds; the list is shared by the clones and read at every
// evaluation, so a start appended after observations of earlier rounds changes no covariance
// between them and cuts the later rounds off.
TEST(RestartKernelTest, EpochsStartAtTheSharedRoundsOfItsOwner) {
  auto starts = std::make_shared<std::vector<long>>(std::vector<long>{3, 7});
  const RestartKernel k(1, starts);
  EXPECT_EQ(k.Epoch(0), 0);
  EXPECT_EQ(k.Epoch(2), 0);
  EXPECT_EQ(k.Epoch(3), 1);
  EXPECT_EQ(k.Epoch(6), 1);
  EXPECT_EQ(k.Epoch(7), 2);
  EXPECT_EQ(k.Epoch(100), 2);
  EXPECT_EQ(k.Value(Point(0, 1), Point(0.5, 2)), 1.0);
  EXPECT_EQ(k.Value(Point(0, 2), Point(0, 3)), 0.0);
  const std::unique_ptr<Kernel> clone = k.Clone();
  EXPECT_EQ(clone->Value(Point(0, 8), Point(0, 12)), 1.0);
  starts->push_back(10);
  EXPECT_EQ(clone->Value(Point(0, 8), Point(0, 12)), 0.0);
  EXPECT_EQ(k.Value(Point(0, 8), Point(0, 9)), 1.0);
  EXPECT_EQ(k.Describe(), "restarts(dim=1)");
  ExpectInvalid([] { RestartKernel(-1, std::make_shared<std::vector<long>>()); }, "time_dim = -1");
  ExpectInvalid([] { RestartKernel(1, nullptr); }, "epoch_starts");
}

TEST(RestartKernelTest, PosteriorAfterARestartIsExactlyThePrior) {
  auto starts = std::make_shared<std::vector<long>>();
  GaussianProcess gp = SpaceTimeGp(std::make_unique<RestartKernel>(1, starts));
  for (int t = 0; t < 5; ++t) gp.AddObservation(Point(0.2 * t, t), 1.0 + t);
  double mean = 0, variance = 0;
  gp.MeanAndVariance(Point(0.2, 5), &mean, &variance);
  EXPECT_LT(variance, 0.1);  // no restart yet: round 5 sees them all
  starts->push_back(5);
  gp.MeanAndVariance(Point(0.2, 5), &mean, &variance);
  EXPECT_EQ(mean, 0.0);
  EXPECT_EQ(variance, 2.0);
  gp.MeanAndVariance(Point(0.2, 4), &mean, &variance);
  EXPECT_LT(variance, 0.1);
}

}  // namespace
}  // namespace gpbandit
