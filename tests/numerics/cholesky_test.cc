#include "numerics/cholesky.h"

#include <gtest/gtest.h>

namespace gpbandit {
namespace {

TEST(CholeskyTest, WellConditionedNeedsNoJitter) {
  Eigen::Matrix3d A;
  A << 4, 2, 0.6, 2, 2, 0.5, 0.6, 0.5, 3;
  const JitteredCholesky chol = FactorizeWithJitter(A);
  ASSERT_TRUE(chol.ok);
  EXPECT_EQ(chol.jitter, 0.0);
  EXPECT_LT((chol.lower * chol.lower.transpose() - Eigen::MatrixXd(A)).norm(), 1e-12);
  EXPECT_EQ(chol.lower(0, 1), 0.0);
}

TEST(CholeskyTest, SingularMatrixClimbsTheLadder) {
  // Rank one: every pivot after the first is 0.
  const Eigen::Vector3d v(1.0, 2.0, 3.0);
  const Eigen::MatrixXd A = v * v.transpose();
  const JitteredCholesky chol = FactorizeWithJitter(A);
  ASSERT_TRUE(chol.ok);
  EXPECT_GT(chol.jitter, 0.0);
  Eigen::MatrixXd shifted = A;
  shifted.diagonal().array() += chol.jitter;
  EXPECT_LT((chol.lower * chol.lower.transpose() - shifted).norm(), 1e-9);
}

TEST(CholeskyTest, IndefiniteBeyondTheLadderFails) {
  Eigen::Matrix2d A;
  A << 1, 0, 0, -1;
  const JitteredCholesky chol = FactorizeWithJitter(A, 1e-2);
  EXPECT_FALSE(chol.ok);
}

TEST(CholeskyTest, NonFiniteFails) {
  Eigen::Matrix2d A;
  A << 1, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), 1;
  EXPECT_FALSE(FactorizeWithJitter(A).ok);
}

}  // namespace
}  // namespace gpbandit
