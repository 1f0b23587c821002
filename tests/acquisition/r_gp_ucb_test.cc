#include "gpbandit/acquisition/r_gp_ucb.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

double FiniteBeta(int candidates, int t, double delta) {
  const double pi = std::acos(-1.0);
  return 2 * std::log(candidates * t * t * pi * pi / (6 * delta));
}

TEST(RGpUcbTest, EpochLengthIsGivenOrThePapersRule) {
  RGpUcbOptions o;
  o.reset_period = 7;
  EXPECT_EQ(o.EpochLength(), 7);
  o.reset_period = 0;
  o.epsilon = 0.01;  // 12 * 0.01^{-1/4} = 37.947...
  EXPECT_EQ(o.EpochLength(), 38);
  o.epsilon = 1.0 / 16;  // 12 * 2 = 24 exactly
  EXPECT_EQ(o.EpochLength(), 24);
  const auto s = RGpUcb::Create(StrategyParams(R"({"restart":"epochs","reset_period":5})"));
  EXPECT_EQ(s->time_model().kind, TimeModelKind::kEpochs);
  EXPECT_EQ(s->time_model().epoch_length, 5);
}

// The default restarts where the residual test says so, with its window and threshold.
TEST(RGpUcbTest, DefaultRestartsOnTheResidualTest) {
  const auto s = RGpUcb::Create(StrategyParams("{}"));
  EXPECT_EQ(s->time_model().kind, TimeModelKind::kRestarts);
  EXPECT_EQ(s->time_model().restart_window, 20);
  EXPECT_EQ(s->time_model().restart_threshold, 5.0);
  const auto t = RGpUcb::Create(
      StrategyParams(R"({"restart":"residuals","restart_window":7,"restart_threshold":2.5})"));
  EXPECT_EQ(t->time_model().restart_window, 7);
  EXPECT_EQ(t->time_model().restart_threshold, 2.5);
}

// Under the residual rule beta_t restarts at the epoch's first round, which the round state
// carries: t = round - epoch_start + 1.
TEST(RGpUcbTest, BetaRestartsAtTheEpochTheRoundStateNames) {
  RGpUcb s{RGpUcbOptions()};
  RoundState state;
  state.num_candidates = 10;
  const std::vector<std::vector<long>> round_start_t = {
      {0, 0, 1}, {6, 0, 7}, {6, 6, 1}, {9, 6, 4}, {30, 17, 14}};
  for (const std::vector<long>& c : round_start_t) {
    state.round = c[0];
    state.epoch_start = c[1];
    state.t = static_cast<int>(c[0]) + 1;
    s.BeginRound(state);
    EXPECT_NEAR(s.figure(), FiniteBeta(10, static_cast<int>(c[2]), 0.1), 1e-12) << "round " << c[0];
  }
}

// beta_t restarts with the model: at round r its t is r mod N + 1.
TEST(RGpUcbTest, BetaRestartsAtEveryEpoch) {
  RGpUcbOptions o;
  o.restart = RestartRule::kEpochs;
  o.reset_period = 5;
  RGpUcb s(o);
  RoundState state;
  state.num_candidates = 10;
  for (long round : {0L, 3L, 4L, 5L, 7L, 10L, 14L}) {
    state.round = round;
    state.t = static_cast<int>(round) + 1;  // the stationary t, which R-GP-UCB replaces
    s.BeginRound(state);
    EXPECT_NEAR(s.figure(), FiniteBeta(10, static_cast<int>(round % 5) + 1, 0.1), 1e-12)
        << "round " << round;
  }
}

TEST(RGpUcbTest, RejectsBadOptionsNamingThem) {
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"reset_period":-1})")); },
                "reset_period = -1");
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"reset_period":2.5})")); }, "reset_period");
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"epsilon":1})")); }, "epsilon = 1");
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"period":3})")); }, "period");
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"restart":"weekly"})")); }, "restart");
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"restart_window":0})")); },
                "restart_window = 0");
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"restart_threshold":-1})")); },
                "restart_threshold = -1");
  // A period means nothing to the residual test: refused rather than ignored.
  ExpectInvalid([] { RGpUcb::Create(StrategyParams(R"({"reset_period":9})")); },
                "reset_period = 9: needs restart = epochs");
  const auto s = RGpUcb::Create(StrategyParams(R"({"restart":"epochs","reset_period":9})"));
  EXPECT_EQ(RGpUcb::Create(StrategyParams(s->OptionsJson()))->OptionsJson(), s->OptionsJson());
}

}  // namespace
}  // namespace gpbandit
