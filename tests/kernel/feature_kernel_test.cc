// FeatureKernel: value, gradients against finite differences, batch forms against the pairwise
// definition, features, construction errors. (The hooks' generic properties: kernel_test.cc and
// kernel_hooks_test.cc run over the "feature" cases of kernel_cases.h.)
#include "gpbandit/kernel/feature_kernel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <stdexcept>

#include "tests/kernel/kernel_cases.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;

// phi(u) = u_0 - 2 u_1, counting its calls.
class CountingFeature : public ScalarFeature {
 public:
  double Value(const ConstVectorRef& u) const override {
    ++calls;
    return u(0) - 2.0 * u(1);
  }
  void AccumulateGradient(const ConstVectorRef&, double scale, VectorRef grad) const override {
    grad(0) += scale;
    grad(1) -= 2.0 * scale;
  }
  std::string Describe() const override { return "counting"; }
  mutable std::atomic<int> calls{0};
};

TEST(FeatureKernelTest, ValueIsTheVarianceTimesTheFeatures) {
  const auto kernel = testing::MakeSineFeatureKernel(0.7);
  const Eigen::Vector2d a(0.3, -0.4), b(1.1, 0.5);
  const double phi_a = std::sin(0.3) + 0.5 * std::tanh(-0.4) - 0.2;
  const double phi_b = std::sin(1.1) + 0.5 * std::tanh(0.5) - 0.2;
  EXPECT_NEAR(kernel->Value(a, b), 0.7 * phi_a * phi_b, 1e-15);
  EXPECT_EQ(kernel->Describe(), "feature(sine)");
  EXPECT_EQ(kernel->MinInputDim(), 2);
  EXPECT_EQ(kernel->ParamKinds(), std::vector<ParamKind>{ParamKind::kSignalVariance});
}

TEST(FeatureKernelTest, GradientsMatchFiniteDifferences) {
  auto kernel = testing::MakeSineFeatureKernel(0.7);
  const Eigen::Vector2d a(0.3, -0.4), b(1.1, 0.5);
  Eigen::VectorXd grad_a = Eigen::VectorXd::Zero(2);
  kernel->AccumulateGradientA(a, b, 1.0, grad_a);
  ExpectGradientNear([&](const Eigen::VectorXd& x) { return kernel->Value(x, b); }, a, grad_a);
  Eigen::VectorXd grad_p(1);
  kernel->GradientLogParams(a, b, grad_p);
  const Eigen::VectorXd p0 = kernel->GetLogParams();
  ExpectGradientNear(
      [&](const Eigen::VectorXd& p) {
        kernel->SetLogParams(p);
        const double v = kernel->Value(a, b);
        kernel->SetLogParams(p0);
        return v;
      },
      p0, grad_p);
}

TEST(FeatureKernelTest, BatchFormsCallTheFeatureOncePerPoint) {
  auto feature = std::make_shared<CountingFeature>();
  const FeatureKernel kernel(feature, 2, 1.5);
  Rng rng(7);
  const Eigen::MatrixXd A = testing::UniformPoints(2, 5, -1.0, 1.0, rng);
  const Eigen::MatrixXd B = testing::UniformPoints(2, 3, -1.0, 1.0, rng);
  feature->calls = 0;
  const Eigen::MatrixXd cross = kernel.Cross(A, B);
  EXPECT_EQ(feature->calls, 8);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(cross(i, j), 1.5 * (A(0, i) - 2 * A(1, i)) * (B(0, j) - 2 * B(1, j)), 1e-14);
  // The Gram matrix of A, kept from Cross, calls phi not at all; of new points, once per point.
  feature->calls = 0;
  const Eigen::MatrixXd gram = kernel.Gram(A);
  EXPECT_EQ(feature->calls, 0);
  const Eigen::MatrixXd C = testing::UniformPoints(2, 4, -1.0, 1.0, rng);
  feature->calls = 0;
  EXPECT_TRUE(kernel.Gram(C).isApprox(kernel.Cross(C, C), 1e-14));
  EXPECT_EQ(feature->calls, 4 + 4);
  EXPECT_TRUE(gram.isApprox(kernel.Cross(A, A), 1e-14));
  EXPECT_TRUE(kernel.Diagonal(A).isApprox(gram.diagonal(), 1e-14));
  const Eigen::MatrixXd W = Eigen::MatrixXd::Ones(5, 5) + Eigen::MatrixXd::Identity(5, 5);
  EXPECT_NEAR(kernel.ContractGradientLogParams(A, W)(0), (W.array() * gram.array()).sum(), 1e-12);
}

// phi(u) = u_0 - 2 u_1 written out, the closed form the kernels' values are checked against.
double LinearFeatureValue(const Eigen::VectorXd& u) { return u(0) - 2.0 * u(1); }

