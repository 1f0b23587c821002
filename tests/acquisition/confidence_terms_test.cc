// R and gamma_{t-1} of IGP-UCB and GP-TS (acquisition/confidence_terms.h), against values
// worked out by hand.
#include "gpbandit/acquisition/confidence_terms.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

RoundState State(double noise_variance, double signal_variance) {
  RoundState state;
  state.t = 4;
  state.noise_variance = noise_variance;
  state.signal_variance = signal_variance;
  state.information_gain = 7.0;
  state.sequential_variances = Eigen::Vector3d(3.0, 1.0, 0.0);
  return state;
}

TEST(ConfidenceTermsTest, FixedBoundIsKeptWithTheModelsGain) {
  // The papers' setting: R given (the model's noise is R^2 there); gamma is the round's own.
  const ConfidenceTerms terms = ResolveConfidenceTerms(0.5, 0.02, GammaOptions(), State(0.01, 2.0));
  EXPECT_EQ(terms.noise_bound, 0.5);
  EXPECT_EQ(terms.gamma, 7.0);
}

TEST(ConfidenceTermsTest, ModelBoundIsTheNoiseToSignalRatioAboveTheFloor) {
  // sqrt(0.08 / 2) = 0.2 > 0.02; lambda is the model's noise: gamma is the round's own.
  ConfidenceTerms terms = ResolveConfidenceTerms(-1.0, 0.02, GammaOptions(), State(0.08, 2.0));
  EXPECT_NEAR(terms.noise_bound, 0.2, 1e-15);
  EXPECT_EQ(terms.gamma, 7.0);
  // Noiseless: sqrt(2e-10 / 2) = 1e-5 < 0.02, so R = 0.02 and lambda = 4e-4 * 2 = 8e-4:
  // gamma = 1/2 (log 3751 + log 1251).
  terms = ResolveConfidenceTerms(-1.0, 0.02, GammaOptions(), State(2e-10, 2.0));
  EXPECT_EQ(terms.noise_bound, 0.02);
  EXPECT_NEAR(terms.gamma, 0.5 * (std::log(3751.0) + std::log(1251.0)), 1e-12);
}

TEST(ConfidenceTermsTest, WithoutSequentialVariancesOrWithABoundGammaIsUnchanged) {
  RoundState state = State(2e-10, 2.0);
  state.sequential_variances.resize(0);  // a finite-set loop
  EXPECT_EQ(ResolveConfidenceTerms(-1.0, 0.02, GammaOptions(), state).gamma, 7.0);
  GammaOptions bound;
  bound.source = GammaSource::kLinearBound;  // d log T = log 3
  EXPECT_NEAR(ResolveConfidenceTerms(-1.0, 0.02, bound, State(2e-10, 2.0)).gamma, std::log(3.0),
              1e-15);
}

TEST(ConfidenceTermsTest, RejectsBadInput) {
  testing::ExpectInvalid(
      [] { ResolveConfidenceTerms(std::nan(""), 0.02, GammaOptions(), State(0.1, 1.0)); },
      "noise_bound");
  testing::ExpectInvalid(
      [] { ResolveConfidenceTerms(-1.0, -0.1, GammaOptions(), State(0.1, 1.0)); },
      "min_noise_bound = -0.1");
  testing::ExpectInvalid([] { InformationGainAtNoise(Eigen::Vector2d(1.0, 2.0), 0.0); },
                         "lambda = 0");
}

}  // namespace
}  // namespace gpbandit
