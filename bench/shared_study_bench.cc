// Shared studies: aggregate ask + tell cycles per second with several worker processes on one
// study, on a file and on PostgreSQL on this machine, and the storage's own share of an ask.
// A plain program (worker processes do not fit Google Benchmark's loop):
//
//   build/bench/shared_study_bench [--tells 800] [--workers 1,4,16] [--dims 2,6]
//                                  [--backends file,postgresql] [--overhead-t 200]
//                                  [--overhead-asks 40] [--skip-throughput] [--skip-overhead]
//
// Throughput: for each backend, box dimension d and worker count w, a new study (GP-UCB on
// [0, 1]^d, the optimizer's default maximizer: 32 raw samples, 2 L-BFGS starts, 50 iterations;
// hyperparameters refitted every 5 observations below 50 and then never: a refit at t = 800
// costs seconds under the study's lock and would measure the fit, not the sharing; one OpenMP
// thread per worker) is driven by w study_worker processes (tests/shared/study_worker.cc, a
// free dummy objective) until it holds --tells tells. Printed: cycles/s over the whole run and
// over the stretches t < 200, 200-400, 400-800 (the model's work per ask grows with t, and it
// is done under the lock), measured by polling the study.
//
// Overhead: one worker in this process on a study prefilled to t = --overhead-t; each ask's
// wall time and the part spent in the storage (begin/lock, reads, clock, appends, commit with
// fsync or database commit), through a StudyStorage wrapper; medians over --overhead-asks asks.
//
// PostgreSQL runs in a throw-away server (tests/storage/local_postgres.h) with fsync on.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/flags.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/postgres_storage.h"
#include "gpbandit/storage/study_storage.h"
#include "tests/shared/child_process.h"
#include "tests/shared/tell_counter.h"
#include "tests/shared/timed_storage.h"
#include "tests/storage/local_postgres.h"

