// Progress lines of the long commands (run, demo, safe-demo, drift-demo, fit): a person watching
// the terminal should never wait more than a few seconds without a line on the error stream, and
// a quick command should not flood it. A command asks Due() at each step of its work (a round,
// an episode, a brute-force evaluation) and prints a line when it says so; a single long call
// runs under WithHeartbeat.
//
// Thread safety: a ProgressClock is used by one thread; WithHeartbeat writes `err` from the
// calling thread only.
#ifndef GPBANDIT_CLI_PROGRESS_H_
#define GPBANDIT_CLI_PROGRESS_H_

#include <chrono>
#include <cmath>
#include <future>
#include <ostream>
#include <string>
#include <utility>

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

// Runs `work` on a thread of its own while this one writes `line` and the seconds elapsed on
// `err` every `interval_seconds` ("[fit] fitting 1000 observations (4 s)"): for a long call
// that cannot report its own progress (a hyperparameter fit). A call that ends within the
// first interval writes nothing. Returns what `work` returns and rethrows what it throws; the
// result does not depend on the thread (gpbandit's results do not depend on threads).
template <typename Work>
auto WithHeartbeat(std::ostream& err, const std::string& line, Work&& work,
                   double interval_seconds = kProgressSeconds) {
  auto result = std::async(std::launch::async, std::forward<Work>(work));
  const ProgressClock clock;
  while (result.wait_for(std::chrono::duration<double>(interval_seconds)) !=
         std::future_status::ready)
    err << line << " (" << std::lround(clock.Elapsed()) << " s)" << std::endl;
  return result.get();
}

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_PROGRESS_H_
