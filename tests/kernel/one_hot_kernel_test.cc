// OneHotKernel through its own interface: the embedding E(x), values and input gradients in
// closed form over an SE inner kernel, the batch forms against Value, names, copies and refused
// input. (categorical_kernel_test.cc compares it with the exchangeable kernel; kernel_cases.h
// runs the generic kernel properties on it.)
#include "gpbandit/kernel/one_hot_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

// Other coordinates 2 then 0 (in that order), labels in coordinates 1 (2 labels) and 3 (3
// labels): E(x) = [x2, x0, e2(x1), e3(x3)], 7 coordinates; inner SE, shared lengthscale 2,
// variance 1.5.
OneHotKernel MakeOneHotKernel() {
  return OneHotKernel(MakeSquaredExponential(FirstDims(7), false, 1.5, 2.0), {2, 0}, {1, 3},
                      {2, 3});
}

TEST(OneHotKernelTest, EmbeddingCopiesOtherCoordinatesInOrderThenOneHotLabels) {
  const OneHotKernel kernel = MakeOneHotKernel();
  EXPECT_EQ(kernel.embedding_dim(), 7);
  EXPECT_EQ(kernel.MinInputDim(), 4);
  Eigen::VectorXd expected(7);
  expected << -0.25, 0.5, 0, 1, 0, 0, 1;
  EXPECT_EQ(kernel.Embed(Eigen::Vector4d(0.5, 1.0, -0.25, 2.0)), expected);
  expected << 0.75, 0.1, 1, 0, 1, 0, 0;
  EXPECT_EQ(kernel.Embed(Eigen::Vector4d(0.1, 0.0, 0.75, 0.0)), expected);
}

TEST(OneHotKernelTest, ValueAndInputGradientInClosedForm) {
  const OneHotKernel kernel = MakeOneHotKernel();
  const Eigen::Vector4d a(0.5, 1.0, -0.25, 2.0), b(0.1, 0.0, 0.75, 0.0);
  // E(a) - E(b) = (-1, 0.4, -1, 1, -1, 0, 1): r^2 / l^2 = (1 + 0.16 + 4) / 4 = 1.29.
  const double value = 1.5 * std::exp(-0.5 * 1.29);
  EXPECT_NEAR(kernel.Value(a, b), value, 1e-15);
  EXPECT_NEAR(kernel.Value(b, a), value, 1e-15);
  EXPECT_DOUBLE_EQ(kernel.Value(a, a), 1.5);
  // d k / d a_d = -k (a_d - b_d) / l^2 on the copied coordinates, 0 on the label ones.
  Eigen::Vector4d grad = Eigen::Vector4d::Constant(10.0);  // accumulated onto
  kernel.AccumulateGradientA(a, b, 2.0, grad);
  EXPECT_NEAR(grad(0), 10.0 - 2.0 * value * 0.4 / 4.0, 1e-14);
  EXPECT_EQ(grad(1), 10.0);
  EXPECT_NEAR(grad(2), 10.0 + 2.0 * value * 1.0 / 4.0, 1e-14);
  EXPECT_EQ(grad(3), 10.0);
}

TEST(OneHotKernelTest, SameLabelsLeaveOnlyTheContinuousDistance) {
  const OneHotKernel kernel = MakeOneHotKernel();
  // Labels equal, x0 differs by 1: r^2 / l^2 = 1 / 4.
  EXPECT_NEAR(
      kernel.Value(Eigen::Vector4d(0.0, 1.0, 0.3, 2.0), Eigen::Vector4d(1.0, 1.0, 0.3, 2.0)),
      1.5 * std::exp(-0.125), 1e-15);
  // Any two distinct labels of one coordinate are equally far apart (r^2 / l^2 = 2 / 4).
  const double k01 =
      kernel.Value(Eigen::Vector4d(0.0, 0.0, 0.0, 0.0), Eigen::Vector4d(0.0, 0.0, 0.0, 1.0));
  const double k02 =
      kernel.Value(Eigen::Vector4d(0.0, 0.0, 0.0, 0.0), Eigen::Vector4d(0.0, 0.0, 0.0, 2.0));
  EXPECT_NEAR(k01, 1.5 * std::exp(-0.25), 1e-15);
  EXPECT_EQ(k01, k02);
}

TEST(OneHotKernelTest, BatchFormsAgreeWithValue) {
  const OneHotKernel kernel = MakeOneHotKernel();
  Eigen::MatrixXd A(4, 2), B(4, 3);
  A << 0.5, 0.1, 1, 0, -0.25, 0.75, 2, 0;
  B << 0.0, 0.3, -1.0, 0, 1, 1, 0.2, 0.4, 0.9, 1, 2, 0;
  const Eigen::MatrixXd K = kernel.Cross(A, B);
  ASSERT_EQ(K.rows(), 2);
  ASSERT_EQ(K.cols(), 3);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(K(i, j), kernel.Value(A.col(i), B.col(j)), 1e-14);
  const Eigen::VectorXd diagonal = kernel.Diagonal(B);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(diagonal(j), 1.5, 1e-15);
  ExpectInvalid([&] { kernel.Cross(A.topRows(3), B); }, "a batch has 3 rows");
}

