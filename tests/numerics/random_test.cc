// gp/random.h: seeding from several keys (reproducible, and unrelated for different keys), and
// draws of a multivariate normal.
#include "gpbandit/numerics/random.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace gpbandit {
namespace {

TEST(SeededRngTest, SameKeysSameStream) {
  Rng a = SeededRng({1, 2, 3}), b = SeededRng({1, 2, 3});
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a(), b());
  EXPECT_EQ(DerivedSeed({7, 8}), DerivedSeed({7, 8}));
}

TEST(SeededRngTest, SwappedOrShiftedKeysGiveUnrelatedStreams) {
  // The pairs that seed + trial schemes confuse: (1, 2) vs (2, 1), (1, 1) vs (2, 0), and keys
  // that differ only in their high 32 bits.
  const std::uint64_t high = std::uint64_t{1} << 32;
  std::set<Rng::result_type> first_draws;
  std::set<std::uint64_t> seeds;
  for (const auto& keys : {std::pair<std::uint64_t, std::uint64_t>{1, 2},
                           {2, 1},
                           {1, 1},
                           {2, 0},
                           {high, 0},
                           {0, high},
                           {0, 0}}) {
    first_draws.insert(SeededRng({keys.first, keys.second})());
    seeds.insert(DerivedSeed({keys.first, keys.second}));
  }
  EXPECT_EQ(first_draws.size(), 7u);
  EXPECT_EQ(seeds.size(), 7u);
  // The number of keys matters: (1) is not (1, 0).
  EXPECT_NE(SeededRng({1})(), SeededRng({1, 0})());
}

TEST(SampleMultivariateNormalTest, IsTheCholeskyFactorTimesStandardNormals) {
  // [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]] (every entry exact in binary).
  Eigen::Matrix2d covariance;
  covariance << 4, 2, 2, 5;
  Rng rng(7), same(7);
  const Eigen::VectorXd draw = SampleMultivariateNormal(covariance, rng);
  const Eigen::VectorXd z = StandardNormalVector(2, same);
  EXPECT_EQ(draw(0), 2 * z(0));
  EXPECT_DOUBLE_EQ(draw(1), z(0) + 2 * z(1));
  EXPECT_EQ(rng(), same());  // exactly n normal draws were taken
}

TEST(SampleMultivariateNormalTest, DrawsHaveTheCovariance) {
  Eigen::Matrix3d covariance;
  covariance << 1.0, 0.6, 0.2, 0.6, 1.0, 0.6, 0.2, 0.6, 1.0;
  Rng rng(11);
  const int n = 20000;
  Eigen::Matrix3d sum = Eigen::Matrix3d::Zero();
  for (int i = 0; i < n; ++i) {
    const Eigen::VectorXd x = SampleMultivariateNormal(covariance, rng);
    sum += x * x.transpose();
  }
  // Each entry of the sample covariance has a standard error below sqrt(2 / n) = 0.01.
  EXPECT_LT(((sum / n) - covariance).cwiseAbs().maxCoeff(), 0.05) << sum / n;
}

TEST(SampleMultivariateNormalTest, RankDeficientCovarianceTakesJitter) {
  // Two copies of one point: x(0) and x(1) are the same variable, up to the jitter.
  const Eigen::Matrix2d covariance = Eigen::Matrix2d::Ones();
  Rng rng(3);
  for (int i = 0; i < 100; ++i) {
    const Eigen::VectorXd x = SampleMultivariateNormal(covariance, rng);
    ASSERT_TRUE(x.allFinite());
    EXPECT_NEAR(x(0), x(1), 1e-3);
  }
}

TEST(SampleMultivariateNormalTest, RejectsWhatIsNotACovariance) {
  Rng rng(1);
  EXPECT_THROW(SampleMultivariateNormal(Eigen::MatrixXd::Identity(2, 3), rng),
               std::invalid_argument);
  EXPECT_THROW(SampleMultivariateNormal(Eigen::Matrix2d::Identity(), rng, 0.0),
               std::invalid_argument);
  EXPECT_THROW(SampleMultivariateNormal(Eigen::Matrix2d::Identity(), rng, 2.0),
               std::invalid_argument);
  EXPECT_THROW(SampleMultivariateNormal(-Eigen::Matrix2d::Identity(), rng), std::runtime_error);
}

}  // namespace
}  // namespace gpbandit
