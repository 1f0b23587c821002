// R-GP-UCB's restart test (model/restart_monitor.h) against residuals and means of their squares
// computed by hand.
#include "model/restart_monitor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

TEST(RestartMonitorTest, ResidualIsStandardizedByThePredictiveDistribution) {
  // (3 - 1) / sqrt(0.75 + 0.25) = 2; (0.5 - 2) / sqrt(2 + 0.25) = -1.5 / 1.5 = -1.
  EXPECT_DOUBLE_EQ(RestartMonitor::Residual(3.0, 1.0, 0.75, 0.25), 2.0);
  EXPECT_DOUBLE_EQ(RestartMonitor::Residual(0.5, 2.0, 2.0, 0.25), -1.0);
}

// Window 3, threshold 2: z = 1, -1, 2 give mean z^2 = (1 + 1 + 4) / 3 = 2, not above; the next
// z = -2 gives (1 + 4 + 4) / 3 = 3 over the last three: a new epoch at 1 + the largest round.
TEST(RestartMonitorTest, RestartsWhenTheMeanSquareOfTheLastWindowExceedsTheThreshold) {
  RestartMonitor m(3, 2.0);
  EXPECT_FALSE(m.Observe(1.0, 0));
  EXPECT_FALSE(m.Observe(-1.0, 2));
  EXPECT_TRUE(std::isnan(m.Statistic()));
  EXPECT_FALSE(m.Observe(2.0, 1));
  EXPECT_DOUBLE_EQ(m.Statistic(), 2.0);
  EXPECT_TRUE(m.Observe(-2.0, 3));
  EXPECT_EQ(*m.epoch_starts(), std::vector<long>({4}));
  EXPECT_EQ(m.EpochStart(3), 0);
  EXPECT_EQ(m.EpochStart(4), 4);
  EXPECT_EQ(m.EpochStart(9), 4);
  // The new epoch counts its own residuals from none; a late tell of an earlier round is not
  // counted in it.
  EXPECT_TRUE(std::isnan(m.Statistic()));
  EXPECT_FALSE(m.Observe(10.0, 2));
  EXPECT_TRUE(std::isnan(m.Statistic()));
  EXPECT_FALSE(m.Observe(0.5, 4));
  EXPECT_FALSE(m.Observe(0.5, 5));
  EXPECT_FALSE(m.Observe(1.5, 6));  // (0.25 + 0.25 + 2.25) / 3 = 0.9167
  EXPECT_NEAR(m.Statistic(), 2.75 / 3, 1e-15);
  EXPECT_TRUE(m.Observe(3.0, 7));  // (0.25 + 2.25 + 9) / 3 = 3.8333
  EXPECT_EQ(*m.epoch_starts(), std::vector<long>({4, 8}));
}

TEST(RestartMonitorTest, RejectsBadSettingsNamingThem) {
  ExpectInvalid([] { RestartMonitor(0, 4.0); }, "restart_window = 0");
  ExpectInvalid([] { RestartMonitor(10, 0.0); }, "restart_threshold = 0");
  ExpectInvalid([] { RestartMonitor(10, std::nan("")); }, "restart_threshold = nan");
}

}  // namespace
}  // namespace gpbandit
