// Shared studies as they grow, and what asking outside the study's lock buys and costs
// (docs/benchmarks.md, "Shared studies: asks outside the lock"). A plain program (worker
// processes do not fit Google Benchmark's loop):
//
//   build/bench/shared_scaling_study [--backend postgresql|file] [--workers 16] [--dim 6]
//       [--at 500,2000] [--window 200] [--asks outside,under] [--tolerances 0.05]
//       [--refits early|default]
//   build/bench/shared_scaling_study --quality [--seeds 1,2,3] [--objective hartmann6]
//       [--tells 160] [--eval-ms 100] [--workers 16] [--asks ...] [--tolerances ...]
//
// Throughput at size t (--at): a new study of GP-UCB on [0, 1]^dim (the optimizer's default
// maximizer, one OpenMP thread per worker; refits every 5 observations below 50 and none after,
// or with --refits default the optimizer's schedule, a refit every 5 tells claimed by one worker
// and made outside the lock) is prefilled with t tells at uniform random points (one TellMany)
// and refitted once;
// --workers study_worker processes join it (each replays the t tells), wait at a gate, then ask
// and tell a free objective until the study holds t + --window tells. Printed per way of asking
// (--asks outside with each --tolerances value, --asks under): cycles/s, and per cycle the
// workers' and the server's CPU time and the time the study's lock was held, the numbers the
// machine's load changes least; and how often an ask outside the lock was chosen again or ended
// under the lock.
//
// Quality (--quality): for each seed, each way of asking, a new study of --objective (a
// synthetic function of examples/problems/synthetic_functions.h; GP-UCB with the optimizer's
// defaults) with --workers workers whose evaluations take --eval-ms each, until the study holds
// --tells tells: the simple regret (the maximum minus the best reward told; rewards carry a tag
// below 1e-6, so regrets below that are 0) after a quarter, half, three quarters and all of the
// tells, medians over the seeds.
//
// PostgreSQL runs in a throw-away server (tests/storage/local_postgres.h) with fsync on. To
// compare one core with two, run the program under taskset (the server inherits it).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/flags.h"
#include "bench/shared_study_run.h"
#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/postgres_storage.h"
#include "gpbandit/study/observation_log.h"

namespace gpbandit {
namespace {

struct Args {
  std::string backend = "postgresql";
  int workers = 16, dim = 6;
  std::vector<int> at = {500, 2000};
  long window = 200;
  std::vector<std::string> asks = {"outside", "under"};
  std::vector<double> tolerances = {WorkerOptions().ask_tolerance};
  bool default_refits = false;
  bool quality = false;
  std::vector<int> seeds = {1, 2, 3};
  std::string objective = "hartmann6";
  long tells = 160;
  int eval_ms = 100;
};

std::vector<double> ParseDoubles(const std::string& text, const std::string& flag) {
  std::vector<double> out;
  for (const std::string& item : bench::SplitList(text)) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || !(value >= 0.0 && value <= 1.0))
      throw std::invalid_argument("--" + flag + ": numbers in [0, 1], got '" + item + "'");
    out.push_back(value);
  }
  return out;
}

Args ParseArgs(int argc, char** argv) {
  Args a;
  std::string at = "500,2000", asks = "outside,under", tolerances = "0.05", seeds = "1,2,3",
              refits = "early";
  namespace po = bench::po;
  po::options_description flags("flags");
  flags.add_options()("backend", po::value<std::string>(&a.backend)->default_value(a.backend),
                      "postgresql or file")(
      "workers", po::value<int>(&a.workers)->default_value(a.workers), "worker processes")(
      "dim", po::value<int>(&a.dim)->default_value(a.dim), "throughput: box dimension")(
      "at", po::value<std::string>(&at)->default_value(at), "throughput: prefilled sizes")(
      "window", po::value<long>(&a.window)->default_value(a.window), "throughput: tells measured")(
      "asks", po::value<std::string>(&asks)->default_value(asks), "outside and/or under the lock")(
      "tolerances", po::value<std::string>(&tolerances)->default_value(tolerances),
      "WorkerOptions::ask_tolerance values for asks outside the lock")(
      "refits", po::value<std::string>(&refits)->default_value(refits), "early or default")(
      "quality", "measure regret instead of throughput")(
      "seeds", po::value<std::string>(&seeds)->default_value(seeds), "quality: study seeds")(
      "objective", po::value<std::string>(&a.objective)->default_value(a.objective),
      "quality: synthetic function")("tells", po::value<long>(&a.tells)->default_value(a.tells),
                                     "quality: tells per study")(
      "eval-ms", po::value<int>(&a.eval_ms)->default_value(a.eval_ms),
      "quality: milliseconds per evaluation");
  const po::variables_map values = bench::ParseFlags(argc, argv, flags);
  a.quality = values.count("quality") > 0;
  a.at = bench::ParsePositiveInts(at, "at");
  a.asks = bench::SplitList(asks);
  for (const std::string& mode : a.asks)
    if (mode != "outside" && mode != "under")
      throw std::invalid_argument("--asks: outside or under, got '" + mode + "'");
  a.tolerances = ParseDoubles(tolerances, "tolerances");
  if (refits != "early" && refits != "default")
    throw std::invalid_argument("--refits: early or default, got '" + refits + "'");
  a.default_refits = refits == "default";
  a.seeds = bench::ParsePositiveInts(seeds, "seeds");
  if (a.backend != "postgresql" && a.backend != "file")
    throw std::invalid_argument("--backend: postgresql or file, got '" + a.backend + "'");
  bench::RequireAtLeastOne(a.workers, "workers");
  bench::RequireAtLeastOne(a.dim, "dim");
  bench::RequireAtLeastOne(a.window, "window");
  bench::RequireAtLeastOne(a.tells, "tells");
  return a;
}

