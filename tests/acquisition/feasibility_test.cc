#include "gpbandit/acquisition/feasibility.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpbandit/acquisition/log_expected_improvement.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;

using testing::kInf;

// log Phi(z) and phi(z) / Phi(z), from mpmath at 40 digits (independent of erfc and of the
// continued fraction), covering both branches, their switch at -3 and the far tails.
struct TailValue {
  double z, log_cdf, ratio;
};
constexpr TailValue kTailValues[] = {
    {-1000.0, -500007.8266948121843, 1000.000999998000010},
    {-50.0, -1254.831361139419901, 50.01998403190563981},
    {-40.0, -804.6084420137537882, 40.02496884720726372},
    {-5.0, -15.06499839398872574, 5.186503967125842116},
    {-3.0, -6.607726221510349543, 3.283098654930436507},
    {-2.9, -6.284058234947418420, 3.190315139542981911},
    {1.0, -0.1727537790234498895, 0.2875999709391783612},
    {6.0, -9.865876455243757317e-10, 6.075882855817676445e-09},
};

TEST(LogNormalCdfTest, MatchesHighPrecisionValuesIntoTheFarTails) {
  for (const TailValue& v : kTailValues) {
    double ratio = 0.0;
    const double value = LogNormalCdf(v.z, &ratio);
    EXPECT_NEAR(value, v.log_cdf, 1e-14 * std::abs(v.log_cdf)) << "z = " << v.z;
    EXPECT_NEAR(ratio, v.ratio, 1e-14 * v.ratio) << "z = " << v.z;
  }
}

TEST(LogNormalCdfTest, ClosedFormsNearTheCentre) {
  EXPECT_DOUBLE_EQ(LogNormalCdf(0.0, nullptr), std::log(0.5));
  EXPECT_NEAR(std::exp(LogNormalCdf(-1.0, nullptr)), 0.15865525393145707, 1e-16);
  EXPECT_NEAR(std::exp(LogNormalCdf(1.96, nullptr)), 0.9750021048517795, 1e-15);
}

TEST(LogNormalCdfTest, DerivativeMatchesFiniteDifferences) {
  for (double z : {-60.0, -8.0, -3.0001, -2.9999, -0.5, 0.0, 2.0, 7.0}) {
    double derivative = 0.0;
    LogNormalCdf(z, &derivative);
    Eigen::VectorXd x(1);
    x << z;
    ExpectGradientNear([](const Eigen::VectorXd& v) { return LogNormalCdf(v(0), nullptr); }, x,
                       Eigen::VectorXd::Constant(1, derivative), 1e-6, 1e-9,
                       "z = " + std::to_string(z));
  }
}

TEST(ProbabilityOfFeasibilityTest, ProductOfNormalCdfs) {
  Eigen::VectorXd mean(2), sigma(2);
  mean << 0.0, -1.0;  // c <= 0: Phi(0) = 0.5, Phi(1 / 0.5) = Phi(2)
  sigma << 1.0, 0.5;
  const double expected = 0.5 * 0.9772498680518208;
  EXPECT_NEAR(std::exp(LogProbabilityOfFeasibility(mean, sigma, nullptr, nullptr)), expected,
              1e-15);
  EXPECT_EQ(LogProbabilityOfFeasibility(Eigen::VectorXd(0), Eigen::VectorXd(0), nullptr, nullptr),
            0.0);
}

TEST(ProbabilityOfFeasibilityTest, LogFormFiniteWherePlainFormUnderflows) {
  Eigen::VectorXd mean(2), sigma(2);
  mean << 50.0, 40.0;  // P = Phi(-50) Phi(-40): ~1e-545 * 1e-350, 0 in double
  sigma << 1.0, 1.0;
  EXPECT_EQ(0.5 * std::erfc(50.0 / std::sqrt(2.0)) * 0.5 * std::erfc(40.0 / std::sqrt(2.0)), 0.0);
  Eigen::VectorXd d_mean;
  const double log_pof = LogProbabilityOfFeasibility(mean, sigma, &d_mean, nullptr);
  EXPECT_NEAR(log_pof, -1254.831361139419901 - 804.6084420137537882, 1e-11);
  // The gradient still points toward feasibility: about -z per constraint.
  EXPECT_NEAR(d_mean(0), -50.01998403190563981, 1e-12);
  EXPECT_NEAR(d_mean(1), -40.02496884720726372, 1e-12);
}

