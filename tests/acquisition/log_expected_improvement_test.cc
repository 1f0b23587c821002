#include "gpbandit/acquisition/log_expected_improvement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpbandit/acquisition/expected_improvement.h"
#include "gpbandit/maximizer/finite_argmax.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/acquisition/options_json_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::FakePosterior;
using testing::MakeRound;

constexpr long double kLogSqrt2Pi = 0.918938533204672741780329736405617639861L;

// The reference, computed without erfc, erfcx or continued fractions: substituting x = -z + s
// in h(z) = integral_{-z}^inf (x + z) phi(x) dx gives h(z) = phi(z) I1(z) and Phi(z) =
// phi(z) I0(z), with I_k(z) = integral_0^inf s^k exp(z s - s^2 / 2) ds, integrands free of
// cancellation. So log h(z) = -z^2/2 - log sqrt(2 pi) + log I1(z) and d log h / dz = I0 / I1.
// Composite Simpson in long double, in w = s (|z| + 1) so that the integrand's width is O(1)
// however far below the incumbent z lies.
struct Reference {
  long double log_h;
  long double derivative;
};

Reference QuadratureReference(double z) {
  const long double c = 1.0L / (std::fabs(static_cast<long double>(z)) + 1.0L);
  const long double upper = 60.0L + (z > 0 ? 2.0L * z / c : 0.0L);
  const int n = 40000;  // even
  const long double h = upper / n;
  long double i0 = 0, i1 = 0;
  for (int k = 0; k <= n; ++k) {
    const long double w = k * h, s = w * c;
    const long double weight = (k == 0 || k == n) ? 1 : (k % 2 ? 4 : 2);
    const long double e = std::exp(static_cast<long double>(z) * s - 0.5L * s * s);
    i0 += weight * e;
    i1 += weight * s * e;
  }
  // The common factor c h / 3 cancels in the ratio; it is kept in the value.
  const long double scale = c * h / 3.0L;
  return {-0.5L * z * z - kLogSqrt2Pi + std::log(i1 * scale), i0 / i1};
}

TEST(LogExpectedImprovementTest, LogHMatchesAnIndependentQuadrature) {
  for (double z : {8.0,  3.0,   1.0,   0.0,   -0.5,  -1.0,  -2.5,   -2.999, -3.0, -3.001, -4.0,
                   -6.0, -10.0, -20.0, -38.0, -40.0, -60.0, -100.0, -1e3,   -1e4, -1e6}) {
    double derivative = 0;
    const double log_h = LogImprovementFactor(z, &derivative);
    const Reference ref = QuadratureReference(z);
    const double magnitude = std::max(1.0, std::fabs(static_cast<double>(ref.log_h)));
    EXPECT_NEAR(log_h, static_cast<double>(ref.log_h), 1e-12 * magnitude) << "z = " << z;
    EXPECT_NEAR(derivative, static_cast<double>(ref.derivative),
                1e-11 * std::max(1.0, std::fabs(static_cast<double>(ref.derivative))))
        << "z = " << z;
  }
}

TEST(LogExpectedImprovementTest, MatchesPublishedEiValues) {
  // BoTorch's reference EI(mu = -0.5, sigma = 1, best = 0) = 0.19779655740130608, and h(z) from
  // mpmath at 50 digits (tests/acquisition/expected_improvement_test.cc) far below: log of each.
  EXPECT_NEAR(LogImprovementFactor(-0.5, nullptr), std::log(0.19779655740130608), 1e-14);
  EXPECT_NEAR(LogImprovementFactor(-10.0, nullptr), std::log(7.4745602545893280e-25), 1e-13);
  EXPECT_NEAR(LogImprovementFactor(-20.0, nullptr), std::log(1.3700124947295799e-90), 1e-12);
  EXPECT_NEAR(LogImprovementFactor(-30.0, nullptr), std::log(1.6319567340914012e-199), 1e-12);
}

TEST(LogExpectedImprovementTest, AgreesWithEiWhereEiIsRepresentable) {
  for (double mean : {-4.0, -1.0, 0.2, 2.0}) {
    for (double sigma : {0.3, 1.0, 2.5}) {
      const double ei = ExpectedImprovementValue(mean, sigma, 0.2, nullptr, nullptr);
      const double log_ei = LogExpectedImprovementValue(mean, sigma, 0.2, nullptr, nullptr);
      EXPECT_NEAR(std::exp(log_ei) / ei, 1.0, 1e-9) << mean << " " << sigma;
    }
  }
}

TEST(LogExpectedImprovementTest, FarAsymptoteBeyondTheContinuedFraction) {
  // Past u = 1e100 the closed form -z^2/2 - log sqrt(2 pi) - 2 log u is used; the continued
  // fraction just below must agree with it (log(1 + u T(u)) = 2 log u + log(1 + 2 / u^2)).
  for (double u : {0.99e100, 1.01e100, 1e120}) {
    double derivative = 0;
    const double log_h = LogImprovementFactor(-u, &derivative);
    const double expected = -0.5 * u * u - static_cast<double>(kLogSqrt2Pi) - 2.0 * std::log(u);
    EXPECT_NEAR(log_h / expected, 1.0, 1e-15);
    EXPECT_NEAR(derivative / u, 1.0, 1e-15);
  }
}

