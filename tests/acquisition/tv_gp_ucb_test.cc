#include "gpbandit/acquisition/tv_gp_ucb.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

TEST(TvGpUcbTest, DeclaresTheForgettingModelOfItsOptions) {
  const auto s = TvGpUcb::Create(StrategyParams(R"({"epsilon":0.03,"fit_epsilon":true})"));
  EXPECT_EQ(s->name(), "tv-gp-ucb");
  const TimeModel m = s->time_model();
  EXPECT_EQ(m.kind, TimeModelKind::kForgetting);
  EXPECT_EQ(m.epsilon, 0.03);
  EXPECT_TRUE(m.fit_epsilon);
  EXPECT_EQ(m.min_epsilon, 1e-4);
  EXPECT_EQ(m.max_epsilon, 0.5);
}

// Theorem 4.3 keeps GP-UCB's beta_t: on a finite set 2 log(|D| t^2 pi^2 / (6 delta)).
TEST(TvGpUcbTest, BetaIsGpUcbsFiniteSetSchedule) {
  TvGpUcb s;
  RoundState state;
  state.t = 4;
  state.num_candidates = 20;
  s.BeginRound(state);
  const double pi = std::acos(-1.0);
  EXPECT_NEAR(s.figure(), 2 * std::log(20 * 16 * pi * pi / (6 * 0.1)), 1e-12);
  EXPECT_EQ(s.figure_name(), "beta_t");
}

TEST(TvGpUcbTest, OptionsRoundTripThroughJson) {
  const auto s = TvGpUcb::Create(StrategyParams(R"({"epsilon":0.2,"delta":0.05})"));
  const auto again = TvGpUcb::Create(StrategyParams(s->OptionsJson()));
  EXPECT_EQ(again->OptionsJson(), s->OptionsJson());
  EXPECT_THAT(s->OptionsJson(), ::testing::HasSubstr("\"epsilon\":0.2"));
  EXPECT_THAT(s->OptionsJson(), ::testing::HasSubstr("\"delta\":0.05"));
}

// The strategy of options o (with constant beta 4, sqrt 2) after a round with prior variance
// s^2 = 4 and these one-step residuals.
TvGpUcb AfterRound(TvGpUcbOptions o, const std::vector<double>& residuals = {}) {
  o.ucb.beta.kind = BetaScheduleKind::kConstant;
  o.ucb.beta.constant_beta = 4.0;
  TvGpUcb s(o);
  RoundState state;
  state.t = 30;
  state.signal_variance = 4.0;
  state.one_step_residuals = Eigen::Map<const Eigen::VectorXd>(residuals.data(), residuals.size());
  s.BeginRound(state);
  return s;
}

// Cap c, no residuals (never settled): the bonus reads min(sigma^2, 4 c).
TvGpUcb CappedAt(double cap) {
  TvGpUcbOptions o;
  o.variance_cap = cap;
  return AfterRound(o);
}

TEST(TvGpUcbTest, CapBoundsTheBonusAtAFractionOfThePriorVariance) {
  const TvGpUcb s = CappedAt(0.25);  // limit 0.25 * 4 = 1
  double d_mean = 0.0, d_variance = -1.0;
  // sigma^2 = 3 is above the limit: 0.5 + 2 sqrt(1), and the variance no longer pulls.
  EXPECT_DOUBLE_EQ(s.Score(0.5, 3.0, &d_mean, &d_variance), 2.5);
  EXPECT_EQ(d_mean, 1.0);
  EXPECT_EQ(d_variance, 0.0);
  // The prior variance itself scores as the limit does.
  EXPECT_DOUBLE_EQ(s.Score(0.5, 4.0, nullptr, nullptr), 2.5);
  // Below the limit, GP-UCB's score and slope: 0.5 + 2 * 0.8, d/d var = 2 / (2 * 0.8).
  EXPECT_DOUBLE_EQ(s.Score(0.5, 0.64, &d_mean, &d_variance), 2.1);
  EXPECT_DOUBLE_EQ(d_variance, 1.25);
}

