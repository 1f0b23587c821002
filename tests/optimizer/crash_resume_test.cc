// A real crash: a child process runs an ask/tell loop with an fsynced log and is killed with
// SIGKILL mid-run; the parent resumes from the log, finishes the run, and must end with the
// same log, byte for byte, as an uninterrupted run.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

constexpr int kTells = 30;

const problems::SyntheticFunction& Problem() {
  static const problems::SyntheticFunction f = problems::MakeBranin();
  return f;
}

OptimizerOptions CrashOptions(std::uint64_t seed, const std::string& path) {
  OptimizerOptions o = testing::CheapOptions(seed);
  o.initial_design_size = 4;
  o.refit.every = 3;
  o.sync_log = true;
  o.log_path = path;
  return o;
}

// The host's loop: evaluate what is pending (a resumed run may hold a point handed out before
// the crash), then ask and tell until kTells observations exist.
void RunToCompletion(Optimizer& opt) {
  const Eigen::MatrixXd pending = opt.pending_actions();
  for (int j = 0; j < pending.cols(); ++j)
    opt.Tell(pending.col(j), Problem().reward(pending.col(j)));
  while (static_cast<int>(opt.observations().size()) < kTells) {
    const Eigen::VectorXd x = opt.Ask();
    // Time for the parent's SIGKILL to land between ask and tell as well as elsewhere.
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    opt.Tell(x, Problem().reward(x));
  }
}

int CountLines(const std::string& path) {
  int n = 0;
  for (char c : testing::ReadFile(path)) n += c == '\n';
  return n;
}

TEST(CrashResumeTest, SigkillMidRunThenResumeGivesTheUninterruptedLog) {
  const std::uint64_t seed = testing::TestSeed(31);
  const Domain domain = Domain::Box(Problem().lower, Problem().upper);
  for (int kill_after_lines : {9, 22, 37}) {
    const std::string path = testing::TempLogPath("crash_" + std::to_string(kill_after_lines));
    std::cout.flush();
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      try {
        Optimizer opt(domain, nullptr, "gp-ucb", StrategyParams(), CrashOptions(seed, path));
        RunToCompletion(opt);
      } catch (...) {
        _exit(3);
      }
      _exit(0);
    }
    // Kill the child as soon as the log has grown to the chosen length.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (CountLines(path) < kill_after_lines && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    ASSERT_EQ(kill(child, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    EXPECT_TRUE(killed) << "the child finished before it could be killed";
    const int lines_at_kill = CountLines(path);
    EXPECT_LT(lines_at_kill, 1 + 2 * kTells);

    ::testing::internal::CaptureStderr();  // a torn last line is possible and warned about
    auto resumed = Optimizer::Resume(path);
    ::testing::internal::GetCapturedStderr();
    RunToCompletion(*resumed);
    resumed.reset();

    const std::string reference_path = testing::TempLogPath("crash_ref");
    {
      Optimizer reference(domain, nullptr, "gp-ucb", StrategyParams(),
                          CrashOptions(seed, reference_path));
      RunToCompletion(reference);
    }
    GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
    // Equal but for the leases' times and the workers' names (the resumed process is another).
    EXPECT_EQ(testing::ReadLogWithoutLeases(path), testing::ReadLogWithoutLeases(reference_path))
        << "killed after " << lines_at_kill << " lines";
    std::cout << "[ crash    ] killed with " << lines_at_kill << " log lines; resumed log equal\n";
    std::remove(path.c_str());
    std::remove(reference_path.c_str());
  }
}

}  // namespace
}  // namespace gpbandit
