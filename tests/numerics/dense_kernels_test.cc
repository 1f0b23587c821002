#include "numerics/dense_kernels.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
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

// The lower factor of SpdMatrix(n), as the models keep it: the top-left n x n block of a larger
// buffer (outer stride > n), strict upper triangle set to a marker.
Eigen::MatrixXd FactorInBuffer(int n, int capacity) {
  Eigen::MatrixXd buffer = Eigen::MatrixXd::Constant(capacity, capacity, 7.0);
  Eigen::MatrixXd lower = SpdMatrix(n).llt().matrixL();
  buffer.topLeftCorner(n, n).triangularView<Eigen::Lower>() = lower;
  return buffer;
}

Eigen::MatrixXd RightHandSides(int n, int m) {
  Eigen::MatrixXd B(n, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) B(i, j) = std::sin(1.0 + i + 3.0 * j);
  return B;
}

TEST(DenseKernelsTest, TriangularSolveSolvesEveryRightHandSide) {
  const int n = 37;
  const Eigen::MatrixXd buffer = FactorInBuffer(n, 50);
  const Eigen::MatrixXd L = buffer.topLeftCorner(n, n).triangularView<Eigen::Lower>();
  for (int m : {1, 2, 17, 32}) {
    const Eigen::MatrixXd B = RightHandSides(n, m);
    Eigen::MatrixXd X = B;
    LowerTriangularSolveInPlace(buffer.topLeftCorner(n, n), X);
    EXPECT_LT((L * X - B).norm(), 1e-13 * B.norm()) << "m = " << m;
  }
}

TEST(DenseKernelsTest, TriangularSolveOfNothingIsANoOp) {
  const Eigen::MatrixXd buffer = FactorInBuffer(5, 8);
  Eigen::MatrixXd none(5, 0);
  LowerTriangularSolveInPlace(buffer.topLeftCorner(5, 5), none);
  EXPECT_EQ(none.size(), 0);
  Eigen::MatrixXd empty(0, 3);
  LowerTriangularSolveInPlace(Eigen::MatrixXd(0, 0), empty);
  EXPECT_EQ(empty.size(), 0);
}

// In the portable scope the solve is Eigen's to the last bit; outside it, within rounding.
TEST(DenseKernelsTest, PortableScopeSolvesAsEigenDoes) {
  const int n = 60, m = 17;
  const Eigen::MatrixXd buffer = FactorInBuffer(n, n);
  const Eigen::MatrixXd B = RightHandSides(n, m);
  Eigen::MatrixXd eigen = B;
  buffer.triangularView<Eigen::Lower>().solveInPlace(eigen);
  Eigen::MatrixXd portable = B, fast = B;
  {
    ScopedPortableDenseKernelsForTesting scope;
    LowerTriangularSolveInPlace(buffer, portable);
  }
  LowerTriangularSolveInPlace(buffer, fast);
  EXPECT_EQ(portable, eigen);
  EXPECT_LT((fast - eigen).norm(), 1e-13 * eigen.norm());
  Eigen::MatrixXd again = B;
  LowerTriangularSolveInPlace(buffer, again);
  EXPECT_EQ(again, fast);
}

// The lower triangle of A^-1 from A's factor where OpenBLAS runs (A A^-1 = I), nothing done
// where it does not (the caller then inverts with Eigen).
// Sizes of every n mod 4: the AVX2 inverse solves four columns at a time.
TEST(DenseKernelsTest, CholeskyInverseIsTheInverseWhereOpenBlasRuns) {
  for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 45, 102}) {
    const int capacity = n + 7;
    const Eigen::MatrixXd A = SpdMatrix(n);
    const Eigen::MatrixXd buffer = FactorInBuffer(n, capacity);
    Eigen::MatrixXd inverse = buffer;
    const bool blas = DenseKernelsDescription().rfind("openblas", 0) == 0;
    ASSERT_EQ(CholeskyInverseLowerInPlace(inverse.topLeftCorner(n, n)), blas);
    if (!blas) {
      EXPECT_EQ(inverse, buffer);
      return;
    }
    Eigen::MatrixXd full = inverse.topLeftCorner(n, n).selfadjointView<Eigen::Lower>();
    EXPECT_LT((A * full - Eigen::MatrixXd::Identity(n, n)).norm(), 1e-10) << "n " << n;
    // Outside the lower n x n triangle nothing moved.
    Eigen::MatrixXd outside = inverse, expected = buffer;
    outside.topLeftCorner(n, n).triangularView<Eigen::Lower>().setZero();
    expected.topLeftCorner(n, n).triangularView<Eigen::Lower>().setZero();
    EXPECT_EQ(outside, expected) << "n " << n;
  }
}

TEST(DenseKernelsTest, PortableScopeLeavesTheInverseToEigen) {
  ScopedPortableDenseKernelsForTesting scope;
  const Eigen::MatrixXd buffer = FactorInBuffer(20, 20);
  Eigen::MatrixXd factor = buffer;
  EXPECT_FALSE(CholeskyInverseLowerInPlace(factor));
  EXPECT_EQ(factor, buffer);
}

}  // namespace
}  // namespace gpbandit
