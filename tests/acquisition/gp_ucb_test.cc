#include "gpbandit/acquisition/gp_ucb.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "gpbandit/maximizer/finite_argmax.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/acquisition/options_json_test_util.h"

namespace gpbandit {
namespace {

using testing::FakePosterior;
using testing::MakeRound;

TEST(GpUcbTest, ScoreIsMeanPlusSqrtBetaSigma) {
  GpUcbOptions options;
  options.beta.kind = BetaScheduleKind::kConstant;
  options.beta.constant_beta = 9.0;
  GpUcb ucb(options);
  ucb.BeginRound(MakeRound(1, 3));
  EXPECT_EQ(ucb.figure(), 9.0);
  EXPECT_EQ(ucb.figure_name(), "beta_t");
  double d_mean = 0.0, d_variance = 0.0;
  EXPECT_DOUBLE_EQ(ucb.Score(1.0, 4.0, &d_mean, &d_variance), 1.0 + 3.0 * 2.0);
  EXPECT_EQ(d_mean, 1.0);
  EXPECT_DOUBLE_EQ(d_variance, 3.0 / (2.0 * 2.0));
  // Zero variance: finite score, zero variance derivative.
  EXPECT_EQ(ucb.Score(1.0, 0.0, &d_mean, &d_variance), 1.0);
  EXPECT_EQ(d_variance, 0.0);
}

TEST(GpUcbTest, LargeBetaPicksTheUnexploredPoint) {
  // Candidate 2 has a low mean but is unexplored (prior variance); the others are well known.
  FakePosterior posterior((Eigen::VectorXd(4) << 1.0, 0.9, 0.0, 0.8).finished(),
                          (Eigen::VectorXd(4) << 1e-4, 1e-4, 1.0, 1e-4).finished());
  Rng rng(1);
  GpUcbOptions options;
  options.beta.kind = BetaScheduleKind::kConstant;
  options.beta.constant_beta = 100.0;
  GpUcb explorer(options);
  explorer.BeginRound(MakeRound(1, 4));
  EXPECT_EQ(FiniteArgmax(explorer.ScoreCandidates(posterior, rng)), 2);
  options.beta.constant_beta = 1e-4;
  GpUcb exploiter(options);
  exploiter.BeginRound(MakeRound(1, 4));
  EXPECT_EQ(FiniteArgmax(exploiter.ScoreCandidates(posterior, rng)), 0);
}

TEST(GpUcbTest, ScheduleFollowsTheRoundAndScale) {
  GpUcbOptions options;
  options.beta.scale = 0.2;  // Srinivas et al.'s experiments
  GpUcb ucb(options);
  ucb.BeginRound(MakeRound(3, 1000));
  const double pi2 = 9.869604401089358;
  EXPECT_NEAR(ucb.beta(), 0.2 * 2.0 * std::log(1000.0 * 9.0 * pi2 / 0.6), 1e-12);
  // RKHS schedule reads gamma from the round's information gain.
  options.beta.kind = BetaScheduleKind::kRkhs;
  options.beta.rkhs_bound = 2.0;
  GpUcb rkhs(options);
  rkhs.BeginRound(MakeRound(5, 0, 0.0, 3.0));
  const double l = std::log(50.0);
  EXPECT_NEAR(rkhs.beta(), 0.2 * (8.0 + 900.0 * l * l * l), 1e-7);
}

TEST(GpUcbTest, DefaultOnABoxIsDimLogOnAFiniteSetTheorem1) {
  GpUcb ucb;
  RoundState state = MakeRound(50, 0);
  state.action_dim = 6;
  ucb.BeginRound(state);
  EXPECT_NEAR(ucb.beta(), 0.05 * 6.0 * std::log(100.0), 1e-12);  // Kandasamy et al.'s form
  ucb.BeginRound(MakeRound(3, 1000));
  const double pi2 = 9.869604401089358;
  EXPECT_NEAR(ucb.beta(), 2.0 * std::log(1000.0 * 9.0 * pi2 / 0.6), 1e-12);  // Theorem 1
}

TEST(GpUcbTest, RejectedRoundLeavesStateUnchanged) {
  GpUcb ucb;
  ucb.BeginRound(MakeRound(2, 10));
  const double before = ucb.beta();
  RoundState bad = MakeRound(0, 10);
  EXPECT_THROW(ucb.BeginRound(bad), std::invalid_argument);
  bad = MakeRound(3, 10, 0.0, std::nan(""));
  EXPECT_THROW(ucb.BeginRound(bad), std::invalid_argument);
  EXPECT_EQ(ucb.beta(), before);
  GpUcbOptions options;
  options.beta.delta = 1.5;
  EXPECT_THROW(GpUcb{options}, std::invalid_argument);
}

TEST(GpUcbTest, CloneKeepsOptionsAndRound) {
  GpUcbOptions options;
  options.beta.scale = 0.5;
  GpUcb ucb(options);
  ucb.BeginRound(MakeRound(4, 20));
  std::unique_ptr<Strategy> copy = ucb.Clone();
  EXPECT_EQ(copy->name(), "gp-ucb");
  EXPECT_EQ(copy->figure(), ucb.figure());
}

// Every field, set away from its default to values whose decimal form is long or extreme,
// survives OptionsJson -> Create bit for bit; the keys are the documented ones.
TEST(GpUcbTest, OptionsSurviveJsonExactly) {
  using namespace testing;  // NOLINT: the extreme doubles
  GpUcbOptions o;
  o.beta.kind = BetaScheduleKind::kRkhs;
  o.beta.delta = kSmallestSubnormal;
  o.beta.a = kLargest;
  o.beta.b = kSmallestNormal;
  o.beta.r = kPointThree;
  o.beta.rkhs_bound = -0.0;
  o.beta.constant_beta = kThird;
  o.beta.dim_log_coefficient = kLargest;
  o.beta.dim_log_max_dim = std::numeric_limits<int>::max();
  o.beta.scale = kAfterOne;
  o.gamma.source = GammaSource::kMaternBound;
  o.gamma.dim = std::numeric_limits<int>::max();
  o.gamma.nu = 1e300;
  o.gamma.scale = 3 * kSmallestSubnormal;
  const GpUcb ucb(o);
  const auto back = RebuiltFromJson(ucb);
  ASSERT_NE(back, nullptr);
  const GpUcbOptions& b = back->options();
  EXPECT_EQ(b.beta.kind, o.beta.kind);
  EXPECT_TRUE(SameBits(b.beta.delta, o.beta.delta));
  EXPECT_TRUE(SameBits(b.beta.a, o.beta.a));
  EXPECT_TRUE(SameBits(b.beta.b, o.beta.b));
  EXPECT_TRUE(SameBits(b.beta.r, o.beta.r));
  EXPECT_TRUE(SameBits(b.beta.rkhs_bound, o.beta.rkhs_bound));
  EXPECT_TRUE(SameBits(b.beta.constant_beta, o.beta.constant_beta));
  EXPECT_TRUE(SameBits(b.beta.dim_log_coefficient, o.beta.dim_log_coefficient));
  EXPECT_EQ(b.beta.dim_log_max_dim, o.beta.dim_log_max_dim);
  EXPECT_TRUE(SameBits(b.beta.scale, o.beta.scale));
  ExpectSameGamma(b.gamma, o.gamma);
  EXPECT_EQ(back->OptionsJson(), ucb.OptionsJson());
  EXPECT_EQ(
      StrategyParams(ucb.OptionsJson()).keys(),
      (std::vector<std::string>{"a", "b", "beta_scale", "beta_schedule", "constant_beta", "delta",
                                "dim_log_coefficient", "dim_log_max_dim", "gamma_dim", "gamma_nu",
                                "gamma_scale", "gamma_source", "r", "rkhs_bound"}));
  EXPECT_NE(ucb.OptionsJson().find("\"beta_schedule\":\"rkhs\""), std::string::npos);
  EXPECT_NE(ucb.OptionsJson().find("\"gamma_source\":\"matern-bound\""), std::string::npos);
}

// A key that is not given keeps the struct's default.
TEST(GpUcbTest, MissingKeysKeepTheirDefaults) {
  const std::unique_ptr<Strategy> s = GpUcb::Create(StrategyParams(R"({"beta_scale": 0.2})"));
  GpUcbOptions expected;
  expected.beta.scale = 0.2;
  EXPECT_EQ(s->OptionsJson(), GpUcb(expected).OptionsJson());
  EXPECT_EQ(GpUcb::Create(StrategyParams())->OptionsJson(), GpUcb().OptionsJson());
}

}  // namespace
}  // namespace gpbandit
