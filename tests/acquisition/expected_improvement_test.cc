#include "gpbandit/acquisition/expected_improvement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/acquisition/fake_posterior.h"
#include "tests/acquisition/options_json_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::MakeRound;

TEST(ExpectedImprovementTest, ClosedFormValue) {
  // BoTorch's reference: EI(mu = -0.5, sigma = 1, best = 0) = 0.19780.
  ExpectedImprovement ei;
  ei.BeginRound(MakeRound(1, 1, 0.0));
  EXPECT_NEAR(ei.Score(-0.5, 1.0, nullptr, nullptr), 0.19779655740130608, 1e-12);
  // Scaling: EI(mu, sigma, best) = sigma h((mu - best) / sigma). mu = 1, sigma = 2, best = 2:
  // z = -0.5, so EI = 2 * 0.197796557...
  ei.BeginRound(MakeRound(1, 1, 2.0));
  EXPECT_NEAR(ei.Score(1.0, 4.0, nullptr, nullptr), 2.0 * 0.19779655740130608, 1e-12);
}

TEST(ExpectedImprovementTest, MarginShiftsTheIncumbent) {
  ImprovementOptions options;
  options.xi = 0.5;
  ExpectedImprovement ei(options);
  ei.BeginRound(MakeRound(1, 1, -0.5));
  EXPECT_NEAR(ei.Score(-0.5, 1.0, nullptr, nullptr), 0.19779655740130608, 1e-12);
  EXPECT_EQ(ei.figure(), 0.5);
  // A relative margin of 0.125 prior standard deviations with signal variance 16 is xi = 0.5
  // too; EI's default has none.
  EXPECT_EQ(ExpectedImprovement().options().relative_xi, 0.0);
  ImprovementOptions relative;
  relative.relative_xi = 0.125;
  ExpectedImprovement scaled(relative);
  RoundState state = MakeRound(1, 1, -0.5);
  state.signal_variance = 16.0;
  scaled.BeginRound(state);
  EXPECT_EQ(scaled.figure(), 0.5);
  EXPECT_NEAR(scaled.Score(-0.5, 1.0, nullptr, nullptr), 0.19779655740130608, 1e-12);
}

TEST(ExpectedImprovementTest, FarBelowTheIncumbentIsTinyButFiniteAndAccurate) {
  ExpectedImprovement ei;
  ei.BeginRound(MakeRound(1, 1, 0.0));
  // h(z) = phi(z) + z Phi(z), reference values from mpmath at 50 digits.
  const double h10 = 7.4745602545893280e-25, h20 = 1.3700124947295799e-90,
               h30 = 1.6319567340914012e-199;
  EXPECT_NEAR(ei.Score(-10.0, 1.0, nullptr, nullptr) / h10, 1.0, 1e-8);
  EXPECT_NEAR(ei.Score(-20.0, 1.0, nullptr, nullptr) / h20, 1.0, 1e-8);
  EXPECT_NEAR(ei.Score(-30.0, 1.0, nullptr, nullptr) / h30, 1.0, 1e-8);
  const double far = ei.Score(-1e6, 1.0, nullptr, nullptr);
  EXPECT_TRUE(std::isfinite(far));
  EXPECT_GE(far, 0.0);
  EXPECT_LT(far, 1e-300);
}

TEST(ExpectedImprovementTest, ZeroVarianceAndEqualValuesStayFinite) {
  ExpectedImprovement ei;
  ei.BeginRound(MakeRound(3, 1, 1.0));
  double d_mean = 0, d_variance = 0;
  EXPECT_EQ(ei.Score(1.5, 0.0, &d_mean, &d_variance), 0.5);
  EXPECT_EQ(d_mean, 1.0);
  EXPECT_EQ(ei.Score(0.5, 0.0, &d_mean, &d_variance), 0.0);
  EXPECT_EQ(d_mean, 0.0);
  // Every y equals the incumbent and the variance is 0: EI = 0, finite derivatives.
  EXPECT_EQ(ei.Score(1.0, 0.0, &d_mean, &d_variance), 0.0);
  EXPECT_TRUE(std::isfinite(d_mean) && std::isfinite(d_variance));
  // A tiny variance at the incumbent: sigma phi(0).
  EXPECT_NEAR(ei.Score(1.0, 1e-20, &d_mean, &d_variance), 1e-10 * 0.3989422804014327, 1e-24);
  EXPECT_TRUE(std::isfinite(d_variance));
}

TEST(ExpectedImprovementTest, NoIncumbentScoresTheMean) {
  ExpectedImprovement ei;
  ei.BeginRound(MakeRound(1, 1, -std::numeric_limits<double>::infinity()));
  EXPECT_EQ(ei.Score(0.25, 1.0, nullptr, nullptr), 0.25);
}

TEST(ExpectedImprovementTest, DerivativesMatchFiniteDifferences) {
  ExpectedImprovement ei;
  ei.BeginRound(MakeRound(1, 1, 0.3));
  for (double mean : {-3.0, -0.5, 0.3, 1.2}) {
    for (double variance : {0.04, 1.0, 2.5}) {
      double d_mean = 0, d_variance = 0;
      ei.Score(mean, variance, &d_mean, &d_variance);
      const Eigen::Vector2d x(mean, variance);
      const Eigen::Vector2d analytic(d_mean, d_variance);
      testing::ExpectGradientNear(
          [&](const Eigen::VectorXd& p) { return ei.Score(p(0), p(1), nullptr, nullptr); }, x,
          analytic, 1e-6, 1e-9, "EI");
    }
  }
}

TEST(ExpectedImprovementTest, IncumbentRuleSelectsTheBar) {
  // The posterior maximum at the observations is 0 (the default bar); the best observed reward,
  // a lucky noisy one, is 0.5: EI(mu = 0, sigma = 1) is h(0) = phi(0) or h(-0.5) = 0.19780.
  RoundState state = MakeRound(4, 1, 0.0);
  state.best_observed = 0.5;
  ExpectedImprovement by_mean;
  by_mean.BeginRound(state);
  EXPECT_NEAR(by_mean.Score(0.0, 1.0, nullptr, nullptr), 0.3989422804014327, 1e-15);
  ImprovementOptions options;
  options.incumbent_rule = IncumbentRule::kBestObserved;
  ExpectedImprovement by_observation(options);
  by_observation.BeginRound(state);
  EXPECT_EQ(by_observation.incumbent(), 0.5);
  EXPECT_NEAR(by_observation.Score(0.0, 1.0, nullptr, nullptr), 0.19779655740130608, 1e-15);
  EXPECT_EQ(ParseIncumbentRule("best-observed"), IncumbentRule::kBestObserved);
  EXPECT_EQ(IncumbentRuleName(IncumbentRule::kPosteriorMean), "posterior-mean");
  EXPECT_THROW(ParseIncumbentRule("median"), std::invalid_argument);
}

TEST(ExpectedImprovementTest, RejectsNegativeMargin) {
  ImprovementOptions options;
  options.xi = -1.0;
  EXPECT_THROW(ExpectedImprovement{options}, std::invalid_argument);
}

TEST(ExpectedImprovementTest, OptionsSurviveJsonExactly) {
  testing::ExpectXiSurvivesJson<ExpectedImprovement>();
}

}  // namespace
}  // namespace gpbandit