TEST(TvGpUcbTest, CapOfOneIsThePapersRule) {
  const TvGpUcb s = CappedAt(1.0);
  // No comparison against the prior variance at all: sigma^2 = 9 > s^2 still reads whole.
  EXPECT_DOUBLE_EQ(s.Score(0.0, 9.0, nullptr, nullptr), 6.0);
  EXPECT_DOUBLE_EQ(s.Score(0.0, 4.0, nullptr, nullptr), 4.0);
}

// The case the cap is for: a region measured recently, mean 2 sigma^2 0.04, against a corner
// forgotten back to the prior (mean 0, sigma^2 = s^2 = 4). The paper's rule asks the corner.
TEST(TvGpUcbTest, CappedBonusKeepsAKnownGoodRegionAheadOfAForgottenCorner) {
  const double good_mean = 2.0, good_variance = 0.04, prior_variance = 4.0;
  const TvGpUcb paper = CappedAt(1.0), capped = CappedAt(0.25);
  EXPECT_GT(paper.Score(0.0, prior_variance, nullptr, nullptr),
            paper.Score(good_mean, good_variance, nullptr, nullptr));
  EXPECT_LT(capped.Score(0.0, prior_variance, nullptr, nullptr),
            capped.Score(good_mean, good_variance, nullptr, nullptr));
  // Near the data the two agree.
  EXPECT_EQ(capped.Score(good_mean, good_variance, nullptr, nullptr),
            paper.Score(good_mean, good_variance, nullptr, nullptr));
}

TEST(TvGpUcbTest, DefaultCapAndItsJsonKey) {
  EXPECT_EQ(TvGpUcbOptions().variance_cap, 1.0);  // the paper's rule
  const auto s = TvGpUcb::Create(StrategyParams(R"({"variance_cap":0.5})"));
  EXPECT_EQ(static_cast<const TvGpUcb&>(*s).tv_options().variance_cap, 0.5);
  EXPECT_THAT(s->OptionsJson(), ::testing::HasSubstr("\"variance_cap\":0.5"));
}

TEST(TvGpUcbTest, DefaultPriorMeanIsGlsAndReachesTheTimeModel) {
  EXPECT_EQ(TvGpUcb().time_model().prior_mean, PriorMeanEstimate::kGeneralizedLeastSquares);
  EXPECT_THAT(TvGpUcb().OptionsJson(), ::testing::HasSubstr("\"prior_mean\":\"gls\""));
  const auto s = TvGpUcb::Create(StrategyParams(R"({"prior_mean":"sample-mean"})"));
  EXPECT_EQ(s->time_model().prior_mean, PriorMeanEstimate::kSampleMean);
  EXPECT_THAT(s->OptionsJson(), ::testing::HasSubstr("\"prior_mean\":\"sample-mean\""));
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"prior_mean":"mean"})")); }, "prior_mean");
}

// The default caps (c = 1, c_s = 0.1, W = 5, h = 4, g = 1) or settled_cap as c_s, after these
// one-step residuals.
TvGpUcb AfterResiduals(const std::vector<double>& z, double settled_cap = 0.1) {
  TvGpUcbOptions o;
  o.settled_variance_cap = settled_cap;
  return AfterRound(o, z);
}

TEST(TvGpUcbTest, DefaultsOfTheSettledCap) {
  const TvGpUcbOptions o;
  EXPECT_EQ(o.settled_variance_cap, 0.1);
  EXPECT_EQ(o.surprise_window, 5);
  EXPECT_EQ(o.surprise_threshold, 4.0);
  EXPECT_EQ(o.decline_threshold, 1.0);
}

