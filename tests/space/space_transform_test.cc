// SpaceTransform alone: the formulas, the round trips (exact for integers, labels and bounds;
// reals within a few ulps), legal decoding of any model point, the uniform positions, and the
// discrete coordinates it gives the mixed maximizer.
#include "gpbandit/space/space_transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

ParameterSpace Mixed() {
  return ParameterSpace({Parameter::Real("kp", 0.1, 100.0, ParameterScale::kLog),
                         Parameter::Integer("taps", -3, 12),
                         Parameter::Integer("size", 1, 4096, ParameterScale::kLog),
                         Parameter::Categorical("mode", {"pid", "lead-lag", "bang-bang"}),
                         Parameter::Fixed("rate", 250.0), Parameter::Real("ki", -2.0, 3.0)});
}

TEST(SpaceTransformTest, MapsEachKindByItsFormula) {
  const SpaceTransform t(Mixed());
  const Eigen::VectorXd x = (Eigen::VectorXd(6) << 1.0, 2, 64, 2, 250, 0.5).finished();
  const Eigen::VectorXd u = t.ToModel(x);
  EXPECT_DOUBLE_EQ(u(0), (std::log(1.0) - std::log(0.1)) / (std::log(100.0) - std::log(0.1)));
  EXPECT_DOUBLE_EQ(u(1), 5.0 / 15.0);
  EXPECT_DOUBLE_EQ(u(2), std::log(64.0) / std::log(4096.0));
  EXPECT_EQ(u(3), 2.0);  // the label's index
  EXPECT_EQ(u(4), 0.0);  // fixed
  EXPECT_DOUBLE_EQ(u(5), 0.5);
  EXPECT_EQ(t.ModelUpper(), (Eigen::VectorXd(6) << 1, 1, 1, 2, 0, 1).finished());
}

TEST(SpaceTransformTest, IntegersLabelsAndBoundsRoundTripExactly) {
  const SpaceTransform t(Mixed());
  for (int k = -3; k <= 12; ++k) EXPECT_EQ(t.FromModel(1, t.ToModel(1, k)), k);
  for (int k = 1; k <= 4096; ++k) EXPECT_EQ(t.FromModel(2, t.ToModel(2, k)), k) << k;
  for (int c = 0; c < 3; ++c) EXPECT_EQ(t.FromModel(3, t.ToModel(3, c)), c);
  for (int i : {0, 5}) {
    const Parameter& p = t.space().parameter(i);
    EXPECT_EQ(t.FromModel(i, t.ToModel(i, p.lower)), p.lower);
    EXPECT_EQ(t.FromModel(i, t.ToModel(i, p.upper)), p.upper);
  }
  EXPECT_EQ(t.FromModel(4, t.ToModel(4, 250.0)), 250.0);
  // Images of legal points map back to themselves in the model too.
  for (int k = 1; k <= 4096; k += 37)
    EXPECT_EQ(t.ToModel(2, t.FromModel(2, t.ToModel(2, k))), t.ToModel(2, k));
}

TEST(SpaceTransformTest, RealsRoundTripWithinAFewUlps) {
  const SpaceTransform t(Mixed());
  Rng rng(testing::TestSeed(11));
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int j = 0; j < 2000; ++j) {
    const double kp = 0.1 * std::pow(1000.0, u01(rng)), ki = -2.0 + 5.0 * u01(rng);
    EXPECT_NEAR(t.FromModel(0, t.ToModel(0, kp)), kp,
                8 * std::numeric_limits<double>::epsilon() * kp);
    EXPECT_NEAR(t.FromModel(5, t.ToModel(5, ki)), ki,
                8 * std::numeric_limits<double>::epsilon() * 3.0);
  }
}

