#include "numerics/vector_solve_avx2.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <string>

#include "numerics/cpu_features.h"
#include "numerics/dense_kernels.h"

namespace gpbandit {
namespace {

// The Cholesky factor of a well-conditioned n x n SPD matrix in the top-left corner of a
// capacity x capacity buffer whose other entries (strict upper triangle, rows and columns past
// n) are NaN: a kernel that reads them returns NaN.
Eigen::MatrixXd FactorAmidNaN(int n, int capacity) {
  Eigen::MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = std::cos(0.7 * i + 1.3 * j) + (i == j ? 2.0 : 0.0);
  const Eigen::MatrixXd A = B * B.transpose();
  Eigen::MatrixXd buffer =
      Eigen::MatrixXd::Constant(capacity, capacity, std::numeric_limits<double>::quiet_NaN());
  buffer.topLeftCorner(n, n).triangularView<Eigen::Lower>() = A.llt().matrixL();
  return buffer;
}

Eigen::VectorXd RightHandSide(int n) {
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) b(i) = std::sin(2.0 + 0.9 * i);
  return b;
}

// Every size from 0 to 13 (each remainder mod 4, with and without a full block) and larger ones.
const int kSizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 37, 64, 101};

TEST(VectorSolveAvx2Test, SolvesBothTrianglesForEverySize) {
  if (!internal::Avx2FmaAvailable()) {
    // The dispatch then never names these kernels.
    EXPECT_EQ(DenseKernelsDescription().find("avx2"), std::string::npos);
    return;
  }
  for (int n : kSizes) {
    const Eigen::MatrixXd buffer = FactorAmidNaN(n, n + 5);
    const Eigen::MatrixXd L = buffer.topLeftCorner(n, n).triangularView<Eigen::Lower>();
    const Eigen::VectorXd b = RightHandSide(n);
    Eigen::VectorXd forward = b, backward = b;
    internal::ForwardSolveAvx2(n, buffer.data(), buffer.rows(), forward.data());
    internal::BackwardSolveAvx2(n, buffer.data(), buffer.rows(), backward.data());
    ASSERT_TRUE(forward.allFinite()) << "n = " << n;
    ASSERT_TRUE(backward.allFinite()) << "n = " << n;
    EXPECT_LE((L * forward - b).norm(), 1e-13 * (1.0 + b.norm())) << "n = " << n;
    EXPECT_LE((L.transpose() * backward - b).norm(), 1e-13 * (1.0 + b.norm())) << "n = " << n;
  }
}

// The order of every sum depends on n alone: the same bits from buffers of other strides.
TEST(VectorSolveAvx2Test, ResultsDoNotDependOnTheBuffersStride) {
  if (!internal::Avx2FmaAvailable()) {
    EXPECT_EQ(DenseKernelsDescription().find("avx2"), std::string::npos);
    return;
  }
  const int n = 45;
  const Eigen::VectorXd b = RightHandSide(n);
  Eigen::VectorXd first_forward = b, first_backward = b;
  const Eigen::MatrixXd tight = FactorAmidNaN(n, n);
  internal::ForwardSolveAvx2(n, tight.data(), n, first_forward.data());
  internal::BackwardSolveAvx2(n, tight.data(), n, first_backward.data());
  for (int capacity : {46, 49, 64}) {
    const Eigen::MatrixXd wide = FactorAmidNaN(n, capacity);
    Eigen::VectorXd forward = b, backward = b;
    internal::ForwardSolveAvx2(n, wide.data(), capacity, forward.data());
    internal::BackwardSolveAvx2(n, wide.data(), capacity, backward.data());
    EXPECT_EQ(forward, first_forward) << "capacity " << capacity;
    EXPECT_EQ(backward, first_backward) << "capacity " << capacity;
  }
}

// The dispatch: Eigen's bits in the portable scope, the same solution within rounding outside.
TEST(VectorSolveAvx2Test, PortableScopeSolvesAsEigenDoes) {
  const int n = 30;
  const Eigen::MatrixXd buffer = FactorAmidNaN(n, 33);
  const auto L = buffer.topLeftCorner(n, n);
  const Eigen::VectorXd b = RightHandSide(n);
  Eigen::VectorXd eigen_forward = b, eigen_backward = b;
  L.triangularView<Eigen::Lower>().solveInPlace(eigen_forward);
  L.transpose().triangularView<Eigen::Upper>().solveInPlace(eigen_backward);
  Eigen::VectorXd forward = b, backward = b;
  {
    ScopedPortableDenseKernelsForTesting scope;
    LowerSolveVectorInPlace(L, forward);
    LowerTransposeSolveInPlace(L, backward);
  }
  EXPECT_EQ(forward, eigen_forward);
  EXPECT_EQ(backward, eigen_backward);
  LowerSolveVectorInPlace(L, forward = b);
  LowerTransposeSolveInPlace(L, backward = b);
  EXPECT_LT((forward - eigen_forward).norm(), 1e-13 * eigen_forward.norm());
  EXPECT_LT((backward - eigen_backward).norm(), 1e-13 * eigen_backward.norm());
}

// The block solve: every column of L^-1 B has the bits the vector solve gives it alone, for
// 1-11 columns (each remainder mod 4 and mod 2) in a buffer with a stride and NaN past B's rows.
TEST(VectorSolveAvx2Test, BlockSolveGivesEachColumnTheVectorSolvesBits) {
  if (!internal::Avx2FmaAvailable()) GTEST_SKIP() << "no AVX2 and FMA on this CPU";
  for (const int n : kSizes) {
    const Eigen::MatrixXd L = FactorAmidNaN(n, n + 3);
    for (int m = 1; m <= 11; ++m) {
      Eigen::MatrixXd B =
          Eigen::MatrixXd::Constant(n + 2, m, std::numeric_limits<double>::quiet_NaN());
      for (int r = 0; r < m; ++r)
        B.col(r).head(n) = RightHandSide(n) * (1.0 + r) + Eigen::VectorXd::Constant(n, 0.1 * r);
      Eigen::MatrixXd expected = B;
      for (int r = 0; r < m; ++r)
        internal::ForwardSolveAvx2(n, L.data(), L.rows(), expected.col(r).data());
      internal::ForwardSolveColumnsAvx2(n, L.data(), L.rows(), m, B.data(), B.rows());
      for (int r = 0; r < m; ++r) {
        for (int i = 0; i < n; ++i)
          ASSERT_EQ(B(i, r), expected(i, r))
              << "n = " << n << ", m = " << m << ", (" << i << ", " << r << ")";
        EXPECT_TRUE(std::isnan(B(n, r)) && std::isnan(B(n + 1, r))) << "wrote past row n";
      }
      const Eigen::MatrixXd Lc = L.topLeftCorner(n, n).triangularView<Eigen::Lower>();
      for (int r = 0; r < m; ++r) {
        const Eigen::VectorXd b =
            RightHandSide(n) * (1.0 + r) + Eigen::VectorXd::Constant(n, 0.1 * r);
        EXPECT_LE((Lc * B.col(r).head(n) - b).norm(), 1e-13 * (1.0 + b.norm())) << "n = " << n;
      }
    }
  }
}

}  // namespace
}  // namespace gpbandit
