// ConstantKernel: value, gradients, construction errors.
#include "gpbandit/kernel/constant_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(ConstantKernelTest, ValueIsTheVarianceEverywhere) {
  const ConstantKernel kernel(2.5);
  EXPECT_DOUBLE_EQ(kernel.Value(Eigen::Vector2d(0.0, 1.0), Eigen::Vector2d(-40.0, 3.0)), 2.5);
  EXPECT_EQ(kernel.MinInputDim(), 0);
  EXPECT_EQ(kernel.Describe(), "constant()");
  Eigen::MatrixXd X = Eigen::MatrixXd::Random(3, 4);
  EXPECT_EQ(kernel.Gram(X), Eigen::MatrixXd::Constant(4, 4, 2.5));
  EXPECT_EQ(kernel.Cross(X, X.leftCols(2)), Eigen::MatrixXd::Constant(4, 2, 2.5));
}

TEST(ConstantKernelTest, Gradients) {
  ConstantKernel kernel(1.0);
  kernel.SetLogParams(Eigen::VectorXd::Constant(1, std::log(0.2)));
  EXPECT_NEAR(kernel.variance(), 0.2, 1e-15);
  const Eigen::Vector2d a(0.3, 0.4), b(1.0, -1.0);
  Eigen::Vector2d grad_a(7.0, 8.0);
  kernel.AccumulateGradientA(a, b, 3.0, grad_a);
  EXPECT_EQ(grad_a, Eigen::Vector2d(7.0, 8.0));
  Eigen::VectorXd grad(1);
  kernel.GradientLogParams(a, b, grad);
  EXPECT_NEAR(grad(0), 0.2, 1e-15);
  Eigen::Matrix2d W;
  W << 1.0, 2.0, 2.0, -0.5;
  EXPECT_NEAR(kernel.ContractGradientLogParams(Eigen::MatrixXd::Zero(2, 2), W)(0), 0.2 * 4.5,
              1e-14);
}

TEST(ConstantKernelTest, ConstructorRejectsBadVariance) {
  EXPECT_THAT([] { ConstantKernel(0.0); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("ConstantKernel: variance = 0")));
  EXPECT_THAT([] { ConstantKernel(NAN); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("variance = nan")));
}

}  // namespace
}  // namespace gpbandit
