#include "gpbandit/acquisition/time_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/r_gp_ucb.h"
#include "gpbandit/acquisition/tv_gp_ucb.h"

namespace gpbandit {
namespace {

TEST(TimeModel, TheDefaultIsAStationaryObjectiveWithTheDocumentedSettings) {
  const TimeModel m;
  EXPECT_EQ(m.kind, TimeModelKind::kNone);
  EXPECT_EQ(m.epsilon, 0.01);
  EXPECT_FALSE(m.fit_epsilon);
  EXPECT_EQ(m.min_epsilon, 1e-4);
  EXPECT_EQ(m.max_epsilon, 0.5);
  // The fit's bounds hold the start: 0 < min < epsilon < max < 1.
  EXPECT_LT(0.0, m.min_epsilon);
  EXPECT_LT(m.min_epsilon, m.epsilon);
  EXPECT_LT(m.epsilon, m.max_epsilon);
  EXPECT_LT(m.max_epsilon, 1.0);
  EXPECT_EQ(m.epoch_length, 0);
  EXPECT_EQ(m.restart_window, 20);
  EXPECT_EQ(m.restart_threshold, 5.0);
}

TEST(TimeModel, AStationaryStrategyDeclaresNone) {
  EXPECT_EQ(GpUcb().time_model().kind, TimeModelKind::kNone);
}

TEST(TimeModel, TvGpUcbDeclaresForgettingWithItsRateAndFitBounds) {
  TvGpUcbOptions options;
  options.epsilon = 0.05;
  options.fit_epsilon = true;
  options.min_epsilon = 0.001;
  options.max_epsilon = 0.2;
  const TimeModel m = TvGpUcb(options).time_model();
  EXPECT_EQ(m.kind, TimeModelKind::kForgetting);
  EXPECT_EQ(m.epsilon, 0.05);
  EXPECT_TRUE(m.fit_epsilon);
  EXPECT_EQ(m.min_epsilon, 0.001);
  EXPECT_EQ(m.max_epsilon, 0.2);
}

TEST(TimeModel, RGpUcbDeclaresRestartsByDefault) {
  const TimeModel m = RGpUcb().time_model();
  EXPECT_EQ(m.kind, TimeModelKind::kRestarts);
  EXPECT_EQ(m.restart_window, 20);
  EXPECT_EQ(m.restart_threshold, 5.0);

  RGpUcbOptions options;
  options.restart_window = 7;
  options.restart_threshold = 2.5;
  const TimeModel custom = RGpUcb(options).time_model();
  EXPECT_EQ(custom.kind, TimeModelKind::kRestarts);
  EXPECT_EQ(custom.restart_window, 7);
  EXPECT_EQ(custom.restart_threshold, 2.5);
}

TEST(TimeModel, RGpUcbWithEpochsDeclaresTheirLength) {
  RGpUcbOptions options;
  options.restart = RestartRule::kEpochs;
  options.reset_period = 9;
  const TimeModel fixed = RGpUcb(options).time_model();
  EXPECT_EQ(fixed.kind, TimeModelKind::kEpochs);
  EXPECT_EQ(fixed.epoch_length, 9);

  // Without a period: N = ceil(12 eps^{-1/4}); eps = 0.01 gives 12 * sqrt(10) = 37.95, so 38,
  // and eps = 0.5 gives 12 * 2^{1/4} = 14.27, so 15.
  options.reset_period = 0;
  EXPECT_EQ(RGpUcb(options).time_model().epoch_length, 38);
  options.epsilon = 0.5;
  EXPECT_EQ(RGpUcb(options).time_model().epoch_length, 15);
}

}  // namespace
}  // namespace gpbandit
