// FeatureKernel: value, gradients against finite differences, batch forms against the pairwise
// definition, features, construction errors. (The hooks' generic properties: kernel_test.cc and
// kernel_hooks_test.cc run over the "feature" cases of kernel_cases.h.)
#include "gpbandit/kernel/feature_kernel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

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
  feature->calls = 0;
  const Eigen::MatrixXd gram = kernel.Gram(A);
  EXPECT_EQ(feature->calls, 5);
  EXPECT_TRUE(gram.isApprox(kernel.Cross(A, A), 1e-14));
  EXPECT_TRUE(kernel.Diagonal(A).isApprox(gram.diagonal(), 1e-14));
  const Eigen::MatrixXd W = Eigen::MatrixXd::Ones(5, 5) + Eigen::MatrixXd::Identity(5, 5);
  EXPECT_NEAR(kernel.ContractGradientLogParams(A, W)(0), (W.array() * gram.array()).sum(), 1e-12);
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
