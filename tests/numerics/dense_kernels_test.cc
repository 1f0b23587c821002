#include "numerics/dense_kernels.h"

#include <gtest/gtest.h>

#include <string>

namespace gpbandit {
namespace {

// GPBANDIT_CONFIGURED_DENSE_KERNELS is what cmake chose and printed ("gpbandit: dense kernels
// ..."), set by tests/CMakeLists.txt: a build tree whose cache kept another choice than the
// one it printed fails here.
TEST(DenseKernelsTest, BuildRunsTheKernelsItsConfigureChose) {
  const std::string configured = GPBANDIT_CONFIGURED_DENSE_KERNELS;
  const std::string running = DenseKernelsDescription();
  EXPECT_EQ(running.substr(0, running.find(' ')), configured) << running;
}

Eigen::MatrixXd SpdMatrix(int n) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = 1.0 / (1.0 + i + 2.0 * j) + (i == j ? 1.0 : 0.0);
  return B * B.transpose();
}

TEST(DenseKernelsTest, PortableScopeRunsEigenAndGivesTheSameFactor) {
  const Eigen::MatrixXd A = SpdMatrix(40);
  Eigen::MatrixXd fast = A;
  ASSERT_TRUE(CholeskyLowerInPlace(fast));
  Eigen::MatrixXd portable = A;
  {
    ScopedPortableDenseKernelsForTesting scope;
    EXPECT_EQ(DenseKernelsDescription(), "eigen");
    ASSERT_TRUE(CholeskyLowerInPlace(portable));
  }
  const Eigen::MatrixXd lower_fast = fast.triangularView<Eigen::Lower>();
  const Eigen::MatrixXd lower_portable = portable.triangularView<Eigen::Lower>();
  EXPECT_LT((lower_fast - lower_portable).norm(), 1e-12 * lower_fast.norm());
  EXPECT_LT((lower_portable * lower_portable.transpose() - A).norm(), 1e-12 * A.norm());
  const std::string after = DenseKernelsDescription();
  EXPECT_EQ(after.substr(0, after.find(' ')), GPBANDIT_CONFIGURED_DENSE_KERNELS);
}

TEST(DenseKernelsTest, PortableKernelsAreDeterministic) {
  ScopedPortableDenseKernelsForTesting scope;
  const Eigen::MatrixXd A = SpdMatrix(33);
  Eigen::MatrixXd first = A, second = A;
  ASSERT_TRUE(CholeskyLowerInPlace(first));
  ASSERT_TRUE(CholeskyLowerInPlace(second));
  EXPECT_EQ(first, second);
}

}  // namespace
}  // namespace gpbandit
