// Shared studies under faults, run after run: the count of acknowledged tells lost or doubled,
// as a user would try it (docs/shared_studies.md, "What a study guarantees"). A plain program:
//
//   build/bench/shared_chaos_study [--runs 21] [--workers 16] [--tells 300] [--kills 12]
//                                  [--crashes 2] [--stops 1] [--seed 1]
//
// Each run: a new study (GP-UCB on [0, 1]^2, a small maximizer, refits every 4 tells up to 40)
// on one throw-away PostgreSQL server (tests/storage/local_postgres.h, fsync on, asynchronous
// commits left in memory for up to 30 s: wal_writer_delay = 10 s), --workers
// study_worker processes (tests/shared/study_worker.cc; evaluations of 10 ms, leases of 2 s,
// lock leases of 1 s) until the study holds --tells tells, while: --kills workers are killed
// with SIGKILL at random moments and replaced; the server is crashed --crashes times (SIGKILL to
// the postmaster and every process it started, which forgets its last asynchronous commits)
// and started again; --stops workers are stopped with SIGSTOP for three lock leases and
// continued. Then the audit (tests/shared/study_audit.h): acknowledged tells missing or doubled
// in the study, tells nobody acknowledged (at most one per killed worker), equal points pending
// at once, and the workers that finished whose model was not a replay of the study up to their
// last tell; and how many workers replayed the study again after a crash (StudyRewound).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/flags.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/postgres_storage.h"
#include "tests/shared/child_process.h"
#include "tests/shared/study_audit.h"
#include "tests/shared/tell_counter.h"
#include "tests/storage/local_postgres.h"

