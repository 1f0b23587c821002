// The long commands tell a person watching the terminal how far they are: a line on the error
// stream at least every few seconds (cli/progress.h), however long the run. safe-demo used to
// be silent for 18 s and more (a whole safe-opt run), drift-demo for 15 s (its brute-force
// reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

// The longest wait for a line on the error stream while `gpbandit args` runs: from the start
// to the first line, between lines, and from the last line to the end; and the run's length.
// (Before progress lines, the runs below were silent for 12 s and 9 s on a quiet machine.)
struct Silences {
  double longest = 0, total = 0;
  int lines = 0, status = -1;
};

Silences MeasureSilences(const std::string& dir, const std::string& args) {
  using Clock = std::chrono::steady_clock;
  const std::string command = "cd '" + dir + "' && GLOG_minloglevel=3 '" + GPBANDIT_CLI_PATH +
                              "' " + args + " 2>&1 > /dev/null";
  Silences s;
  const Clock::time_point start = Clock::now();
  Clock::time_point last = start;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return s;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    const Clock::time_point now = Clock::now();
    s.longest = std::max(s.longest, std::chrono::duration<double>(now - last).count());
    last = now;
    ++s.lines;
  }
  const int raw = pclose(pipe);
  const Clock::time_point end = Clock::now();
  s.longest = std::max(s.longest, std::chrono::duration<double>(end - last).count());
  s.total = std::chrono::duration<double>(end - start).count();
  s.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return s;
}

// Lines come every 2 s (cli::kProgressSeconds) at the end of the step that passes the mark; a
// step takes well under a second here, so 5 s of silence leaves room for a busy machine.
constexpr double kLongestSilence = 5.0;

TEST_F(CliTest, SafeDemoIsNeverSilentForLong) {
  const Silences s =
      MeasureSilences(dir_, "safe-demo --trials 1 --strategy safe-opt --rounds 130 --threads 1");
  ASSERT_EQ(s.status, 0);
  EXPECT_LT(s.longest, kLongestSilence) << s.lines << " lines in " << s.total << " s";
}

TEST_F(CliTest, DriftDemoIsNeverSilentForLong) {
  // 41 plants along the drift, one brute-force search each, before the first episode.
  const Silences s = MeasureSilences(
      dir_,
      "drift-demo --trials 1 --strategy gp-ucb --rounds 70 --drift 10:50 --measured 10 "
      "--threads 1");
  ASSERT_EQ(s.status, 0);
  EXPECT_LT(s.longest, kLongestSilence) << s.lines << " lines in " << s.total << " s";
}

}  // namespace
}  // namespace gpbandit