TEST(ProbabilityOfFeasibilityTest, GradientMatchesFiniteDifferences) {
  Eigen::VectorXd mean(3), sigma(3);
  mean << 0.3, -1.2, 7.0;
  sigma << 0.8, 2.0, 1.5;
  Eigen::VectorXd d_mean, d_sigma;
  LogProbabilityOfFeasibility(mean, sigma, &d_mean, &d_sigma);
  ExpectGradientNear(
      [&](const Eigen::VectorXd& m) {
        return LogProbabilityOfFeasibility(m, sigma, nullptr, nullptr);
      },
      mean, d_mean, 1e-6, 1e-9, "d_mean");
  ExpectGradientNear(
      [&](const Eigen::VectorXd& s) {
        return LogProbabilityOfFeasibility(mean, s, nullptr, nullptr);
      },
      sigma, d_sigma, 1e-6, 1e-9, "d_sigma");
}

TEST(FeasibleWhenNonPositiveTest, ConvertsBothSenses) {
  EXPECT_EQ(FeasibleWhenNonPositive(0.3, {ConstraintSense::kLessEqual, 0.1}), 0.3 - 0.1);
  EXPECT_EQ(FeasibleWhenNonPositive(0.05, {ConstraintSense::kLessEqual, 0.1}), 0.05 - 0.1);
  EXPECT_EQ(FeasibleWhenNonPositive(2.0, {ConstraintSense::kGreaterEqual, 5.0}), 3.0);
  EXPECT_EQ(FeasibleWhenNonPositive(7.0, {ConstraintSense::kGreaterEqual, 5.0}), -2.0);
  ExpectInvalid(
      [] {
        FeasibleWhenNonPositive(1.0, {ConstraintSense::kLessEqual, NAN});
      },
      "bound = nan");
}

TEST(ConstrainedLogExpectedImprovementTest, IsLogEiPlusLogPof) {
  Eigen::VectorXd c_mean(1), c_sigma(1);
  c_mean << -0.5;
  c_sigma << 1.0;
  // EI(mu = -0.5, sigma = 1, best = 0) = 0.19780 (BoTorch's test value); PoF = Phi(0.5).
  const double score = ConstrainedLogExpectedImprovement(-0.5, 1.0, 0.0, c_mean, c_sigma, nullptr);
  EXPECT_NEAR(std::exp(score), 0.1977965574013060 * 0.6914624612740131, 1e-10);
}

TEST(ConstrainedLogExpectedImprovementTest, SearchesForFeasibilityWhenNoneObserved) {
  Eigen::VectorXd c_mean(2), c_sigma(2);
  c_mean << 1.0, 2.0;
  c_sigma << 0.5, 1.0;
  ConstrainedScoreGradient gradient;
  const double score =
      ConstrainedLogExpectedImprovement(3.0, 1.0, -kInf, c_mean, c_sigma, &gradient);
  EXPECT_DOUBLE_EQ(score, LogProbabilityOfFeasibility(c_mean, c_sigma, nullptr, nullptr));
  EXPECT_EQ(gradient.d_mean, 0.0);
  EXPECT_EQ(gradient.d_sigma, 0.0);
}

TEST(ConstrainedLogExpectedImprovementTest, GradientMatchesFiniteDifferences) {
  // x = (mean, sigma, c_mean(0), c_mean(1), c_sigma(0), c_sigma(1)).
  Eigen::VectorXd x(6);
  x << -2.0, 0.7, 0.4, -3.0, 1.1, 0.6;
  auto score = [](const Eigen::VectorXd& v, ConstrainedScoreGradient* g) {
    return ConstrainedLogExpectedImprovement(v(0), v(1), 1.0, v.segment(2, 2), v.segment(4, 2), g);
  };
  ConstrainedScoreGradient g;
  score(x, &g);
  Eigen::VectorXd analytic(6);
  analytic << g.d_mean, g.d_sigma, g.d_constraint_mean, g.d_constraint_sigma;
  ExpectGradientNear([&](const Eigen::VectorXd& v) { return score(v, nullptr); }, x, analytic, 1e-6,
                     1e-9);
}