TEST(FeatureKernelTest, TheObservationsFeatureValuesAreComputedOncePerPoint) {
  auto feature = std::make_shared<CountingFeature>();
  const FeatureKernel kernel(feature, 2, 1.5);
  Rng rng(11);
  Eigen::MatrixXd X = testing::UniformPoints(2, 6, -1.0, 1.0, rng);
  const Eigen::Vector2d x(0.25, -0.5);
  KernelPointCache cache;
  auto expect_cross_with_point = [&] {
    kernel.CrossWithPoint(x, X, true, &cache);
    ASSERT_EQ(cache.values.size(), X.cols());
    for (Eigen::Index j = 0; j < X.cols(); ++j)
      EXPECT_NEAR(cache.values(j), 1.5 * LinearFeatureValue(x) * LinearFeatureValue(X.col(j)),
                  1e-14)
          << "column " << j;
  };
  feature->calls = 0;
  expect_cross_with_point();
  EXPECT_EQ(feature->calls, 1 + 6);
  // The same points again, then one observation more: phi at x, and at the new column.
  feature->calls = 0;
  expect_cross_with_point();
  EXPECT_EQ(feature->calls, 1);
  X.conservativeResize(Eigen::NoChange, 7);
  X.col(6) = Eigen::Vector2d(0.9, 0.1);
  feature->calls = 0;
  expect_cross_with_point();
  EXPECT_EQ(feature->calls, 2);
  // The Gram matrix and the predictions' Cross(X, new points) read the same kept values.
  feature->calls = 0;
  const Eigen::MatrixXd gram = kernel.Gram(X);
  const Eigen::MatrixXd cross = kernel.Cross(X, Eigen::MatrixXd(x));
  EXPECT_EQ(feature->calls, 1);
  EXPECT_NEAR(gram(6, 2), 1.5 * LinearFeatureValue(X.col(6)) * LinearFeatureValue(X.col(2)), 1e-14);
  EXPECT_NEAR(cross(6, 0), 1.5 * LinearFeatureValue(X.col(6)) * LinearFeatureValue(x), 1e-14);
  // A changed column: it and every column after it are computed again.
  X(0, 3) += 1e-12;
  feature->calls = 0;
  expect_cross_with_point();
  EXPECT_EQ(feature->calls, 1 + 4);
  // k(x, x) calls phi once.
  feature->calls = 0;
  EXPECT_NEAR(kernel.Value(x, x), 1.5 * LinearFeatureValue(x) * LinearFeatureValue(x), 1e-14);
  EXPECT_EQ(feature->calls, 1);
}

// phi(u) = scale (u_0 - 2 u_1); throws at u_0 > 5.
class ScaledThrowingFeature : public ScalarFeature {
 public:
  explicit ScaledThrowingFeature(double scale) : scale_(scale) {}
  double Value(const ConstVectorRef& u) const override {
    if (u(0) > 5.0) throw std::invalid_argument("u_0 > 5");
    return scale_ * LinearFeatureValue(u);
  }
  void AccumulateGradient(const ConstVectorRef&, double, VectorRef) const override {}
  std::string Describe() const override { return "scaled"; }

 private:
  double scale_;
};

TEST(FeatureKernelTest, KeptValuesBelongToTheirFeatureAndSurviveAThrow) {
  Rng rng(12);
  const Eigen::MatrixXd X = testing::UniformPoints(2, 5, -1.0, 1.0, rng);
  const Eigen::Vector2d x(0.5, 0.25);
  // Two kernels of different features on the same points, in turn, and a feature made after
  // another was destroyed (it may take its address).
  for (int round = 0; round < 3; ++round) {
    for (double scale : {1.0, -3.0}) {
      const FeatureKernel kernel(std::make_shared<ScaledThrowingFeature>(scale), 2);
      KernelPointCache cache;
      kernel.CrossWithPoint(x, X, false, &cache);
      for (Eigen::Index j = 0; j < X.cols(); ++j)
        EXPECT_NEAR(cache.values(j),
                    scale * scale * LinearFeatureValue(x) * LinearFeatureValue(X.col(j)), 1e-14);
    }
  }
  // A throw on a new column leaves the kept values of the earlier points right.
  const FeatureKernel kernel(std::make_shared<ScaledThrowingFeature>(2.0), 2);
  KernelPointCache cache;
  kernel.CrossWithPoint(x, X, false, &cache);
  Eigen::MatrixXd more = X;
  more.conservativeResize(Eigen::NoChange, 6);
  more.col(5) = Eigen::Vector2d(7.0, 0.0);
  ExpectInvalid([&] { kernel.CrossWithPoint(x, more, false, &cache); }, "u_0 > 5");
  kernel.CrossWithPoint(x, X, false, &cache);
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    EXPECT_NEAR(cache.values(j), 4.0 * LinearFeatureValue(x) * LinearFeatureValue(X.col(j)), 1e-14);
}

TEST(FeatureKernelTest, TheExactFeatureReproducesTheKernel) {
  const auto kernel = testing::MakeSineFeatureKernel(0.7);
  Rng rng(3);
  const auto features = kernel->DrawFeatures(10, rng);
  ASSERT_EQ(features->size(), 1);
  const Eigen::Vector2d a(0.3, -0.4), b(1.1, 0.5);
  Eigen::VectorXd fa, fb;
  features->Evaluate(a, &fa);
  features->Evaluate(b, &fb);
  EXPECT_NEAR(fa.dot(fb), kernel->Value(a, b), 1e-14);
}

TEST(FeatureKernelTest, ConstructionRejectsBadArguments) {
  ExpectInvalid([] { FeatureKernel(nullptr, 2); }, "feature is null");
  ExpectInvalid([] { FeatureKernel(std::make_shared<CountingFeature>(), -1); }, "min_input_dim");
  ExpectInvalid([] { FeatureKernel(std::make_shared<CountingFeature>(), 2, 0.0); }, "variance");
  auto kernel = testing::MakeSineFeatureKernel(0.7);
  ExpectInvalid([&] { kernel->SetLogParams(Eigen::VectorXd::Zero(2)); }, "feature(sine)");
}

}  // namespace
}  // namespace gpbandit
