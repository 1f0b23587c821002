#include "gpbandit/acquisition/scalarization.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;

ObjectiveNormalization UnitBox(int k) {
  return {Eigen::VectorXd::Zero(k), Eigen::VectorXd::Ones(k)};
}

TEST(SampleScalarizationWeightsTest, SimplexWeightsAreUniformOnTheSimplex) {
  const std::uint64_t seed = testing::TestSeed(2019);
  Rng rng(seed), again(seed);
  const Eigen::MatrixXd weights = SampleScalarizationWeights(2, 20000, rng);
  EXPECT_EQ(weights, SampleScalarizationWeights(2, 20000, again));  // seeded
  EXPECT_GE(weights.minCoeff(), 0.0);
  EXPECT_LT((weights.colwise().sum().array() - 1.0).abs().maxCoeff(), 1e-15);
  // For k = 2, uniform on the simplex means lambda_0 ~ Uniform(0, 1): mean 1/2, variance 1/12
  // (standard errors 0.002 and 0.0006 at 20000 draws).
  const Eigen::ArrayXd first = weights.row(0).transpose().array();
  EXPECT_NEAR(first.mean(), 0.5, 0.01);
  EXPECT_NEAR((first - first.mean()).square().mean(), 1.0 / 12.0, 0.003);
}

TEST(SampleScalarizationWeightsTest, SphereWeightsHaveUnitNorm) {
  Rng rng(testing::TestSeed(3));
  const Eigen::MatrixXd weights =
      SampleScalarizationWeights(3, 100, rng, WeightDistribution::kSphere);
  EXPECT_GE(weights.minCoeff(), 0.0);
  EXPECT_LT((weights.colwise().norm().array() - 1.0).abs().maxCoeff(), 1e-15);
  ExpectInvalid([&] { SampleScalarizationWeights(0, 1, rng); }, "objectives = 0");
}

TEST(ScalarizeTest, LinearAndChebyshevByHand) {
  ObjectiveNormalization normalization{Eigen::Vector2d(0, 10), Eigen::Vector2d(2, 20)};
  const Eigen::Vector2d weights(0.25, 0.75), y(1.0, 12.0);  // yhat = (0.5, 0.2)
  Eigen::VectorXd d_y;
  EXPECT_DOUBLE_EQ(Scalarize(Scalarization::kLinear, weights, normalization, y, &d_y),
                   0.25 * 0.5 + 0.75 * 0.2);
  EXPECT_DOUBLE_EQ(d_y(0), 0.25 / 2);
  EXPECT_DOUBLE_EQ(d_y(1), 0.75 / 10);
  EXPECT_DOUBLE_EQ(Scalarize(Scalarization::kChebyshev, weights, normalization, y, &d_y),
                   std::min(0.25 * 0.5, 0.75 * 0.2));
  EXPECT_EQ(d_y(0), 0.25 / 2);  // the minimizing term is the first
  EXPECT_EQ(d_y(1), 0.0);
}

TEST(ScalarizeTest, ChebyshevReachesANonConvexPartOfAFront) {
  // The front (1, 0), (0, 1), (0.4, 0.4) has a dent: (0.4, 0.4) lies below the segment between
  // the others, so no linear weight makes it optimal; equal Chebyshev weights do.
  Eigen::MatrixXd front(2, 3);
  front << 1.0, 0.0, 0.4,  //
      0.0, 1.0, 0.4;
  const Eigen::Vector2d equal(0.5, 0.5);
  const Eigen::VectorXd chebyshev =
      ScalarizeColumns(Scalarization::kChebyshev, equal, UnitBox(2), front);
  EXPECT_GT(chebyshev(2), chebyshev.head(2).maxCoeff());
  for (double w : {0.0, 0.3, 0.5, 0.7, 1.0}) {
    const Eigen::VectorXd linear =
        ScalarizeColumns(Scalarization::kLinear, Eigen::Vector2d(w, 1 - w), UnitBox(2), front);
    EXPECT_LT(linear(2), linear.head(2).maxCoeff()) << "w = " << w;
  }
}

TEST(ObjectiveNormalizationTest, ObservedRangeAndConstantObjectives) {
  Eigen::MatrixXd values(2, 3);
  values << 1, 4, 2,  //
      7, 7, 7;
  const ObjectiveNormalization n = ObjectiveNormalization::FromObservations(values);
  EXPECT_EQ(n.lower, Eigen::Vector2d(1, 7));
  EXPECT_EQ(n.upper, Eigen::Vector2d(4, 8));  // a constant objective gets a unit range
}

TEST(ScalarizedUpperConfidenceBoundTest, ScalarizesTheBoundsAndDifferentiates) {
  ObjectiveNormalization normalization{Eigen::Vector3d(0, -1, 2), Eigen::Vector3d(1, 1, 5)};
  const Eigen::Vector3d weights(0.2, 0.5, 0.3), mean(0.4, 0.1, 3.0), sigma(0.1, 0.3, 0.2);
  const double sqrt_beta = 2.0;
  for (Scalarization kind : {Scalarization::kLinear, Scalarization::kChebyshev}) {
    Eigen::VectorXd d_mean, d_sigma;
    const double value = ScalarizedUpperConfidenceBound(kind, weights, normalization, mean, sigma,
                                                        sqrt_beta, &d_mean, &d_sigma);
    EXPECT_DOUBLE_EQ(value,
                     Scalarize(kind, weights, normalization, mean + sqrt_beta * sigma, nullptr));
    auto of_mean = [&](const Eigen::VectorXd& m) {
      return ScalarizedUpperConfidenceBound(kind, weights, normalization, m, sigma, sqrt_beta,
                                            nullptr, nullptr);
    };
    auto of_sigma = [&](const Eigen::VectorXd& s) {
      return ScalarizedUpperConfidenceBound(kind, weights, normalization, mean, s, sqrt_beta,
                                            nullptr, nullptr);
    };
    ExpectGradientNear(of_mean, mean, d_mean, 1e-6, 1e-9, "d_mean");
    ExpectGradientNear(of_sigma, sigma, d_sigma, 1e-6, 1e-9, "d_sigma");
  }
}

TEST(ScalarizeTest, RefusesBadInput) {
  const Eigen::Vector2d y(0.5, 0.5);
  ExpectInvalid(
      [&] { Scalarize(Scalarization::kLinear, Eigen::Vector2d(-0.1, 1), UnitBox(2), y, nullptr); },
      "weights(0) = -0.1 must be >= 0");
  ObjectiveNormalization flat{Eigen::Vector2d(0, 1), Eigen::Vector2d(1, 1)};
  ExpectInvalid([&] { Scalarize(Scalarization::kLinear, Eigen::Vector2d(1, 1), flat, y, nullptr); },
                "normalization.upper(1) = 1 must be > normalization.lower(1) = 1");
  ExpectInvalid(
      [&] {
        Scalarize(Scalarization::kChebyshev, Eigen::Vector3d(1, 1, 1), UnitBox(2), y, nullptr);
      },
      "normalization.lower has 2 entries; expected 3");
  ExpectInvalid(
      [&] {
        Scalarize(Scalarization::kLinear, Eigen::Vector2d(1, 1), UnitBox(2),
                  Eigen::Vector2d(NAN, 0), nullptr);
      },
      "y(0, 0) = nan");
  ExpectInvalid(
      [&] {
        ScalarizedUpperConfidenceBound(Scalarization::kLinear, Eigen::Vector2d(1, 1), UnitBox(2), y,
                                       y, -1.0, nullptr, nullptr);
      },
      "sqrt_beta = -1");
}

}  // namespace
}  // namespace gpbandit