namespace gpbandit {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

struct Args {
  long tells = 800;
  std::vector<int> workers = {1, 4, 16}, dims = {2, 6};
  std::vector<std::string> backends = {"file", "postgresql"};
  long overhead_t = 200;
  int overhead_asks = 40;
  bool throughput = true, overhead = true;
};

Args ParseArgs(int argc, char** argv) {
  Args a;
  std::string workers = "1,4,16", dims = "2,6", backends = "file,postgresql";
  bench::po::options_description flags("flags");
  flags.add_options()("tells", bench::po::value<long>(&a.tells)->default_value(a.tells),
                      "tells per study")(
      "workers", bench::po::value<std::string>(&workers)->default_value(workers), "worker counts")(
      "dims", bench::po::value<std::string>(&dims)->default_value(dims), "box dimensions")(
      "backends", bench::po::value<std::string>(&backends)->default_value(backends),
      "file and/or postgresql")("overhead-t",
                                bench::po::value<long>(&a.overhead_t)->default_value(a.overhead_t),
                                "observations before the overhead's asks")(
      "overhead-asks", bench::po::value<int>(&a.overhead_asks)->default_value(a.overhead_asks),
      "asks timed")("skip-throughput", "skip the throughput part")("skip-overhead",
                                                                   "skip the overhead part");
  const bench::po::variables_map values = bench::ParseFlags(argc, argv, flags);
  a.throughput = values.count("skip-throughput") == 0;
  a.overhead = values.count("skip-overhead") == 0;
  a.workers = bench::ParsePositiveInts(workers, "workers");
  a.dims = bench::ParsePositiveInts(dims, "dims");
  a.backends = bench::SplitList(backends);
  bench::RequireAtLeastOne(a.tells, "tells");
  bench::RequireAtLeastOne(a.overhead_t, "overhead-t");
  bench::RequireAtLeastOne(a.overhead_asks, "overhead-asks");
  return a;
}

OptimizerOptions BenchOptions() {
  OptimizerOptions o;
  o.seed = 11;
  o.refit.every_while_small = 5;
  o.refit.small_until = 50;
  o.refit.every = 1000000;
  o.num_threads = 1;
  return o;
}

Domain Box(int d) { return Domain::Box(Eigen::VectorXd::Zero(d), Eigen::VectorXd::Ones(d)); }

// Where the studies live for one backend.
struct Place {
  std::string url;
  bool directory = false;
};

void Throughput(const Place& place, const std::string& backend, int d, int workers, long tells,
                const std::string& scratch) {
  const std::string study = "throughput_d" + std::to_string(d) + "_w" + std::to_string(workers);
  {
    Optimizer creator(Box(d), nullptr, "gp-ucb", StrategyParams(), BenchOptions(),
                      OpenStudyStorage(place.url, study));
    creator.CreateStudy();
  }
  testing::TellCounter counter(place.url, study);
  const auto start = Clock::now();
  std::vector<testing::Child> children;
  for (int w = 0; w < workers; ++w) {
    const std::string name = scratch + "/w" + std::to_string(w);
    children.push_back(
        testing::Spawn({STUDY_WORKER_PATH, place.url, study, "0", std::to_string(tells), "3600"},
                       name + ".out", name + ".err"));
  }
  // When the study reached t = 200, 400 and `tells` (the marks past `tells` are dropped).
  std::vector<long> marks;
  for (long m : {200L, 400L, tells})
    if (m <= tells && (marks.empty() || m > marks.back())) marks.push_back(m);
  std::vector<double> reached;
  while (reached.size() < marks.size()) {
    const long n = counter.Count();
    while (reached.size() < marks.size() && n >= marks[reached.size()])
      reached.push_back(Seconds(Clock::now() - start));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (const testing::Child& c : children) testing::Wait(c);
  const double total = Seconds(Clock::now() - start);
  std::printf("%-10s  d=%d  workers=%2d  t=%ld  %6.1f s  %6.1f cycles/s  by stretch:",
              backend.c_str(), d, workers, tells, total, tells / total);
  for (std::size_t k = 0; k < marks.size(); ++k) {
    const long from = k == 0 ? 0 : marks[k - 1];
    const double seconds = reached[k] - (k == 0 ? 0.0 : reached[k - 1]);
    std::printf("  t %ld-%ld: %.1f/s", from, marks[k], (marks[k] - from) / seconds);
  }
  std::printf("\n");
  std::fflush(stdout);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double Objective(const Eigen::VectorXd& x) { return -(x.array() - 0.3).square().sum(); }

void Overhead(const Place& place, const std::string& backend, int d, const Args& args) {
  const std::string study = "overhead_d" + std::to_string(d);
  {
    Optimizer fill(Box(d), nullptr, "gp-ucb", StrategyParams(), BenchOptions(),
                   OpenStudyStorage(place.url, study));
    for (long i = 0; i < args.overhead_t; ++i) {
      const Eigen::VectorXd x = fill.Ask();
      fill.Tell(x, Objective(x));
    }
  }
  auto timed = std::make_unique<testing::TimedStorage>(OpenStudyStorage(place.url, study));
  testing::TimedStorage& storage = *timed;
  const auto opt = Optimizer::Open(std::move(timed));
  std::vector<double> ask_ms, storage_ms, tell_storage_ms;
  for (int i = 0; i < args.overhead_asks; ++i) {
    const double before = storage.spent();
    const auto start = Clock::now();
    const Eigen::VectorXd x = opt->Ask();
    ask_ms.push_back(1e3 * Seconds(Clock::now() - start));
    storage_ms.push_back(1e3 * (storage.spent() - before));
    const double before_tell = storage.spent();
    opt->Tell(x, Objective(x));
    tell_storage_ms.push_back(1e3 * (storage.spent() - before_tell));
  }
  const double ask = Median(ask_ms), in_storage = Median(storage_ms);
  std::printf(
      "%-10s  d=%d  t=%ld..%ld  ask %7.2f ms, of which storage %5.2f ms (%4.1f%%); "
      "a tell's storage %5.2f ms\n",
      backend.c_str(), d, args.overhead_t, args.overhead_t + args.overhead_asks, ask, in_storage,
      100.0 * in_storage / ask, Median(tell_storage_ms));
  std::fflush(stdout);
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  Args args;
  try {
    args = ParseArgs(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "shared_study_bench: %s\n", e.what());
    return 2;
  }
  char pattern[] = "/tmp/gpbandit_shared_bench_XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return 1;
  const std::string scratch = pattern;
  std::unique_ptr<gpbandit::testing::LocalPostgres> server;
  for (const std::string& backend : args.backends) {
    Place place;
    if (backend == "postgresql") {
      if (!HavePostgresStorage()) {
        std::printf("postgresql: not built\n");
        continue;
      }
      server = std::make_unique<gpbandit::testing::LocalPostgres>(/*fsync=*/true);
      place.url = server->Url();
    } else {
      place.url = scratch + "/studies/";
      std::system(("mkdir -p '" + place.url + "'").c_str());
    }
    if (args.overhead)
      for (int d : args.dims) Overhead(place, backend, d, args);
    if (args.throughput)
      for (int d : args.dims)
        for (int w : args.workers) Throughput(place, backend, d, w, args.tells, scratch);
    server.reset();
  }
  std::system(("rm -rf '" + scratch + "'").c_str());
  return 0;
}
