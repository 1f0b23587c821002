// cli/progress.h: the clock of the progress lines and the heartbeat of a long call.
#include "cli/progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace gpbandit {
namespace cli {
namespace {

int LineCount(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

TEST(ProgressClockTest, DueOncePerInterval) {
  ProgressClock clock(0.05);
  EXPECT_FALSE(clock.Due());  // the first interval has just begun
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_TRUE(clock.Due());
  EXPECT_FALSE(clock.Due());  // the next interval starts at the last true
  EXPECT_GE(clock.Elapsed(), 0.06);
}

TEST(WithHeartbeatTest, LinesWhileALongCallRunsNoneForAShortOne) {
  std::ostringstream err;
  const int value = WithHeartbeat(
      err, "[fit] fitting",
      [] {
        std::this_thread::sleep_for(std::chrono::milliseconds(450));
        return 42;
      },
      0.1);
  EXPECT_EQ(value, 42);
  EXPECT_GE(LineCount(err.str()), 2) << err.str();
  EXPECT_LE(LineCount(err.str()), 5) << err.str();
  EXPECT_EQ(err.str().rfind("[fit] fitting (", 0), 0u) << err.str();

  std::ostringstream quiet;
  EXPECT_EQ(WithHeartbeat(
                quiet, "[fit] fitting", [] { return 7; }, 10.0),
            7);
  EXPECT_EQ(quiet.str(), "");
}

TEST(WithHeartbeatTest, RethrowsWhatTheCallThrows) {
  std::ostringstream err;
  EXPECT_THROW(WithHeartbeat(
                   err, "[x]", []() -> int { throw std::invalid_argument("bad"); }, 0.1),
               std::invalid_argument);
}

}  // namespace
}  // namespace cli
}  // namespace gpbandit
