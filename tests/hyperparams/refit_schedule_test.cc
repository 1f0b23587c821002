#include "gpbandit/hyperparams/refit_schedule.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {
namespace {

// The observation counts at which a run that refits whenever told to does refit.
std::vector<int> RefitPoints(const RefitSchedule& schedule, int up_to) {
  std::vector<int> points;
  int last = 0;
  for (int t = 0; t <= up_to; ++t) {
    if (schedule.ShouldRefit(t, last)) {
      points.push_back(t);
      last = t;
    }
  }
  return points;
}

TEST(RefitScheduleTest, DefaultRefitsEveryObservationThenEveryFive) {
  std::vector<int> expected;
  for (int t = 1; t <= 19; ++t) expected.push_back(t);
  for (int t = 24; t <= 40; t += 5) expected.push_back(t);
  EXPECT_EQ(RefitPoints(RefitSchedule(), 40), expected);
}

TEST(RefitScheduleTest, CustomCadence) {
  RefitSchedule schedule;
  schedule.every_while_small = 2;
  schedule.small_until = 6;
  schedule.every = 10;
  EXPECT_EQ(RefitPoints(schedule, 30), (std::vector<int>{2, 4, 14, 24}));
}

TEST(RefitScheduleTest, DisabledNeverRefits) {
  RefitSchedule schedule;
  schedule.enabled = false;
  EXPECT_TRUE(RefitPoints(schedule, 50).empty());
}

TEST(RefitScheduleTest, NoObservationsNeverRefitAndTruncatedDataRefits) {
  const RefitSchedule schedule;
  EXPECT_FALSE(schedule.ShouldRefit(0, 0));
  EXPECT_FALSE(schedule.ShouldRefit(0, 10));
  EXPECT_TRUE(schedule.ShouldRefit(3, 30));
  EXPECT_FALSE(schedule.ShouldRefit(30, 30));
  EXPECT_THROW(schedule.ShouldRefit(-1, 0), std::invalid_argument);
  EXPECT_THROW(schedule.ShouldRefit(1, -1), std::invalid_argument);
}

TEST(RefitScheduleTest, InvalidFieldsAreNamed) {
  std::string error;
  EXPECT_TRUE(RefitSchedule().IsValid(&error)) << error;
  RefitSchedule schedule;
  schedule.every_while_small = 0;
  EXPECT_FALSE(schedule.IsValid(&error));
  EXPECT_NE(error.find("every_while_small"), std::string::npos) << error;
  EXPECT_NE(error.find("got 0"), std::string::npos) << error;
  schedule = RefitSchedule();
  schedule.small_until = -3;
  EXPECT_FALSE(schedule.IsValid(&error));
  EXPECT_NE(error.find("small_until"), std::string::npos) << error;
  schedule = RefitSchedule();
  schedule.every = 0;
  EXPECT_FALSE(schedule.IsValid(&error));
  EXPECT_NE(error.find("RefitSchedule.every must"), std::string::npos) << error;
  EXPECT_FALSE(schedule.IsValid(nullptr));
}

}  // namespace
}  // namespace gpbandit
