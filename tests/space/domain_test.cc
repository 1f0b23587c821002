#include "gpbandit/space/domain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;
using ::testing::HasSubstr;

TEST(DomainTest, BoxBoundsAreChecked) {
  const double inf = std::numeric_limits<double>::infinity();
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, 3), Eigen::Vector2d(1, 2)); },
                "lower[1] = 3 is greater than upper[1] = 2");
  ExpectInvalid([&] { Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(inf, 1)); },
                "upper[0] is not finite: inf");
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(std::nan(""), 0), Eigen::Vector2d(1, 1)); },
                "lower[0] is not finite");
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, 0), Eigen::VectorXd::Ones(3)); },
                "lower has size 2 but upper has size 3");
  ExpectInvalid([] { Domain::Box(Eigen::VectorXd(), Eigen::VectorXd()); }, "empty");
  ExpectInvalid([] { Domain::FiniteSet(Eigen::MatrixXd(2, 0)); }, "2 x 0");
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)).WithContext(0); },
                "context_dim must be >= 1, got 0");
  ExpectInvalid(
      [] {
        Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1))
            .WithContext(2, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
      },
      "context bounds have size 1 but context_dim is 2");
}

// docs/design.md, "Faults": "huge or tiny rewards ... bounds whose width overflows": the unit-cube
// map divides by upper - lower, so a width beyond the largest double is refused at construction;
// the widest representable boxes still map exactly onto the cube.
TEST(HugeOrTinyRewardsTest, BoundsWhoseWidthOverflowsAreRefused) {
  const double big = std::numeric_limits<double>::max();
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, -1e308), Eigen::Vector2d(1, 1e308)); },
                "lower[1], upper[1] = -1e+308, 1e+308: the width upper - lower overflows");
  ExpectInvalid(
      [&] { Domain::Box(Eigen::VectorXd::Constant(1, -big), Eigen::VectorXd::Constant(1, 1e300)); },
      "the width upper - lower overflows");
  ExpectInvalid(
      [] {
        Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1))
            .WithContext(1, Eigen::VectorXd::Constant(1, -1e308),
                         Eigen::VectorXd::Constant(1, 1e308));
      },
      "context_lower[0], context_upper[0]");
  Eigen::MatrixXd candidates(1, 2);
  candidates << -1e308, 1e308;
  ExpectInvalid([&] { Domain::FiniteSet(candidates); },
                "candidates row 0 (smallest, largest) = -1e+308, 1e+308");
  // The widest boxes that fit: half the range on either side of 0, or a box far out.
  const Domain wide =
      Domain::Box(Eigen::Vector2d(-0.5 * big, 1e308), Eigen::Vector2d(0.5 * big, big));
  const Eigen::Vector2d x(0.25 * big, 1.5e308);
  const Eigen::VectorXd u = wide.ToUnit(x, Eigen::VectorXd());
  EXPECT_TRUE(u.allFinite());
  EXPECT_DOUBLE_EQ(u(0), 0.75);
  EXPECT_EQ(wide.ActionFromUnit(Eigen::Vector2d(1, 1)), Eigen::Vector2d(0.5 * big, big));
  EXPECT_EQ(wide.ActionFromUnit(Eigen::Vector2d(0, 0)), Eigen::Vector2d(-0.5 * big, 1e308));
}