// Settled: the bonus reads min(sigma^2, 0.1 * 4): at the prior variance 2 sqrt(0.4).
TEST(TvGpUcbTest, SettledRunCapsTheBonusAtTheSettledFraction) {
  const TvGpUcb s = AfterResiduals({0.5, -0.3, 0.2, 0.4, -0.1});
  EXPECT_TRUE(s.settled());
  double d_variance = -1.0;
  EXPECT_DOUBLE_EQ(s.Score(1.0, 4.0, nullptr, &d_variance), 1.0 + 2.0 * std::sqrt(0.4));
  EXPECT_EQ(d_variance, 0.0);
  EXPECT_DOUBLE_EQ(s.Score(1.0, 0.25, nullptr, nullptr), 2.0);  // below the cap: GP-UCB's
  // Only the last W residuals count: a surprise before them is over.
  EXPECT_TRUE(AfterResiduals({9.0, 0.5, -0.3, 0.2, 0.4, -0.1}).settled());
  // c_s = 1 never caps.
  EXPECT_DOUBLE_EQ(AfterResiduals({0.0, 0.0, 0.0, 0.0, 0.0}, 1.0).Score(0.0, 4.0, nullptr, nullptr),
                   4.0);
}

TEST(TvGpUcbTest, SurpriseDeclineOrTooFewResidualsLiftTheSettledCap) {
  const auto uncapped = [](const TvGpUcb& s) {
    EXPECT_FALSE(s.settled());
    EXPECT_DOUBLE_EQ(s.Score(0.0, 4.0, nullptr, nullptr), 4.0);  // 2 sqrt(4): the whole variance
  };
  uncapped(AfterResiduals({}));                         // no residuals (finite-set models)
  uncapped(AfterResiduals({0.1, 0.1, 0.1, 0.1}));       // fewer than W
  uncapped(AfterResiduals({0.1, 0.1, 4.5, 0.1, 0.1}));  // mean z^2 = 4.06 > h: an abrupt change
  uncapped(AfterResiduals({-0.5, -0.5, -0.5, -0.5, -0.5}));  // sum / sqrt 5 = -1.12 < -g: sinking
  // The same magnitudes above the model's predictions leave it settled.
  EXPECT_TRUE(AfterResiduals({0.5, 0.5, 0.5, 0.5, 0.5}).settled());
}

TEST(TvGpUcbTest, SettledCapOptionsRoundTripAndAreChecked) {
  const auto s = TvGpUcb::Create(StrategyParams(
      R"({"settled_variance_cap":0.2,"surprise_window":8,"surprise_threshold":3,"decline_threshold":2})"));
  const TvGpUcbOptions& o = static_cast<const TvGpUcb&>(*s).tv_options();
  EXPECT_EQ(o.settled_variance_cap, 0.2);
  EXPECT_EQ(o.surprise_window, 8);
  EXPECT_EQ(o.surprise_threshold, 3.0);
  EXPECT_EQ(o.decline_threshold, 2.0);
  EXPECT_EQ(TvGpUcb::Create(StrategyParams(s->OptionsJson()))->OptionsJson(), s->OptionsJson());
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"settled_variance_cap":0})")); },
                "settled_variance_cap = 0");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"settled_variance_cap":1.5})")); },
                "settled_variance_cap = 1.5");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"surprise_window":0})")); },
                "surprise_window = 0");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"surprise_threshold":-1})")); },
                "surprise_threshold = -1");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"decline_threshold":0})")); },
                "decline_threshold = 0");
}

TEST(TvGpUcbTest, RejectsBadOptionsNamingThem) {
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"variance_cap":0})")); },
                "variance_cap = 0");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"variance_cap":1.5})")); },
                "variance_cap = 1.5");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"epsilon":1.5})")); }, "epsilon = 1.5");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"epsilon":0})")); }, "epsilon = 0");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"min_epsilon":0.6})")); },
                "max_epsilon = 0.5");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"epsilon":0.9,"fit_epsilon":true})")); },
                "epsilon = 0.9");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"fit_epsilon":"yes"})")); }, "fit_epsilon");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"epsilom":0.1})")); }, "epsilom");
  ExpectInvalid([] { TvGpUcb::Create(StrategyParams(R"({"delta":2})")); }, "delta");
}

}  // namespace
}  // namespace gpbandit
