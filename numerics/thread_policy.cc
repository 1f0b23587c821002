#include "numerics/thread_policy.h"

#include <dirent.h>
#include <omp.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

namespace gpbandit {
namespace {

// CPUs in this process's affinity mask, capped by a cgroup v2 quota ("max 100000" = none,
// "150000 100000" = 1.5 CPUs, rounded up).
int AvailableCpus() {
  int cpus = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = CPU_COUNT(&set);
  if (cpus < 1) cpus = std::max(1, omp_get_num_procs());
  std::ifstream quota_file("/sys/fs/cgroup/cpu.max");
  std::string quota;
  double period = 0;
  if (quota_file >> quota >> period && quota != "max" && period > 0) {
    const double limit = std::ceil(std::atof(quota.c_str()) / period);
    if (limit >= 1) cpus = std::min(cpus, static_cast<int>(limit));
  }
  return cpus;
}

// The runnable tasks of the whole machine (the 4th field of /proc/loadavg, "running/total",
// counts the reader too); -1 if unknown.
int RunnableTasks() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (f == nullptr) return -1;
  double l1, l5, l15;
  int running = -1, total = 0;
  if (std::fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5) running = -1;
  std::fclose(f);
  return running;
}

// This process's threads in state R (running or runnable), the caller included.
int OwnRunningThreads() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return 1;
  int running = 0;
  char path[64], buffer[512];
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", entry->d_name);
    std::FILE* f = std::fopen(path, "r");
    if (f == nullptr) continue;
    const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
    std::fclose(f);
    buffer[n] = '\0';
    // "tid (comm) S ...": the state follows the last ')' (comm may hold parentheses).
    const char* close = std::strrchr(buffer, ')');
    if (close != nullptr && close[1] == ' ' && close[2] == 'R') ++running;
  }
  closedir(dir);
  return std::max(1, running);
}

int ReadIdleCpus() {
  const int cpus = AvailableCpus();
  const int runnable = RunnableTasks();
  if (runnable < 0) return cpus;
  const int elsewhere = std::max(0, runnable - OwnRunningThreads());
  return std::max(1, cpus - elsewhere);
}

// Live ScopedParallelismForTesting instances.
std::atomic<int> forced_parallelism{0};

std::int64_t NowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

int ChooseThreads(int requested, int default_threads, double serial_seconds, int idle_cpus) {
  const int wanted = requested > 0 ? requested : std::max(1, default_threads);
  if (wanted <= 1 || !(serial_seconds >= kMinParallelSeconds)) return 1;
  return std::max(1, std::min(wanted, idle_cpus));
}

int IdleCpus() {
  static std::atomic<std::int64_t> read_at{0};
  static std::atomic<int> idle{0};
  const std::int64_t now = NowNanoseconds();
  const std::int64_t last = read_at.load(std::memory_order_acquire);
  const int cached = idle.load(std::memory_order_relaxed);
  if (cached > 0 && now - last < static_cast<std::int64_t>(kLoadRefreshSeconds * 1e9))
    return cached;
  const int fresh = ReadIdleCpus();
  idle.store(fresh, std::memory_order_relaxed);
  read_at.store(now, std::memory_order_release);
  return fresh;
}

double ThreadCpuSeconds() {
  timespec now{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0)
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
  return 1e-9 * static_cast<double>(NowNanoseconds());
}

int ThreadsForWork(int requested, double serial_seconds) {
  const int wanted = requested > 0 ? requested : omp_get_max_threads();
  if (forced_parallelism.load(std::memory_order_relaxed) > 0) return std::max(1, wanted);
  // The machine is read only when the work could use more than one thread.
  if (wanted <= 1 || !(serial_seconds >= kMinParallelSeconds)) return 1;
  return ChooseThreads(requested, wanted, serial_seconds, IdleCpus());
}

bool MayRunParallel(int requested) {
  return (requested > 0 ? requested : omp_get_max_threads()) > 1;
}

int ThreadsForFlops(int requested, double flops) {
  return ThreadsForWork(requested, flops / kNominalFlopsPerSecond);
}

bool RunAsFirstSolve(const std::function<void()>& solve) {
  static std::once_flag first_solve;
  bool ran = false;
  std::call_once(first_solve, [&] {
    solve();
    ran = true;
  });
  return ran;
}

ScopedParallelismForTesting::ScopedParallelismForTesting() { ++forced_parallelism; }
ScopedParallelismForTesting::~ScopedParallelismForTesting() { --forced_parallelism; }

}  // namespace gpbandit
