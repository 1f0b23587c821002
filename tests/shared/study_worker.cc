// A worker process for the shared-study tests and benchmark: joins a study, then asks, evaluates
// a cheap objective and tells, printing each acknowledged tell as it returns.
//
//   study_worker STORAGE STUDY ROUNDS UNTIL_TOLD LEASE_SECONDS [NAME=VALUE ...]
//
// STUDY "-" for a file storage. Stops after ROUNDS tells of its own (0: no limit) or once the
// study holds UNTIL_TOLD tells (0: no limit). LEASE_SECONDS: the pending points' lease. Options:
//   eval_us=N          microseconds each evaluation sleeps (default 0)
//   asks=outside|under WorkerOptions::asks_outside_lock (default outside)
//   tolerance=X        WorkerOptions::ask_tolerance (default the library's)
//   lock_lease=S       WorkerOptions::lock_lease_seconds (default the library's)
//   gate=PATH          a file whose existence it waits for after joining, before its first ask
//   objective=NAME     "smooth" (default: one maximum inside the unit box) or a synthetic
//                      function of examples/problems/synthetic_functions.h on its own box
//   stop_at_commit=N   stops itself (SIGSTOP) holding the study's lock at its N-th exclusive
//                      commit, before committing (TimedStorage::StopAtCommit)
// Prints, each line flushed:
//   READY <cpu seconds>         once it has joined (replayed) the study; the CPU time used
//                               so far (user + system)
//   TOLD <x1,...,xd> <y>        after Tell returned (the tell is durable)
//   ASKS <n> <choices outside the lock> <asks chosen under it>   after its last tell
//   LOCK <seconds it held the study's lock> <exclusive sessions>   after its last tell
//   CPU <cpu seconds>           after its last tell
//   FINGERPRINT <digest>        after its last tell: Optimizer::Fingerprint at that moment
// Exit status 0, 1 with a message on stderr, or 2 for bad arguments.
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <thread>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/shared/timed_storage.h"

namespace {

// Smooth, cheap, one maximum inside the unit box.
double Objective(const Eigen::VectorXd& x) {
  double s = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double d = x(i) - 0.3 - 0.05 * static_cast<double>(i);
    s += d * d;
  }
  return -s + 0.1 * std::sin(7.0 * x.sum());
}

double CpuSeconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string Csv(const Eigen::VectorXd& v) {
  std::string out;
  char buffer[40];
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, "%.17g", v(i));
    out += (i ? "," : "") + std::string(buffer);
  }
  return out;
}

// The options after the positional arguments (see the header).
struct Settings {
  long eval_us = 0, stop_at_commit = 0;
  std::string gate, objective = "smooth";
};

bool ParseOption(const std::string& arg, gpbandit::WorkerOptions* worker, Settings* settings) {
  const std::size_t eq = arg.find('=');
  if (eq == std::string::npos) return false;
  const std::string name = arg.substr(0, eq), value = arg.substr(eq + 1);
  if (name == "eval_us") {
    settings->eval_us = std::atol(value.c_str());
  } else if (name == "asks") {
    worker->asks_outside_lock = value != "under";
  } else if (name == "tolerance") {
    worker->ask_tolerance = std::atof(value.c_str());
  } else if (name == "lock_lease") {
    worker->lock_lease_seconds = std::atof(value.c_str());
  } else if (name == "gate") {
    settings->gate = value;
  } else if (name == "objective") {
    settings->objective = value;
  } else if (name == "stop_at_commit") {
    settings->stop_at_commit = std::atol(value.c_str());
  } else {
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  gpbandit::WorkerOptions worker;
  Settings settings;
  bool good = argc >= 6;
  for (int i = 6; good && i < argc; ++i) good = ParseOption(argv[i], &worker, &settings);
  if (!good) {
    std::cerr << "usage: study_worker STORAGE STUDY ROUNDS UNTIL_TOLD LEASE_SECONDS "
                 "[eval_us=N] [asks=outside|under] [tolerance=X] [lock_lease=S] [gate=PATH] "
                 "[objective=NAME] [stop_at_commit=N]\n";
    return 2;
  }
  const std::string storage = argv[1], study = std::string(argv[2]) == "-" ? "" : argv[2];
  const long rounds = std::atol(argv[3]), until_told = std::atol(argv[4]);
  worker.pending_lease_seconds = std::atof(argv[5]);
  worker.reconnect_timeout_seconds = 60;
  const long eval_us = settings.eval_us;
  const std::string& gate = settings.gate;
  std::function<double(const Eigen::VectorXd&)> objective = Objective;
  if (settings.objective != "smooth")
    objective = gpbandit::problems::MakeSyntheticFunction(settings.objective).reward;
  try {
    gpbandit::StorageOptions storage_options;
    storage_options.reconnect_timeout_seconds = worker.reconnect_timeout_seconds;
    storage_options.lock_lease_seconds = worker.lock_lease_seconds;
    auto timed = std::make_unique<gpbandit::testing::TimedStorage>(
        gpbandit::OpenStudyStorage(storage, study, storage_options));
    timed->StopAtCommit(settings.stop_at_commit);
    const gpbandit::testing::TimedStorage& lock = *timed;
    auto opt = gpbandit::Optimizer::Open(std::move(timed), nullptr, worker);
    std::printf("READY %.6f\n", CpuSeconds());
    std::fflush(stdout);
    while (!gate.empty() && ::access(gate.c_str(), F_OK) != 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    long told = 0, choices = 0, under_lock = 0;
    std::mt19937_64 rng(static_cast<std::uint64_t>(::getpid()) * 1000003u + told);
    std::uniform_real_distribution<double> tag(0.0, 1.0);
    while ((rounds == 0 || told < rounds) &&
           (until_told == 0 || static_cast<long>(opt->observations().size()) < until_told)) {
      const Eigen::VectorXd x = opt->Ask();
      choices += opt->last_round_report().choices_outside_lock;
      under_lock += opt->last_round_report().chosen_under_lock ? 1 : 0;
      if (eval_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(eval_us));
      // A tag below 1e-6 in the reward makes each tell identifiable (the optimizer may suggest
      // an observed point again, so x alone is not).
      const double y = objective(x) + 1e-6 * tag(rng);
      opt->Tell(x, y);
      ++told;
      std::printf("TOLD %s %.17g\n", Csv(x).c_str(), y);
      std::fflush(stdout);
    }
    std::printf("ASKS %ld %ld %ld\n", told, choices, under_lock);
    std::printf("LOCK %.6f %ld\n", lock.held(), lock.exclusive_sessions());
    std::printf("CPU %.6f\n", CpuSeconds());
    std::printf("FINGERPRINT %s\n", opt->Fingerprint().c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::cerr << "study_worker: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