TEST(DomainTest, UnitCubeMapRoundTripsAndFixedDimensionMapsToZero) {
  const Domain d =
      Domain::Box(Eigen::Vector3d(-5, 2, 0), Eigen::Vector3d(10, 2, 1e-6))
          .WithContext(1, Eigen::VectorXd::Constant(1, 10), Eigen::VectorXd::Constant(1, 20));
  EXPECT_EQ(d.input_dim(), 4);
  const Eigen::Vector3d x(2.5, 2, 5e-7);
  const Eigen::VectorXd u = d.ToUnit(x, Eigen::VectorXd::Constant(1, 15));
  EXPECT_DOUBLE_EQ(u(0), 0.5);
  EXPECT_EQ(u(1), 0.0);  // lower == upper: a fixed dimension
  EXPECT_NEAR(u(2), 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(u(3), 0.5);
  const Eigen::VectorXd back = d.ActionFromUnit(u);
  EXPECT_NEAR(back(0), 2.5, 1e-12);
  EXPECT_EQ(back(1), 2.0);
  EXPECT_NEAR(back(2), 5e-7, 1e-18);
}

TEST(DomainTest, PointsAHairOutsideTheCubeAreClampedExactlyIntoTheBox) {
  const Domain d = Domain::Box(Eigen::Vector2d(0.1, -3), Eigen::Vector2d(0.7, 3));
  Eigen::VectorXd u(2);
  u << 1.0 + 1e-15, -1e-15;
  const Eigen::VectorXd x = d.ActionFromUnit(u);
  EXPECT_EQ(x(0), 0.7);
  EXPECT_EQ(x(1), -3.0);
  // Whatever rounding does in between, 1.0 maps onto the upper bound exactly.
  u << 1.0, 1.0;
  EXPECT_EQ(d.ActionFromUnit(u)(0), 0.7);
  EXPECT_NO_THROW(d.CheckAction(d.ActionFromUnit(u), "x"));
}

TEST(DomainTest, PointsOnTheCubesFacesMapToTheExactBounds) {
  // The maximizer reaches a face only to within a few ulps (1 - 4e-15 printed as
  // 0.999999999999996 before): such coordinates are the bound itself.
  const Domain d = Domain::Box(Eigen::Vector3d(0, -5, 0.1), Eigen::Vector3d(1, 10, 0.7));
  Eigen::VectorXd u(3);
  u << 1.0 - 4e-15, 3e-16, 1.0 - 1e-14;
  const Eigen::VectorXd x = d.ActionFromUnit(u);
  EXPECT_EQ(x(0), 1.0);
  EXPECT_EQ(x(1), -5.0);
  EXPECT_EQ(x(2), 0.7);
  // Interior points keep the affine map.
  u << 1.0 - 1e-6, 1e-6, 0.5;
  const Eigen::VectorXd y = d.ActionFromUnit(u);
  EXPECT_LT(y(0), 1.0);
  EXPECT_NEAR(y(0), 1.0 - 1e-6, 1e-15);
  EXPECT_GT(y(1), -5.0);
  EXPECT_NEAR(y(1), -5.0 + 15e-6, 1e-14);
  EXPECT_NEAR(y(2), 0.4, 1e-15);
}

TEST(DomainTest, CheckActionAndContextNameTheProblem) {
  const Domain d = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)).WithContext(1);
  ExpectInvalid([&] { d.CheckAction(Eigen::Vector3d(0, 0, 0), "x"); },
                "x has size 3 but the action dimension is 2");
  ExpectInvalid([&] { d.CheckAction(Eigen::Vector2d(0, 1.5), "x"); },
                "x[1] = 1.5 is outside [0, 1]");
  ExpectInvalid([&] { d.CheckContext(Eigen::VectorXd(), "context"); },
                "context has size 0 but the context dimension is 1");
  // Unbounded contexts accept any finite value and pass through unscaled.
  EXPECT_NO_THROW(d.CheckContext(Eigen::VectorXd::Constant(1, 1e6), "context"));
  EXPECT_EQ(d.ContextToUnit(Eigen::VectorXd::Constant(1, 1e6))(0), 1e6);
  ExpectInvalid([&] { d.CheckContext(Eigen::VectorXd::Constant(1, std::nan("")), "z"); },
                "z[0] = nan is not finite");
}

TEST(DomainTest, FiniteSetUsesTheCandidatesBoundingBox) {
  Eigen::MatrixXd c(2, 3);
  c << 0, 4, 2, -1, 1, 3;
  const Domain d = Domain::FiniteSet(c);
  EXPECT_EQ(d.kind(), DomainKind::kFiniteSet);
  EXPECT_EQ(d.num_candidates(), 3);
  EXPECT_EQ(d.lower(), Eigen::Vector2d(0, -1));
  EXPECT_EQ(d.upper(), Eigen::Vector2d(4, 3));
  EXPECT_EQ(d.Describe(), "finite(d=2, N=3)");
  EXPECT_TRUE(d == Domain::FiniteSet(c));
  EXPECT_FALSE(d == Domain::Box(d.lower(), d.upper()));
}

}  // namespace
}  // namespace gpbandit