TEST(OneHotKernelTest, ParamsAreTheInnerKernelsWithPrefixedNames) {
  OneHotKernel kernel = MakeOneHotKernel();
  const std::unique_ptr<Kernel> inner = MakeSquaredExponential(FirstDims(7), false, 1.5, 2.0);
  EXPECT_EQ(kernel.NumParams(), inner->NumParams());
  std::vector<std::string> expected = inner->ParamNames();
  for (std::string& name : expected) name = "one_hot." + name;
  EXPECT_EQ(kernel.ParamNames(), expected);
  EXPECT_EQ(kernel.ParamKinds(), inner->ParamKinds());
  EXPECT_EQ(kernel.Describe(), "one_hot(other=2,0; categorical=1,3; " + inner->Describe() + ")");
  // Setting the log-params sets the inner kernel's: variance 3 doubles k(x, x).
  Eigen::VectorXd log_params = kernel.GetLogParams();
  log_params(0) += std::log(2.0);
  kernel.SetLogParams(log_params);
  EXPECT_DOUBLE_EQ(kernel.Value(Eigen::Vector4d::Zero(), Eigen::Vector4d::Zero()), 3.0);
  EXPECT_EQ(kernel.inner().GetLogParams(), log_params);
}

TEST(OneHotKernelTest, ClonesAreIndependent) {
  OneHotKernel kernel = MakeOneHotKernel();
  const std::unique_ptr<Kernel> clone = kernel.Clone();
  Eigen::VectorXd log_params = kernel.GetLogParams();
  log_params(0) += 1.0;
  kernel.SetLogParams(log_params);
  EXPECT_DOUBLE_EQ(clone->Value(Eigen::Vector4d::Zero(), Eigen::Vector4d::Zero()), 1.5);
  EXPECT_EQ(clone->Describe(), kernel.Describe());
  const OneHotKernel copy(kernel);
  EXPECT_EQ(copy.GetLogParams(), log_params);
}

TEST(OneHotKernelTest, OneLabelCategoryEmbedsAsAConstant) {
  const OneHotKernel kernel(MakeSquaredExponential(FirstDims(2)), {0}, {1}, {1});
  EXPECT_EQ(kernel.embedding_dim(), 2);
  EXPECT_EQ(kernel.Embed(Eigen::Vector2d(0.5, 0.0)), Eigen::Vector2d(0.5, 1.0));
  EXPECT_NO_THROW(kernel.ValidatePoint(Eigen::Vector2d(0.5, 0.0), "x"));
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector2d(0.5, 1.0), "x"); },
                "x[1] = 1 is not a label index");
}

TEST(OneHotKernelTest, ValidatePointRefusesNonLabelsAndNonFiniteCoordinates) {
  const OneHotKernel kernel = MakeOneHotKernel();
  EXPECT_NO_THROW(kernel.ValidatePoint(Eigen::Vector4d(0.5, 1.0, -0.25, 2.0), "x"));
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector4d(0.5, 0.5, 0.0, 0.0), "x"); },
                "x[1] = 0.5 is not a label index");
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector4d(0.5, 0.0, 0.0, -1.0), "x"); },
                "x[3] = -1 is not a label index");
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector4d(0.5, 0.0, 0.0, 3.0), "x"); },
                "(an integer in [0, 3))");
  ExpectInvalid(
      [&] {
        kernel.ValidatePoint(
            Eigen::Vector4d(0.5, 0.0, std::numeric_limits<double>::infinity(), 0.0), "x");
      },
      "x[2] = inf is not finite");
  ExpectInvalid([&] { kernel.ValidatePoint(Eigen::Vector3d(0.5, 0.0, 0.0), "x"); }, "x has size 3");
}

TEST(OneHotKernelTest, ConstructorRefusesInconsistentArguments) {
  const auto inner = [] { return MakeSquaredExponential(FirstDims(3)); };
  ExpectInvalid(
      [&] {
        OneHotKernel(inner(), {0}, {1, 2}, {2});
      },
      "sizes has 1 entries but categorical_dims has 2");
  ExpectInvalid([&] { OneHotKernel(inner(), {0}, {1}, {0}); }, "sizes[0] = 0 must be >= 1");
  ExpectInvalid([&] { OneHotKernel(inner(), {0}, {}, {}); }, "categorical_dims: dims is empty");
  ExpectInvalid(
      [&] {
        OneHotKernel(inner(), {0, 0}, {1}, {2});
      },
      "other_dims: dims[1] = 0 is a duplicate");
  ExpectInvalid([&] { OneHotKernel(inner(), {}, {-1}, {3}); }, "dims[0] = -1 is negative");
  // Without other coordinates, the embedding is the labels alone.
  EXPECT_EQ(OneHotKernel(inner(), {}, {0}, {3}).embedding_dim(), 3);
}

}  // namespace
}  // namespace gpbandit
