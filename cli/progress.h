// Progress lines of the long commands (run, demo, safe-demo, drift-demo): a person watching the
// terminal should never wait more than a few seconds without a line on the error stream, and a
// quick command should not flood it. A command asks Due() at each step of its work (a round, an
// episode, a brute-force evaluation) and prints a line when it says so.
//
// Thread safety: none; one clock per loop.
#ifndef GPBANDIT_CLI_PROGRESS_H_
#define GPBANDIT_CLI_PROGRESS_H_

#include <chrono>

namespace gpbandit {
namespace cli {

// Seconds between two progress lines.
constexpr double kProgressSeconds = 2.0;

class ProgressClock {
 public:
  explicit ProgressClock(double interval_seconds = kProgressSeconds)
      : interval_(interval_seconds), start_(Clock::now()), last_(start_) {}

  // True once `interval_seconds` have passed since the last true (or since construction); the
  // next interval starts then.
  bool Due() {
    const Clock::time_point now = Clock::now();
    if (std::chrono::duration<double>(now - last_).count() < interval_) return false;
    last_ = now;
    return true;
  }

  // Seconds since construction.
  double Elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  double interval_;
  Clock::time_point start_, last_;
};

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_PROGRESS_H_
