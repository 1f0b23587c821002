// CategoricalKernel (exchangeable / Hamming-distance kernel) and OneHotKernel: closed-form
// values, exact features, validation. The generic kernel properties (gradients against finite
// differences, PSD Gram matrices, batch forms, hooks, unbiased features) run on both through
// kernel_cases.h.
#include "gpbandit/kernel/categorical_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/kernel/one_hot_kernel.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

TEST(CategoricalKernelTest, ValueIsTheExponentiatedWeightedHammingDistance) {
  // dims 1 and 2 hold labels; l = (0.5, 2), s2 = 1.5.
  CategoricalKernel kernel({1, 2}, {3, 4}, true, 1.5, 1.0);
  kernel.SetLogParams(Eigen::Vector3d(std::log(1.5), std::log(0.5), std::log(2.0)));
  const Eigen::Vector3d a(0.3, 2.0, 1.0);
  EXPECT_DOUBLE_EQ(kernel.Value(a, Eigen::Vector3d(-7.0, 2.0, 1.0)), 1.5);  // dim 0 is ignored
  EXPECT_NEAR(kernel.Value(a, Eigen::Vector3d(0.3, 0.0, 1.0)), 1.5 * std::exp(-2.0), 1e-15);
  EXPECT_NEAR(kernel.Value(a, Eigen::Vector3d(0.3, 2.0, 3.0)), 1.5 * std::exp(-0.5), 1e-15);
  EXPECT_NEAR(kernel.Value(a, Eigen::Vector3d(0.3, 1.0, 0.0)), 1.5 * std::exp(-2.5), 1e-15);
  // Every pair of distinct labels is equally correlated: exchangeable.
  EXPECT_EQ(kernel.Value(a, Eigen::Vector3d(0.0, 0.0, 1.0)),
            kernel.Value(a, Eigen::Vector3d(0.0, 1.0, 1.0)));
  EXPECT_EQ(kernel.Describe(), "categorical(dims=1,2; sizes=3,4; ard)");
  EXPECT_EQ(kernel.MinInputDim(), 3);
}

TEST(CategoricalKernelTest, SharedLengthscaleCountsDifferingCoordinates) {
  const CategoricalKernel kernel({0, 1}, {2, 2}, false, 1.0, 0.25);
  EXPECT_EQ(kernel.NumParams(), 2);
  EXPECT_NEAR(kernel.Value(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), std::exp(-8.0), 1e-15);
  EXPECT_NEAR(kernel.Value(Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 1)), std::exp(-4.0), 1e-15);
}

TEST(CategoricalKernelTest, ExactFeaturesReproduceTheKernelExactly) {
  CategoricalKernel kernel({0, 1}, {3, 2}, true, 0.7, 1.0);
  kernel.SetLogParams(Eigen::Vector3d(std::log(0.7), std::log(0.4), std::log(1.7)));
  Rng rng(3);
  // 3 x 2 exact features per coordinate: their Kronecker product (6 <= 64) is exact.
  const std::unique_ptr<KernelFeatures> phi = kernel.DrawFeatures(64, rng);
  Eigen::VectorXd pa, pb;
  for (int a0 = 0; a0 < 3; ++a0)
    for (int a1 = 0; a1 < 2; ++a1)
      for (int b0 = 0; b0 < 3; ++b0)
        for (int b1 = 0; b1 < 2; ++b1) {
          const Eigen::Vector2d a(a0, a1), b(b0, b1);
          phi->Evaluate(a, &pa);
          phi->Evaluate(b, &pb);
          EXPECT_NEAR(pa.dot(pb), kernel.Value(a, b), 1e-12)
              << a.transpose() << " | " << b.transpose();
        }
}

TEST(CategoricalKernelTest, RejectsBadArgumentsAndPointsThatAreNoLabels) {
  ExpectInvalid([] { CategoricalKernel({0, 1}, {3}); }, "sizes has 1 entries but dims has 2");
  ExpectInvalid([] { CategoricalKernel({0}, {0}); }, "sizes[0] = 0 must be >= 1");
  ExpectInvalid([] { CategoricalKernel({0}, {2}, true, -1.0); }, "variance");
  const CategoricalKernel kernel({1}, {3});
  kernel.ValidatePoint(Eigen::Vector2d(0.5, 2.0), "x");
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector2d(0.5, 1.5), "x"); },
                "x[1] = 1.5 is not a label index");
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector2d(0.5, 3.0), "x"); }, "[0, 3)");
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector2d(0.5, -1.0), "x"); }, "[0, 3)");
}

TEST(OneHotKernelTest, TwoLabelsDifferByTheirLengthscalesInsideTheRadialProfile) {
  // Inner: SE with ARD over [x0, e(c)] (1 + 3 coordinates), lengthscales (0.5, 1, 2, 4).
  std::unique_ptr<Kernel> inner = MakeSquaredExponential(FirstDims(4), true, 1.0, 1.0);
  inner->SetLogParams(
      (Eigen::VectorXd(5) << 0.0, std::log(0.5), 0.0, std::log(2.0), std::log(4.0)).finished());
  const OneHotKernel kernel(std::move(inner), {0}, {1}, {3});
  EXPECT_EQ(kernel.embedding_dim(), 4);
  EXPECT_EQ(kernel.Embed(Eigen::Vector2d(0.3, 2.0)), Eigen::Vector4d(0.3, 0.0, 0.0, 1.0));
  // Labels 0 and 2 differ: r^2 = (0.2 / 0.5)^2 + 1 / 1^2 + 1 / 4^2.
  const double r2 = 0.16 + 1.0 + 1.0 / 16.0;
  EXPECT_NEAR(kernel.Value(Eigen::Vector2d(0.1, 0.0), Eigen::Vector2d(0.3, 2.0)),
              std::exp(-0.5 * r2), 1e-15);
  EXPECT_NEAR(kernel.Value(Eigen::Vector2d(0.1, 1.0), Eigen::Vector2d(0.3, 1.0)),
              std::exp(-0.5 * 0.16), 1e-15);
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector2d(0.1, 3.0), "x"); },
                "x[1] = 3 is not a label index");
}

TEST(OneHotKernelTest, RejectsBadArguments) {
  ExpectInvalid([] { OneHotKernel(nullptr, {0}, {1}, {3}); }, "inner is null");
  ExpectInvalid([] { OneHotKernel(MakeMatern52(FirstDims(5)), {0}, {1}, {3}); },
                "the embedding has 4");
  ExpectInvalid(
      [] {
        OneHotKernel(MakeMatern52(FirstDims(2)), {0, 1}, {1}, {1});
      },
      "is in other_dims too");
}

}  // namespace
}  // namespace gpbandit
