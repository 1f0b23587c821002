// IndexKernel: lookup values, scale, validation of the matrix and of item indices.
#include "gpbandit/kernel/index_kernel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

Eigen::Matrix3d Covariance() {
  Eigen::Matrix3d M;
  M << 2.0, 0.5, -0.3,  //
      0.5, 1.0, 0.2,    //
      -0.3, 0.2, 1.5;
  return M;
}

TEST(IndexKernelTest, ValueIsScaledMatrixEntry) {
  IndexKernel kernel(1, Covariance(), 2.0);
  EXPECT_EQ(kernel.num_items(), 3);
  EXPECT_EQ(kernel.MinInputDim(), 2);
  EXPECT_EQ(kernel.Describe(), "index(dim=1; items=3)");
  EXPECT_DOUBLE_EQ(kernel.Value(Eigen::Vector2d(0.7, 0.0), Eigen::Vector2d(-3.0, 2.0)), -0.6);
  EXPECT_DOUBLE_EQ(kernel.Value(Eigen::Vector2d(0.7, 1.0), Eigen::Vector2d(0.1, 1.0)), 2.0);
  kernel.SetLogParams(Eigen::VectorXd::Constant(1, std::log(0.5)));
  EXPECT_NEAR(kernel.scale(), 0.5, 1e-15);
  EXPECT_NEAR(kernel.Value(Eigen::Vector2d(0.0, 2.0), Eigen::Vector2d(0.0, 1.0)), 0.1, 1e-15);
  Eigen::Matrix<double, 2, 3> X;
  X << 5.0, 6.0, 7.0,  //
      2.0, 0.0, 2.0;
  Eigen::Matrix3d expected;
  expected << 1.5, -0.3, 1.5,  //
      -0.3, 2.0, -0.3,         //
      1.5, -0.3, 1.5;
  EXPECT_TRUE(kernel.Gram(X).isApprox(0.5 * expected, 1e-15));
}

TEST(IndexKernelTest, IdentityGivesIndependentItems) {
  const IndexKernel kernel(0, Eigen::Matrix2d::Identity());
  EXPECT_EQ(kernel.Value(Eigen::VectorXd::Constant(1, 0.0), Eigen::VectorXd::Constant(1, 1.0)),
            0.0);
  EXPECT_EQ(kernel.Value(Eigen::VectorXd::Constant(1, 1.0), Eigen::VectorXd::Constant(1, 1.0)),
            1.0);
}

TEST(IndexKernelTest, GradientInTheIndexIsZero) {
  const IndexKernel kernel(0, Covariance());
  Eigen::VectorXd grad = Eigen::VectorXd::Constant(1, 4.0);
  kernel.AccumulateGradientA(Eigen::VectorXd::Constant(1, 1.0), Eigen::VectorXd::Constant(1, 2.0),
                             1.0, grad);
  EXPECT_EQ(grad(0), 4.0);
}

TEST(IndexKernelTest, RejectsBadMatrices) {
  EXPECT_THAT([] { IndexKernel(0, Eigen::MatrixXd()); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("covariance is empty")));
  EXPECT_THAT([] { IndexKernel(0, Eigen::MatrixXd::Identity(2, 3)); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("covariance is 2 x 3, not square")));
  Eigen::Matrix3d asymmetric = Covariance();
  asymmetric(0, 2) = 0.4;
  EXPECT_THAT([&] { IndexKernel(0, asymmetric); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("covariance is not symmetric")));
  Eigen::Matrix2d indefinite;
  indefinite << 1.0, 2.0, 2.0, 1.0;  // eigenvalues 3 and -1
  EXPECT_THAT([&] { IndexKernel(0, indefinite); },
              ThrowsMessage<std::invalid_argument>(
                  HasSubstr("not positive semi-definite: smallest eigenvalue -0.99999")));
  EXPECT_THAT([] { IndexKernel(0, -Eigen::Matrix2d::Identity()); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("not positive semi-definite")));
  Eigen::Matrix2d with_nan = Eigen::Matrix2d::Identity();
  with_nan(1, 1) = NAN;
  EXPECT_THAT([&] { IndexKernel(0, with_nan); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("covariance(1, 1) = nan")));
  EXPECT_THAT([] { IndexKernel(-1, Eigen::Matrix2d::Identity()); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("dim = -1 is negative")));
  EXPECT_THAT([] { IndexKernel(0, Eigen::Matrix2d::Identity(), 0.0); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("scale = 0")));
}

TEST(IndexKernelTest, AcceptsSingularPsdAndTinyAsymmetry) {
  Eigen::Matrix2d singular;
  singular << 1.0, 1.0, 1.0, 1.0;  // rank one: PSD, not PD
  EXPECT_NO_THROW(IndexKernel(0, singular));
  Eigen::Matrix3d nearly = Covariance();
  nearly(0, 1) += 1e-13;  // within the 1e-9 relative tolerance; stored symmetrized
  const IndexKernel kernel(0, nearly);
  EXPECT_EQ(kernel.covariance(), kernel.covariance().transpose());
}

TEST(IndexKernelTest, ValidatePointRejectsBadIndices) {
  const IndexKernel kernel(1, Covariance());
  EXPECT_NO_THROW(kernel.ValidatePoint(Eigen::Vector2d(0.3, 2.0), "context"));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector2d(0.3, 1.5), "context"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("context[1] = 1.5 is not an item")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector2d(0.3, 3.0), "context"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("context[1] = 3 is not an item")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector2d(0.3, -1.0), "context"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("context[1] = -1")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::Vector2d(0.3, NAN), "context"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("context[1] = nan")));
  EXPECT_THAT([&] { kernel.ValidatePoint(Eigen::VectorXd::Zero(1), "context"); },
              ThrowsMessage<std::invalid_argument>(HasSubstr("context has size 1")));
}

}  // namespace
}  // namespace gpbandit
