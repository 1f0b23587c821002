// LinearKernel: closed-form values, the non-stationary gradient at a == b, construction errors.
#include "gpbandit/kernel/linear_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(LinearKernelTest, ClosedFormArd) {
  LinearKernel kernel({0, 2}, true);
  kernel.SetLogParams(Eigen::Vector3d(std::log(3.0), std::log(0.5), std::log(2.0)));
  const Eigen::Vector3d a(1.0, 100.0, 2.0);
  const Eigen::Vector3d b(-0.5, -7.0, 4.0);
  // 3 * (1 * -0.5 / 0.25 + 2 * 4 / 4) = 3 * (-2 + 2) = 0; coordinate 1 ignored.
  EXPECT_NEAR(kernel.Value(a, b), 0.0, 1e-14);
  const Eigen::Vector3d c(2.0, 0.0, 1.0);
  EXPECT_NEAR(kernel.Value(a, c), 3.0 * (2.0 / 0.25 + 2.0 / 4.0), 1e-13);
}

TEST(LinearKernelTest, ClosedFormShared) {
  const LinearKernel kernel({0, 1}, false, 2.0, 4.0);
  EXPECT_EQ(kernel.NumParams(), 2);
  EXPECT_NEAR(kernel.Value(Eigen::Vector2d(1.0, 2.0), Eigen::Vector2d(3.0, 5.0)), 2.0 * 13.0 / 16.0,
              1e-14);
}

TEST(LinearKernelTest, GradientAtEqualPointsIsNotZero) {
  const LinearKernel kernel({1}, true, 2.0, 0.5);
  const Eigen::Vector2d b(9.0, 1.5);
  Eigen::Vector2d grad = Eigen::Vector2d::Zero();
  kernel.AccumulateGradientA(b, b, 1.0, grad);
  EXPECT_EQ(grad(0), 0.0);
  EXPECT_NEAR(grad(1), 2.0 * 1.5 / 0.25, 1e-13);  // s2 b / l^2, with b held fixed
}

TEST(LinearKernelTest, DescribeAndNames) {
  const LinearKernel kernel({2, 0}, true);
  EXPECT_EQ(kernel.Describe(), "linear(dims=2,0; ard)");
  EXPECT_EQ(kernel.MinInputDim(), 3);
  EXPECT_THAT(kernel.ParamNames(),
              ::testing::ElementsAre("linear.log_variance", "linear.log_lengthscale[0]",
                                     "linear.log_lengthscale[1]"));
}

TEST(LinearKernelTest, ConstructorRejectsBadArguments) {
  EXPECT_THAT([] { LinearKernel({}); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("LinearKernel: dims is empty")));
  EXPECT_THAT(
      [] {
        LinearKernel({1, 1});
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("dims[1] = 1 is a duplicate")));
  EXPECT_THAT([] { LinearKernel({0}, true, -0.5); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("variance = -0.5")));
  EXPECT_THAT([] { LinearKernel({0}, true, 1.0, INFINITY); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("lengthscale = inf")));
}

}  // namespace
}  // namespace gpbandit
