// The thread policy (numerics/thread_policy.h): small work and a busy machine run on one thread;
// and the loop that enters an OpenMP region only for more than one thread
// (numerics/parallel_for.h).
#include "numerics/thread_policy.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>
#include <vector>

#include "numerics/parallel_for.h"

namespace gpbandit {
namespace {

// Busy work until this thread has used `seconds` of CPU (or 5 s of wall time have passed).
void BurnCpu(double seconds) {
  const double start = ThreadCpuSeconds();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  volatile double sink = 0.0;
  while (ThreadCpuSeconds() - start < seconds && std::chrono::steady_clock::now() < deadline)
    for (int i = 0; i < 10000; ++i) sink = sink + 1e-9 * i;
}

TEST(ThreadPolicyTest, SmallWorkRunsSerially) {
  const double small = 0.5 * kMinParallelSeconds, large = 100 * kMinParallelSeconds;
  EXPECT_EQ(ChooseThreads(0, 8, small, 8), 1);
  EXPECT_EQ(ChooseThreads(4, 8, small, 8), 1);
  EXPECT_EQ(ChooseThreads(0, 8, std::numeric_limits<double>::quiet_NaN(), 8), 1);
  EXPECT_EQ(ChooseThreads(0, 8, large, 8), 8);
  EXPECT_EQ(ThreadsForWork(0, small), 1);
  EXPECT_EQ(ThreadsForFlops(0, 0.5 * kMinParallelSeconds * kNominalFlopsPerSecond), 1);
}

TEST(ThreadPolicyTest, RequestedCountIsAnUpperBound) {
  const double large = 100 * kMinParallelSeconds;
  EXPECT_EQ(ChooseThreads(1, 8, large, 8), 1);
  EXPECT_EQ(ChooseThreads(3, 8, large, 8), 3);
  EXPECT_EQ(ChooseThreads(0, 6, large, 8), 6);   // 0: the OpenMP default
  EXPECT_EQ(ChooseThreads(-2, 6, large, 8), 6);  // treated as 0
  EXPECT_EQ(ThreadsForWork(1, large), 1);
  EXPECT_LE(ThreadsForWork(0, large), std::max(1, omp_get_max_threads()));
}

TEST(ThreadPolicyTest, BusyCpusAreLeftAlone) {
  const double large = 100 * kMinParallelSeconds;
  EXPECT_EQ(ChooseThreads(0, 8, large, 3), 3);
  EXPECT_EQ(ChooseThreads(0, 2, large, 1), 1);
  EXPECT_EQ(ChooseThreads(8, 8, large, 0), 1);
}

TEST(ThreadPolicyTest, ScopedParallelismForTestingIgnoresWorkAndLoad) {
  {
    const ScopedParallelismForTesting parallel;
    EXPECT_EQ(ThreadsForWork(3, 0.0), 3);
    EXPECT_EQ(ThreadsForWork(0, 0.0), std::max(1, omp_get_max_threads()));
  }
  EXPECT_EQ(ThreadsForWork(3, 0.0), 1);
}

TEST(ThreadPolicyTest, AnotherProcessSpinningTakesItsCpuAway) {
  const int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  EXPECT_GE(IdleCpus(), 1);
  EXPECT_LE(IdleCpus(), std::max(1, cpus));
  // A child that spins (it touches nothing of OpenMP, which is not fork-safe) is one runnable
  // task of another process for as long as it lives: at most cpus - 1 are idle.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    volatile unsigned long spin = 0;
    for (;;) spin = spin + 1;
  }
  // Past the cache, and past the child's start.
  std::this_thread::sleep_for(std::chrono::duration<double>(2 * kLoadRefreshSeconds));
  const int idle = IdleCpus();
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_LE(idle, std::max(1, cpus - 1));
}

// The first solve of the process runs alone: of two threads that start at once, one runs its
// solve and the other returns (false, without running its own) only after that solve is done;
// later calls never run theirs. (No other test of this program calls RunAsFirstSolve.)
// The work samples that size parallel regions are timed in CPU time: a sleep (like a time slice
// another process takes) adds almost nothing, busy work adds what it uses.
TEST(ThreadPolicyTest, ThreadCpuSecondsCountsWorkNotWaiting) {
  const double before_sleep = ThreadCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const double slept = ThreadCpuSeconds() - before_sleep;
  EXPECT_GE(slept, 0.0);
  EXPECT_LT(slept, 0.02);
  const double before_work = ThreadCpuSeconds();
  BurnCpu(0.01);
  EXPECT_GE(ThreadCpuSeconds() - before_work, 0.01);
}

TEST(ThreadPolicyTest, RunAsFirstSolveRunsOneSolveAloneAndOthersAfterIt) {
  std::atomic<int> solves{0};
  std::atomic<bool> first_done{false};
  std::atomic<int> saw_first_done{0}, returned_true{0};
  auto call = [&] {
    const bool ran = RunAsFirstSolve([&] {
      ++solves;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      first_done = true;
    });
    if (ran) ++returned_true;
    if (first_done) ++saw_first_done;
  };
  std::thread a(call), b(call);
  a.join();
  b.join();
  EXPECT_EQ(solves, 1);
  EXPECT_EQ(returned_true, 1);
  EXPECT_EQ(saw_first_done, 2);  // the thread that did not solve waited for the one that did
  EXPECT_FALSE(RunAsFirstSolve([&] { ++solves; }));
  EXPECT_EQ(solves, 1);
}

// A request for one thread never needs a work sample; any other request may.
TEST(ThreadPolicyTest, OnlyARequestThatMayRunParallelIsTimed) {
  EXPECT_FALSE(MayRunParallel(1));
  EXPECT_TRUE(MayRunParallel(2));
  EXPECT_EQ(MayRunParallel(0), omp_get_max_threads() > 1);
  EXPECT_EQ(MayRunParallel(-1), omp_get_max_threads() > 1);
  const WorkSampleTimer untimed(1), timed(2);
  BurnCpu(0.005);
  EXPECT_EQ(untimed.Seconds(), 0.0);
  EXPECT_GE(timed.Seconds(), 0.005);
  EXPECT_EQ(ThreadsForWork(1, untimed.Seconds()), 1);
}

// One thread: every index in order on the calling thread, inside no OpenMP region (not even a
// team of one, whose start and end cost a system call).
TEST(ParallelForTest, OneThreadRunsInOrderOutsideAnyRegion) {
  for (int threads : {1, 0, -3}) {
    std::vector<long> visited;
    std::vector<int> levels;
    ForEachIndex(threads, 3L, 9L, [&](long i) {
      visited.push_back(i);
      levels.push_back(omp_get_level());
    });
    EXPECT_EQ(visited, (std::vector<long>{3, 4, 5, 6, 7, 8})) << "threads " << threads;
    EXPECT_EQ(levels, std::vector<int>(6, 0)) << "threads " << threads;
  }
  int calls = 0;
  ForEachIndex(1, 5, 5, [&](int) { ++calls; });
  ForEachIndex(1, 5, 2, [&](int) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(ParallelForTest, SeveralThreadsVisitEveryIndexOnceInARegion) {
  for (int chunk : {1, 3, 16}) {
    constexpr int kBegin = 2, kEnd = 203;
    std::vector<std::atomic<int>> visits(kEnd);
    std::atomic<int> outside_region{0};
    ForEachIndex(
        2, kBegin, kEnd,
        [&](int i) {
          ++visits[i];
          if (omp_get_level() != 1) ++outside_region;
        },
        chunk);
    for (int i = 0; i < kEnd; ++i) EXPECT_EQ(visits[i].load(), i < kBegin ? 0 : 1) << i;
    EXPECT_EQ(outside_region.load(), 0) << "chunk " << chunk;
  }
}

}  // namespace
}  // namespace gpbandit