// A way of asking: under the lock, or outside it with a tolerance.
struct Mode {
  std::string asks;
  double tolerance = 0;
  std::string Name() const {
    char text[40];
    std::snprintf(text, sizeof text, "outside %.2f", tolerance);
    return asks == "under" ? "under" : text;
  }
  std::vector<std::string> WorkerOptions() const {
    return {"asks=" + asks, "tolerance=" + std::to_string(tolerance)};
  }
};

std::vector<Mode> Modes(const Args& args) {
  std::vector<Mode> modes;
  for (const std::string& asks : args.asks) {
    if (asks == "under") {
      modes.push_back({asks, 0});
    } else {
      for (double t : args.tolerances) modes.push_back({asks, t});
    }
  }
  return modes;
}

Domain Box(int d) { return Domain::Box(Eigen::VectorXd::Zero(d), Eigen::VectorXd::Ones(d)); }

void PrintRun(const char* what, const Mode& mode, const bench::WorkersRun& run) {
  const bench::WorkerTally& w = run.workers;
  std::printf(
      "%s  asks %-12s  %6.1f s  %6.1f cycles/s  per cycle: CPU %6.1f ms (workers) + %5.1f ms "
      "(server), lock held %6.2f ms; choices per ask %.2f, under the lock %5.1f%%\n",
      what, mode.Name().c_str(), run.seconds, run.cycles_per_second(), 1e3 * run.PerCycle(w.cpu),
      1e3 * run.PerCycle(run.server_cpu), 1e3 * run.PerCycle(w.lock_held),
      run.PerCycle(static_cast<double>(w.choices)),
      100.0 * run.PerCycle(static_cast<double>(w.under_lock)));
  std::fflush(stdout);
}

void Throughput(const std::string& url, const testing::LocalPostgres* server, const Args& args,
                long at, const Mode& mode, const std::string& scratch, int index) {
  const std::string study = "throughput_" + std::to_string(index);
  {
    OptimizerOptions o;
    o.seed = 11;
    o.num_threads = 1;
    if (!args.default_refits) {
      o.refit.every_while_small = 5;
      o.refit.small_until = 50;
      o.refit.every = 1000000;
    }
    Optimizer creator(Box(args.dim), nullptr, "gp-ucb", StrategyParams(), o,
                      OpenStudyStorage(url, study));
    std::mt19937_64 rng(static_cast<std::uint64_t>(at));
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    Eigen::MatrixXd X(args.dim, at);
    Eigen::VectorXd y(at);
    for (long j = 0; j < at; ++j) {
      for (int i = 0; i < args.dim; ++i) X(i, j) = u01(rng);
      y(j) = -(X.col(j).array() - 0.3).square().sum();
    }
    creator.TellMany(X, Eigen::MatrixXd(), y);
    // The refit its tells claimed, done and recorded (its point given back): the window starts
    // with a fitted model, as a study that grew to t would.
    creator.Release(creator.Ask());
  }
  const bench::WorkersRun run = bench::RunWorkers(url, study, server, args.workers,
                                                  at + args.window, mode.WorkerOptions(), scratch);
  char what[120];
  std::snprintf(what, sizeof what, "%-10s d=%d workers=%2d t=%ld..%ld%s", args.backend.c_str(),
                args.dim, args.workers, at, at + args.window, args.default_refits ? " refits" : "");
  PrintRun(what, mode, run);
}