TEST(SpaceTransformTest, AnyModelPointDecodesToALegalPointOnTheModelsScale) {
  const SpaceTransform t(Mixed());
  Rng rng(testing::TestSeed(12));
  std::uniform_real_distribution<double> u(-0.2, 1.2);
  for (int j = 0; j < 2000; ++j) {
    Eigen::VectorXd m(6);
    for (int i = 0; i < 6; ++i) m(i) = u(rng) * t.ModelUpper().cwiseMax(1.0)(i);
    const Eigen::VectorXd x = t.FromModel(m);
    t.space().CheckVector(x, "decoded");
    // An integer is the level nearest in model coordinates (the maximizer's rounding).
    const double clamped = std::clamp(m(2), 0.0, 1.0);
    const double k = x(2);
    for (double other : {k - 1, k + 1}) {
      if (other >= 1 && other <= 4096) {
        EXPECT_LE(std::abs(t.ToModel(2, k) - clamped), std::abs(t.ToModel(2, other) - clamped));
      }
    }
  }
  // Within 1e-12 of a face, the bound itself.
  EXPECT_EQ(t.FromModel(0, 1.0 - 1e-13), 100.0);
  EXPECT_EQ(t.FromModel(0, 1e-13), 0.1);
}

TEST(SpaceTransformTest, UniformPositionsAreLegalAndSpreadOnEachScale) {
  const SpaceTransform t(Mixed());
  Rng rng(testing::TestSeed(13));
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const int n = 20000;
  int kp_below_geometric_mean = 0, size_below_64 = 0, taps_at_lower = 0;
  std::vector<int> labels(3, 0);
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd s(6);
    for (int i = 0; i < 6; ++i) s(i) = u01(rng);
    const Eigen::VectorXd x = t.FromUniform(s);
    t.space().CheckVector(x, "uniform");
    kp_below_geometric_mean += x(0) < std::sqrt(0.1 * 100.0);
    size_below_64 += x(2) <= 64;
    taps_at_lower += x(1) == -3;
    ++labels[static_cast<std::size_t>(x(3))];
  }
  // Log-uniform: half below the geometric mean; ln(64.5) / ln(4096.5) of the integers' cells.
  EXPECT_NEAR(kp_below_geometric_mean / double(n), 0.5, 0.02);
  EXPECT_NEAR(size_below_64 / double(n),
              (std::log(64.5) - std::log(0.5)) / (std::log(4096.5) - std::log(0.5)), 0.02);
  EXPECT_NEAR(taps_at_lower / double(n), 1.0 / 16.0, 0.01);  // every integer equally likely
  for (int c : labels) EXPECT_NEAR(c / double(n), 1.0 / 3.0, 0.02);
}

TEST(SpaceTransformTest, DiscreteCoordinatesMatchTheTransform) {
  const SpaceTransform t(Mixed());
  const std::vector<DiscreteCoordinate> d = t.DiscreteCoordinates(2);
  ASSERT_EQ(d.size(), 3u);  // taps, size, mode; the fixed rate and the reals are not discrete
  EXPECT_EQ(d[0].dim, 3);
  EXPECT_EQ(d[0].num_levels, 16);
  EXPECT_TRUE(d[0].ordered);
  EXPECT_EQ(d[1].num_levels, 4096);
  EXPECT_FALSE(d[2].ordered);
  EXPECT_EQ(d[2].num_levels, 3);
  for (long long l = 0; l < 16; ++l) EXPECT_EQ(d[0].value_of_level(l), t.ToModel(1, -3.0 + l));
  for (long long l = 0; l < 4096; l += 5) EXPECT_EQ(d[1].value_of_level(l), t.ToModel(2, 1.0 + l));
  for (long long l = 0; l < 3; ++l) EXPECT_EQ(d[2].value_of_level(l), l);
  EXPECT_EQ(t.CategoricalDims(2), std::vector<int>{5});
  EXPECT_EQ(t.CategoricalSizes(), std::vector<int>{3});
  EXPECT_EQ(t.OtherDims(2), (std::vector<int>{2, 3, 4, 6, 7}));
}

}  // namespace
}  // namespace gpbandit
