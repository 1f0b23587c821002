// One Bayesian-optimization run of bench/plugin_bench.cc's reference setting (10 initial points +
// 190 rounds, gp-ucb with constant beta 0.25, hyperparameters refitted every 50), one seed per
// line of output, for profilers and instruction counters (valgrind --tool=callgrind), which
// need a run whose work does not depend on a benchmark loop's iteration count.
//
//   bo_run_study PROBLEM SEED [SEEDS [THREADS]]
//
// PROBLEM: branin or hartmann6; runs seeds SEED .. SEED + SEEDS - 1 (default 1) on
// OptimizerOptions::num_threads = THREADS (default 1; 0 = the default policy). Prints per seed:
// the error (as plugin_bench: Branin's gap / 51.95, Hartmann-6's gap), the process's CPU time
// (user + sys) and the wall time of that run, and a checksum of every suggestion's bits, so that
// two builds can be compared for bit-identical suggestions.
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"

namespace {

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

std::uint64_t Mix(std::uint64_t h, double v) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  h ^= bits + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpbandit;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s branin|hartmann6 SEED [SEEDS [THREADS]]\n", argv[0]);
    return 2;
  }
  const bool branin = std::string(argv[1]) == "branin";
  const int first = std::atoi(argv[2]);
  const int seeds = argc > 3 ? std::atoi(argv[3]) : 1;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  const auto f = branin ? problems::MakeBranin() : problems::MakeHartmann6();
  OptimizerOptions o;
  o.initial_design_size = 10;
  o.sync_log = false;
  o.num_threads = threads;
  o.refit.every_while_small = 10;
  o.refit.small_until = 11;
  o.refit.every = 50;
  const StrategyParams s(R"({"beta_schedule": "constant", "constant_beta": 0.25})");
  for (int seed = first; seed < first + seeds; ++seed) {
    o.seed = static_cast<std::uint64_t>(seed);
    const double cpu0 = CpuSeconds();
    const auto wall0 = std::chrono::steady_clock::now();
    Optimizer opt(Domain::Box(f.lower, f.upper), nullptr, "gp-ucb", s, o);
    double best = -HUGE_VAL;
    std::uint64_t h = 0;
    for (int i = 0; i < 200; ++i) {
      const Eigen::VectorXd x = opt.Ask();
      for (int j = 0; j < x.size(); ++j) h = Mix(h, x[j]);
      const double y = f.reward(x);
      opt.Tell(x, y);
      best = std::max(best, y);
    }
    const double cpu_ms = 1e3 * (CpuSeconds() - cpu0);
    const double wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
    const double gap = f.max_reward - best;
    std::printf("%s seed %d error %.3g cpu_ms %.1f wall_ms %.1f bits %016llx\n", argv[1], seed,
                branin ? gap / 51.95 : gap, cpu_ms, wall_ms, static_cast<unsigned long long>(h));
  }
  return 0;
}