// The best reward told in the study by each checkpoint (the first n tells, in commit order).
std::vector<double> BestTold(const std::string& url, const std::string& study,
                             const std::vector<int>& checkpoints) {
  std::vector<double> best_by(checkpoints.size(), -HUGE_VAL);
  double best = -HUGE_VAL;
  long tells = 0;
  for (const StudyRecord& r :
       OpenStudyStorage(url, study)->Begin(LockMode::kShared)->ReadAfter(0)) {
    if (r.type != "tell") continue;
    best = std::max(best, ParseLogRecord(r.json).y);
    ++tells;
    for (std::size_t k = 0; k < checkpoints.size(); ++k)
      if (tells <= checkpoints[k]) best_by[k] = best;
  }
  return best_by;
}

void Quality(const std::string& url, const testing::LocalPostgres* server, const Args& args,
             const std::string& scratch) {
  const problems::SyntheticFunction f = problems::MakeSyntheticFunction(args.objective);
  std::vector<int> checkpoints;
  for (long n : {args.tells / 4, args.tells / 2, 3 * args.tells / 4, args.tells})
    if (n > 0) checkpoints.push_back(static_cast<int>(n));
  int index = 0;
  for (const Mode& mode : Modes(args)) {
    std::vector<std::vector<double>> regrets(checkpoints.size());
    double seconds = 0;
    long tells = 0, asked = 0, choices = 0, under = 0;
    for (int seed : args.seeds) {
      const std::string study = "quality_" + std::to_string(index++);
      OptimizerOptions o;
      o.seed = static_cast<std::uint64_t>(seed);
      o.num_threads = 1;
      Optimizer creator(Domain::Box(f.lower, f.upper), nullptr, "gp-ucb", StrategyParams(), o,
                        OpenStudyStorage(url, study));
      creator.CreateStudy();
      std::vector<std::string> options = mode.WorkerOptions();
      options.push_back("objective=" + args.objective);
      options.push_back("eval_us=" + std::to_string(1000L * args.eval_ms));
      const bench::WorkersRun run =
          bench::RunWorkers(url, study, server, args.workers, args.tells, options, scratch);
      const std::vector<double> best = BestTold(url, study, checkpoints);
      for (std::size_t k = 0; k < checkpoints.size(); ++k)
        regrets[k].push_back(std::max(0.0, f.max_reward - best[k]));
      seconds += run.seconds;
      tells += run.tells;
      asked += run.workers.asked;
      choices += run.workers.choices;
      under += run.workers.under_lock;
    }
    std::printf("%s workers=%d eval=%d ms  asks %-12s  median regret after", args.objective.c_str(),
                args.workers, args.eval_ms, mode.Name().c_str());
    for (std::size_t k = 0; k < checkpoints.size(); ++k) {
      std::vector<double> sorted = regrets[k];
      std::sort(sorted.begin(), sorted.end());
      std::printf(" %d: %.3g", checkpoints[k], sorted[sorted.size() / 2]);
    }
    std::printf("  (last, per seed:");
    for (double r : regrets.back()) std::printf(" %.3g", r);
    std::printf(")  %.1f cycles/s  choices per ask %.2f  under the lock %.1f%%\n", tells / seconds,
                static_cast<double>(choices) / std::max(1L, asked),
                100.0 * static_cast<double>(under) / std::max(1L, asked));
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  Args args;
  try {
    args = ParseArgs(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "shared_scaling_study: %s\n", e.what());
    return 2;
  }
  char pattern[] = "/tmp/gpbandit_shared_scaling_XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return 1;
  const std::string scratch = pattern;
  std::unique_ptr<testing::LocalPostgres> server;
  std::string url = scratch + "/studies/";
  if (args.backend == "postgresql") {
    if (!HavePostgresStorage()) {
      std::fprintf(stderr, "shared_scaling_study: built without PostgreSQL\n");
      return 2;
    }
    server = std::make_unique<testing::LocalPostgres>(/*fsync=*/true);
    url = server->Url();
  } else {
    std::system(("mkdir -p '" + url + "'").c_str());
  }
  if (args.quality) {
    Quality(url, server.get(), args, scratch);
  } else {
    int index = 0;
    for (int at : args.at)
      for (const auto& mode : Modes(args))
        Throughput(url, server.get(), args, at, mode, scratch, index++);
  }
  server.reset();
  std::system(("rm -rf '" + scratch + "'").c_str());
  return 0;
}