TEST(LogExpectedImprovementTest, DerivativesMatchFiniteDifferencesFarBelowTheIncumbent) {
  LogExpectedImprovement log_ei;
  log_ei.BeginRound(MakeRound(1, 1, 0.3));
  // z from +2 to -45 and beyond: EI itself is 0 below z = -38, its log is not.
  for (double mean : {1.5, 0.3, -2.0, -12.0, -45.0, -300.0}) {
    for (double variance : {0.04, 1.0, 6.25}) {
      double d_mean = 0, d_variance = 0;
      const double value = log_ei.Score(mean, variance, &d_mean, &d_variance);
      ASSERT_TRUE(std::isfinite(value)) << mean << " " << variance;
      testing::ExpectGradientNear(
          [&](const Eigen::VectorXd& p) { return log_ei.Score(p(0), p(1), nullptr, nullptr); },
          Eigen::Vector2d(mean, variance), Eigen::Vector2d(d_mean, d_variance), 1e-5, 1e-6,
          "log-ei");
    }
  }
}

TEST(LogExpectedImprovementTest, MarginAndNoIncumbent) {
  ImprovementOptions options;
  options.xi = 0.5;
  LogExpectedImprovement log_ei(options);
  log_ei.BeginRound(MakeRound(1, 1, -0.5));
  EXPECT_NEAR(log_ei.Score(-0.5, 1.0, nullptr, nullptr), std::log(0.19779655740130608), 1e-14);
  EXPECT_EQ(log_ei.figure(), 0.5);
  EXPECT_EQ(log_ei.name(), "log-ei");
  log_ei.BeginRound(MakeRound(1, 1, -std::numeric_limits<double>::infinity()));
  double d_mean = 0;
  EXPECT_EQ(log_ei.Score(0.25, 1.0, &d_mean, nullptr), 0.25);
  EXPECT_EQ(d_mean, 1.0);
}

TEST(LogExpectedImprovementTest, VarianceFloorFollowsTheSignalVariance) {
  LogExpectedImprovement log_ei;
  RoundState state = MakeRound(1, 1, 1.0);
  state.signal_variance = 4.0;  // the floor is 4e-12: sigma >= 2e-6
  log_ei.BeginRound(state);
  double d_mean = 0, d_variance = 1;
  // At an observed point of a noiseless model: variance 0, mean below the incumbent.
  const double at_zero = log_ei.Score(0.5, 0.0, &d_mean, &d_variance);
  const double expected = std::log(2e-6) + LogImprovementFactor(-0.5 / 2e-6, nullptr);
  EXPECT_NEAR(at_zero, expected, 1e-12 * std::fabs(expected));
  EXPECT_EQ(d_variance, 0.0);
  EXPECT_GT(d_mean, 0.0);
  EXPECT_EQ(log_ei.Score(0.5, 1e-13, nullptr, nullptr), at_zero);
  EXPECT_GT(log_ei.Score(0.5, 1e-11, nullptr, nullptr), at_zero);
}

TEST(LogExpectedImprovementTest, RanksCandidatesWhereEiUnderflowsToZero) {
  // Every candidate lies 39 to 60 sigma below the incumbent: EI is 0 for all of them (a tie,
  // its argmax is the first index), LogEI still orders them as the exact EI does.
  const Eigen::VectorXd means = (Eigen::VectorXd(3) << -60.0, -39.5, -45.0).finished();
  const Eigen::VectorXd variances = (Eigen::VectorXd(3) << 1.0, 1.0, 1.0).finished();
  FakePosterior posterior(means, variances);
  Rng rng(1);
  ExpectedImprovement ei;
  LogExpectedImprovement log_ei;
  ei.BeginRound(MakeRound(2, 3, 0.0));
  log_ei.BeginRound(MakeRound(2, 3, 0.0));
  EXPECT_EQ(ei.ScoreCandidates(posterior, rng).maxCoeff(), 0.0);
  const Eigen::VectorXd scores = log_ei.ScoreCandidates(posterior, rng);
  EXPECT_EQ(FiniteArgmax(scores), 1);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(scores(i), static_cast<double>(QuadratureReference(means(i)).log_h),
                1e-12 * std::fabs(scores(i)));
}

TEST(LogExpectedImprovementTest, OptionsSurviveJsonExactly) {
  testing::ExpectXiSurvivesJson<LogExpectedImprovement>();
}

TEST(LogExpectedImprovementTest, RejectsBadOptionsAndRounds) {
  ImprovementOptions options;
  options.xi = -1.0;
  EXPECT_THROW(LogExpectedImprovement{options}, std::invalid_argument);
  LogExpectedImprovement log_ei;
  RoundState state = MakeRound(1, 1, 0.0);
  state.signal_variance = 0.0;
  testing::ExpectInvalid([&] { log_ei.BeginRound(state); }, "signal_variance");
}

}  // namespace
}  // namespace gpbandit