namespace gpbandit {
namespace {

struct Args {
  int runs = 21, workers = 16, kills = 12, crashes = 2, stops = 1;
  long tells = 300;
  std::uint64_t seed = 1;
};

Args ParseArgs(int argc, char** argv) {
  Args a;
  namespace po = bench::po;
  po::options_description flags("flags");
  flags.add_options()("runs", po::value<int>(&a.runs)->default_value(a.runs), "runs")(
      "workers", po::value<int>(&a.workers)->default_value(a.workers), "worker processes")(
      "tells", po::value<long>(&a.tells)->default_value(a.tells), "tells per study")(
      "kills", po::value<int>(&a.kills)->default_value(a.kills), "workers killed per run")(
      "crashes", po::value<int>(&a.crashes)->default_value(a.crashes), "server crashes per run")(
      "stops", po::value<int>(&a.stops)->default_value(a.stops), "workers stopped per run")(
      "seed", po::value<std::uint64_t>(&a.seed)->default_value(a.seed), "first run's seed");
  bench::ParseFlags(argc, argv, flags);
  bench::RequireAtLeastOne(a.runs, "runs");
  bench::RequireAtLeastOne(a.workers, "workers");
  bench::RequireAtLeastOne(a.tells, "tells");
  return a;
}

void CreateStudy(const std::string& url, const std::string& study, std::uint64_t seed) {
  OptimizerOptions o;
  o.seed = seed;
  o.maximizer_raw_samples = 16;
  o.maximizer_starts = 1;
  o.maximizer_iterations = 10;
  o.refit.every_while_small = 4;
  o.refit.small_until = 40;
  o.refit.every = 1000000;
  o.fit.max_iterations = 20;
  o.num_threads = 1;
  Optimizer(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "gp-ucb",
            StrategyParams(), o, OpenStudyStorage(url, study))
      .CreateStudy();
}

struct RunResult {
  int lost = 0, repeated = 0, unacknowledged = 0, equal_pending = 0, mismatches = 0;
  int kills = 0, crashes = 0, stops = 0, rewound = 0;
  long acknowledged = 0;
};

// The run's faults, at points spread over the study's progress.
struct Schedule {
  std::vector<long> kill_at, crash_at, stop_at;
};

Schedule MakeSchedule(const Args& args, std::mt19937_64& rng) {
  std::uniform_int_distribution<long> when(args.tells / 10, 8 * args.tells / 10);
  Schedule s;
  for (int i = 0; i < args.kills; ++i) s.kill_at.push_back(when(rng));
  for (int i = 0; i < args.crashes; ++i) s.crash_at.push_back(when(rng));
  for (int i = 0; i < args.stops; ++i) s.stop_at.push_back(when(rng));
  for (auto* v : {&s.kill_at, &s.crash_at, &s.stop_at}) std::sort(v->begin(), v->end());
  return s;
}

testing::Child StartWorker(const std::string& url, const std::string& study, long tells,
                           const std::string& scratch, int* started) {
  const std::string name = scratch + "/" + study + "_" + std::to_string((*started)++);
  return testing::Spawn({STUDY_WORKER_PATH, url, study, "0", std::to_string(tells), "2",
                         "eval_us=10000", "lock_lease=1"},
                        name + ".out", name + ".err");
}

RunResult Run(testing::LocalPostgres& server, const Args& args, int run,
              const std::string& scratch) {
  std::mt19937_64 rng(args.seed + static_cast<std::uint64_t>(run));
  const std::string url = server.Url(), study = "chaos_" + std::to_string(run);
  CreateStudy(url, study, args.seed + static_cast<std::uint64_t>(run));
  const Schedule schedule = MakeSchedule(args, rng);
  RunResult result;
  int started = 0;
  std::vector<testing::Child> running, finished, killed;
  for (int w = 0; w < args.workers; ++w)
    running.push_back(StartWorker(url, study, args.tells, scratch, &started));
  testing::TellCounter progress(url, study);
  while (!running.empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + rng() % 20));
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      if (::waitpid(it->pid, &status, WNOHANG) == it->pid) {
        finished.push_back(*it);
        it = running.erase(it);
      } else {
        ++it;
      }
    }
    long told = 0;
    try {
      told = progress.Count();
    } catch (const StorageInterrupted&) {
      continue;  // this process's own connection, after a crash
    }
    if (result.crashes < static_cast<int>(schedule.crash_at.size()) &&
        told >= schedule.crash_at[static_cast<std::size_t>(result.crashes)]) {
      server.Crash();
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      server.Start();
      ++result.crashes;
    } else if (!running.empty() && result.kills < static_cast<int>(schedule.kill_at.size()) &&
               told >= schedule.kill_at[static_cast<std::size_t>(result.kills)]) {
      const std::size_t victim = rng() % running.size();
      ::kill(running[victim].pid, SIGKILL);
      testing::Wait(running[victim]);
      killed.push_back(running[victim]);
      running[victim] = StartWorker(url, study, args.tells, scratch, &started);
      ++result.kills;
    } else if (!running.empty() && result.stops < static_cast<int>(schedule.stop_at.size()) &&
               told >= schedule.stop_at[static_cast<std::size_t>(result.stops)]) {
      const pid_t victim = running[rng() % running.size()].pid;
      ::kill(victim, SIGSTOP);
      std::this_thread::sleep_for(std::chrono::seconds(3));
      ::kill(victim, SIGCONT);
      ++result.stops;
    }
  }
  std::vector<testing::Told> acknowledged;
  for (const auto* group : {&finished, &killed})
    for (const testing::Child& w : *group) {
      const std::vector<testing::Told> told = testing::Acknowledged(w.out, nullptr);
      acknowledged.insert(acknowledged.end(), told.begin(), told.end());
      result.rewound +=
          testing::ReadText(w.err).find("replaying the study again") != std::string::npos;
    }
  std::string header;
  std::vector<LogRecord> records;
  // The storage object outlives its session: a session uses its storage's connection.
  const std::unique_ptr<StudyStorage> storage = OpenStudyStorage(url, study);
  auto session = storage->Begin(LockMode::kShared);
  header = session->header();
  for (const StudyRecord& r : session->ReadAfter(0)) records.push_back(ParseLogRecord(r.json));
  const testing::TellAudit audit = testing::AuditTells(records, acknowledged);
  result.lost = audit.lost;
  result.repeated = audit.repeated;
  result.unacknowledged = audit.unacknowledged;
  result.equal_pending = testing::EqualActivePending(records, 2.0);
  result.mismatches =
      static_cast<int>(testing::ReplayMismatches(header, records, finished, scratch).size());
  result.acknowledged = static_cast<long>(acknowledged.size());
  for (const std::string& problem : audit.problems) std::printf("    %s\n", problem.c_str());
  return result;
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  Args args;
  try {
    args = ParseArgs(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "shared_chaos_study: %s\n", e.what());
    return 2;
  }
  if (!HavePostgresStorage()) {
    std::fprintf(stderr, "shared_chaos_study: built without PostgreSQL\n");
    return 2;
  }
  char pattern[] = "/tmp/gpbandit_shared_chaos_XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return 1;
  const std::string scratch = pattern;
  // Asynchronous commits wait up to 30 s for the disk: each crash forgets the asks of the last
  // seconds, which other workers had read (the harshest setting for StudyRewound).
  testing::LocalPostgres server(/*fsync=*/true, "-c wal_writer_delay=10000");
  RunResult total;
  for (int run = 0; run < args.runs; ++run) {
    const RunResult r = Run(server, args, run, scratch);
    std::printf(
        "run %2d: %4ld acknowledged tells; lost %d, doubled %d, unacknowledged %d (%d workers "
        "killed), equal points pending %d, models not the study's %d; %d server crashes, %d "
        "stops; %d workers replayed the study again\n",
        run, r.acknowledged, r.lost, r.repeated, r.unacknowledged, r.kills, r.equal_pending,
        r.mismatches, r.crashes, r.stops, r.rewound);
    std::fflush(stdout);
    total.lost += r.lost;
    total.repeated += r.repeated;
    total.equal_pending += r.equal_pending;
    total.mismatches += r.mismatches;
    total.acknowledged += r.acknowledged;
    total.kills += r.kills;
    total.crashes += r.crashes;
    total.rewound += r.rewound;
  }
  std::printf(
      "%d runs: %ld acknowledged tells, %d lost, %d doubled; %d equal points pending at once; %d "
      "models not the study's; %d workers killed, %d server crashes, %d replays after a crash\n",
      args.runs, total.acknowledged, total.lost, total.repeated, total.equal_pending,
      total.mismatches, total.kills, total.crashes, total.rewound);
  std::system(("rm -rf '" + scratch + "'").c_str());
  return total.lost + total.repeated + total.equal_pending + total.mismatches > 0 ? 1 : 0;
}
