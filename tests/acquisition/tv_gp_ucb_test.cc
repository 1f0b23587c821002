#include "gpbandit/acquisition/tv_gp_ucb.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

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

TEST(TvGpUcbTest, RejectsBadOptionsNamingThem) {
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
