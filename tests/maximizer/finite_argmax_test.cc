#include "gpbandit/maximizer/finite_argmax.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "numerics/thread_policy.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kInf;
using testing::kNaN;

TEST(FiniteArgmaxTest, BasicRules) {
  EXPECT_EQ(FiniteArgmax((Eigen::VectorXd(4) << 1, 3, 2, 3).finished()), 1);      // tie: lowest
  EXPECT_EQ(FiniteArgmax((Eigen::VectorXd(3) << kNaN, -1, kNaN).finished()), 1);  // NaN never wins
  EXPECT_EQ(FiniteArgmax((Eigen::VectorXd(3) << -kInf, kNaN, -kInf).finished()), 0);
  EXPECT_EQ(FiniteArgmax((Eigen::VectorXd(3) << 0, kInf, 1).finished()), 1);
  EXPECT_THROW(FiniteArgmax(Eigen::VectorXd(0)), std::invalid_argument);
  EXPECT_THROW(FiniteArgmax((Eigen::VectorXd(2) << kNaN, kNaN).finished()), std::invalid_argument);
  Eigen::Array<bool, Eigen::Dynamic, 1> allowed(4);
  allowed << false, false, true, true;
  EXPECT_EQ(FiniteArgmaxMasked((Eigen::VectorXd(4) << 9, 3, 2, 3).finished(), allowed), 3);
  EXPECT_THROW(FiniteArgmaxMasked(Eigen::VectorXd::Zero(3), allowed), std::invalid_argument);
}

TEST(FiniteArgmaxTest, LargeInputsAgreeWithSerialScanForAnyThreadCount) {
  const ScopedParallelismForTesting parallel;  // the policy would scan 200000 scores serially
  Rng rng(testing::TestSeed(11));
  const int n = 200000;
  // Few distinct values, so many ties; some NaN.
  std::uniform_int_distribution<int> value(0, 50);
  Eigen::VectorXd scores(n);
  for (int i = 0; i < n; ++i) scores(i) = value(rng) == 7 ? kNaN : static_cast<double>(value(rng));
  int expected = -1;
  for (int i = 0; i < n; ++i)
    if (!std::isnan(scores(i)) && (expected < 0 || scores(i) > scores(expected))) expected = i;
  for (int threads : {1, 2, 3, 8}) EXPECT_EQ(FiniteArgmax(scores, threads), expected) << threads;
}

}  // namespace
}  // namespace gpbandit
