// One run of study_worker processes (tests/shared/study_worker.cc) on a study, for the
// shared-study benchmarks: they join (each replays the study), wait at a gate until all have,
// then ask and tell until the study holds a number of tells. What is measured: the wall time from
// the gate, the tells, and what the workers and the database server spent per cycle (CPU time,
// time holding the study's lock), which the machine's load does not change much.
#ifndef GPBANDIT_BENCH_SHARED_STUDY_RUN_H_
#define GPBANDIT_BENCH_SHARED_STUDY_RUN_H_

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/shared/child_process.h"
#include "tests/shared/tell_counter.h"
#include "tests/storage/local_postgres.h"

namespace gpbandit {
namespace bench {

// What the workers of one run printed, summed (study_worker's READY, ASKS, LOCK and CPU lines).
struct WorkerTally {
  double cpu = 0;        // CPU seconds after READY
  double lock_held = 0;  // seconds holding the study's lock
  long asked = 0, choices = 0, under_lock = 0;
};

inline WorkerTally Tally(const std::string& out_path) {
  WorkerTally t;
  double ready = 0, end = 0;
  std::istringstream out(testing::ReadText(out_path));
  for (std::string line; std::getline(out, line);) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    long sessions = 0;
    if (tag == "READY") words >> ready;
    if (tag == "CPU") words >> end;
    if (tag == "ASKS") words >> t.asked >> t.choices >> t.under_lock;
    if (tag == "LOCK") words >> t.lock_held >> sessions;
  }
  t.cpu = end - ready;
  return t;
}

struct WorkersRun {
  double seconds = 0;     // from the gate until the study held `until` tells
  long tells = 0;         // told in that time
  WorkerTally workers;    // summed over the workers (their whole runs after the gate)
  double server_cpu = 0;  // the database server's CPU seconds over the run (0 for files)
  std::vector<testing::Child> children;

  double cycles_per_second() const { return static_cast<double>(tells) / seconds; }
  // Per ask and tell of the workers (they finish their calls past `until`).
  double PerCycle(double total) const {
    return total / static_cast<double>(std::max(1L, workers.asked));
  }
};

// Starts `n` workers on `study` at `url` with study_worker's NAME=VALUE `options`, opens the
// gate once all have joined, and waits until the study holds `until` tells and the workers end.
// server: the database's (for its CPU time), or nullptr. scratch: a directory for the workers'
// output and the gate.
inline WorkersRun RunWorkers(const std::string& url, const std::string& study,
                             const testing::LocalPostgres* server, int n, long until,
                             const std::vector<std::string>& options, const std::string& scratch) {
  WorkersRun run;
  const std::string gate = scratch + "/gate_" + study;
  for (int w = 0; w < n; ++w) {
    const std::string name = scratch + "/" + study + "_" + std::to_string(w);
    std::vector<std::string> argv = {STUDY_WORKER_PATH,     url,    study,         "0",
                                     std::to_string(until), "3600", "gate=" + gate};
    argv.insert(argv.end(), options.begin(), options.end());
    run.children.push_back(testing::Spawn(argv, name + ".out", name + ".err"));
  }
  for (const testing::Child& c : run.children)
    while (testing::ReadText(c.out).find("READY") == std::string::npos)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  testing::TellCounter counter(url, study);
  const long start_count = counter.Count();
  const double server_before = server != nullptr ? server->CpuSeconds() : 0.0;
  const auto start = std::chrono::steady_clock::now();
  { std::ofstream touch(gate); }
  long count = start_count;
  while ((count = counter.Count()) < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.tells = count - start_count;
  for (const testing::Child& c : run.children) {
    testing::Wait(c);
    const WorkerTally t = Tally(c.out);
    run.workers.cpu += t.cpu;
    run.workers.lock_held += t.lock_held;
    run.workers.asked += t.asked;
    run.workers.choices += t.choices;
    run.workers.under_lock += t.under_lock;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // backends end and are reaped
  if (server != nullptr) run.server_cpu = server->CpuSeconds() - server_before;
  return run;
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_SHARED_STUDY_RUN_H_