TEST(ConstrainedLogExpectedImprovementTest, RefusesBadInput) {
  const Eigen::VectorXd one = Eigen::VectorXd::Ones(1);
  ExpectInvalid([&] { ConstrainedLogExpectedImprovement(0, 1, NAN, one, one, nullptr); },
                "best = nan");
  ExpectInvalid([&] { ConstrainedLogExpectedImprovement(0, 0, 0, one, one, nullptr); },
                "sigma = 0");
  ExpectInvalid([&] { ConstrainedLogExpectedImprovement(0, 1, 0, one, -one, nullptr); },
                "constraint_sigma(0) = -1");
  ExpectInvalid(
      [&] { ConstrainedLogExpectedImprovement(0, 1, 0, Eigen::VectorXd::Ones(2), one, nullptr); },
      "constraint_mean has 2 entries");
  Eigen::VectorXd nan_mean(1);
  nan_mean << NAN;
  ExpectInvalid([&] { LogProbabilityOfFeasibility(nan_mean, one, nullptr, nullptr); },
                "constraint_mean(0, 0) = nan");
}

TEST(ChooseScboTest, BestObjectiveAmongFeasibleDraws) {
  Eigen::VectorXd objective(4);
  objective << 5.0, 3.0, 4.0, 4.0;
  Eigen::MatrixXd constraints(2, 4);
  constraints << 0.1, -1.0, 0.0, -2.0,  //
      -1.0, -1.0, -0.5, 0.0;
  // Candidate 0 is infeasible (0.1 > 0); 2 and 3 tie at 4: the smaller index wins.
  const ScboChoice choice = ChooseScbo(objective, constraints);
  EXPECT_EQ(choice.index, 2);
  EXPECT_TRUE(choice.feasible);
  EXPECT_EQ(choice.total_violation, 0.0);
}

TEST(ChooseScboTest, LeastTotalViolationWhenNoDrawIsFeasible) {
  Eigen::VectorXd objective(3);
  objective << 9.0, 1.0, 2.0;
  Eigen::MatrixXd constraints(2, 3);
  constraints << 1.0, 0.3, 0.2,  //
      1.0, -5.0, 0.2;
  // Violations 2.0, 0.3 (the -5 does not offset), 0.4.
  const ScboChoice choice = ChooseScbo(objective, constraints);
  EXPECT_EQ(choice.index, 1);
  EXPECT_FALSE(choice.feasible);
  EXPECT_DOUBLE_EQ(choice.total_violation, 0.3);
}

TEST(ChooseScboTest, NoConstraintsIsPlainThompsonSampling) {
  Eigen::VectorXd objective(3);
  objective << 1.0, 3.0, 2.0;
  EXPECT_EQ(ChooseScbo(objective, Eigen::MatrixXd(0, 3)).index, 1);
}

TEST(ChooseScboTest, RefusesBadInput) {
  ExpectInvalid([] { ChooseScbo(Eigen::VectorXd(0), Eigen::MatrixXd(1, 0)); }, "objective_draws");
  ExpectInvalid([] { ChooseScbo(Eigen::VectorXd::Ones(2), Eigen::MatrixXd::Ones(1, 3)); },
                "constraint_draws has 3 columns");
  Eigen::MatrixXd constraints = Eigen::MatrixXd::Ones(1, 2);
  constraints(0, 1) = NAN;
  ExpectInvalid([&] { ChooseScbo(Eigen::VectorXd::Ones(2), constraints); },
                "constraint_draws(0, 1) = nan");
}

}  // namespace
}  // namespace gpbandit
