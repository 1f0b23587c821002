// Whole Bayesian-optimization runs of limbo (resibots/limbo, bayes_opt::BOptimizer) on the
// problems and budget of bench/plugin_bench.cc: Branin (2-D) and Hartmann-6 (6-D), 10 random
// initial points + 190 rounds, UCB mu + alpha sigma with alpha = 0.5 (gpbandit's gp-ucb with the
// constant beta 0.25), hyperparameters refitted every 50 rounds. The rest is limbo's own
// benchmark configuration (its src/benchmarks/limbo/bench.cpp, variant LIMBO_DEF_HPOPT, which
// sets alpha = 0.125; --alpha 0.125 runs that): BOptimizerHPOpt = a GP with the data mean and
// the squared-exponential ARD kernel, noise 1e-10, marginal likelihood fitted by Rprop (10
// repeats, eps_stop 1e-6), the acquisition maximized by NLopt's DIRECT-L-RAND (500 evaluations,
// tolerances 1e-6). limbo works in [0, 1]^d; points are mapped onto each problem's box.
// Branin is given to limbo normalized as its benchmark does, (reward + 44.81) / 51.95.
//
// The problems are gpbandit's (examples/problems/synthetic_functions.h), so both sides evaluate
// the same functions and measure the same error: best reward found minus the optimum, Branin's
// divided by 51.95. Each run is timed from the optimizer's construction to the end of its
// optimize(), in wall-clock time and in the process's CPU time
// (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)). limbo seeds its random generators from the system
// (its tools/random_generator.hpp), so every run is an independent draw, not a fixed seed. The
// program runs one thread (limbo without USE_TBB, Eigen without OpenMP).
//
// Not built by CMake: limbo is not a dependency of gpbandit. bench/limbo/run_limbo_bo_bench.sh
// compiles it against a limbo checkout (with -DUSE_NLOPT) and runs it beside plugin_bench.
//   limbo_bo_bench [--problem branin|hartmann6|both (default both)] [--runs 20] [--alpha 0.5]
// Prints one line per run, "run PROBLEM I wall_ms W cpu_ms C error E", then per problem
// "PROBLEM_run_ms", "PROBLEM_run_cpu_ms", "PROBLEM_error" (medians over the runs) and
// "PROBLEM_stalled" (the fraction of runs whose error exceeds 1e-3).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <limbo/limbo.hpp>
#include <string>
#include <vector>

#include "examples/problems/synthetic_functions.h"

namespace {

struct Params {
  struct bayes_opt_bobase : public limbo::defaults::bayes_opt_bobase {
    BO_PARAM(bool, stats_enabled, false);
  };
  struct bayes_opt_boptimizer {
    BO_PARAM(int, hp_period, 50);
  };
  struct stop_maxiterations {
    BO_PARAM(int, iterations, 190);
  };
  struct init_randomsampling {
    BO_PARAM(int, samples, 10);
  };
  struct kernel : public limbo::defaults::kernel {
    BO_PARAM(double, noise, 1e-10);
  };
  struct kernel_squared_exp_ard : public limbo::defaults::kernel_squared_exp_ard {};
  // Set at run time from --alpha.
  struct acqui_ucb {
    BO_DYN_PARAM(double, alpha);
  };
  struct opt_rprop : public limbo::defaults::opt_rprop {
    BO_PARAM(double, eps_stop, 1e-6);
  };
  struct opt_parallelrepeater : public limbo::defaults::opt_parallelrepeater {};
  struct opt_nloptnograd : public limbo::defaults::opt_nloptnograd {
    BO_PARAM(double, fun_tolerance, 1e-6);
    BO_PARAM(double, xrel_tolerance, 1e-6);
  };
};
BO_DECLARE_DYN_PARAM(double, Params::acqui_ucb, alpha);

using Optimizer = limbo::bayes_opt::BOptimizerHPOpt<Params>;

// One of gpbandit's problems seen through limbo's interface: [0, 1]^d onto the box, the
// reward (limbo maximizes) scaled by kScale after adding kShift.
template <int kDim, bool kBranin>
struct Problem {
  BO_PARAM(std::size_t, dim_in, kDim);
  BO_PARAM(std::size_t, dim_out, 1);

  static const gpbandit::problems::SyntheticFunction& Function() {
    static const gpbandit::problems::SyntheticFunction f =
        kBranin ? gpbandit::problems::MakeBranin() : gpbandit::problems::MakeHartmann6();
    return f;
  }
  static double Shift() { return kBranin ? 44.81 : 0.0; }
  static double Scale() { return kBranin ? 1.0 / 51.95 : 1.0; }

  Eigen::VectorXd operator()(const Eigen::VectorXd& u) const {
    const auto& f = Function();
    const Eigen::VectorXd x = f.lower + u.cwiseProduct(f.upper - f.lower);
    return Eigen::VectorXd::Constant(1, (f.reward(x) + Shift()) * Scale());
  }
  // Best reward found minus the optimum, in limbo's units (Branin's divided by 51.95).
  static double Error(double best_observation) {
    return (Function().max_reward + Shift()) * Scale() - best_observation;
  }
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double CpuMilliseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

template <typename P>
void RunProblem(const std::string& name, int runs) {
  std::vector<double> wall, cpu, errors;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = CpuMilliseconds();
    Optimizer opt;
    opt.optimize(P());
    cpu.push_back(CpuMilliseconds() - cpu_start);
    wall.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    errors.push_back(P::Error(opt.best_observation()(0)));
    std::cout << "run " << name << " " << i << " wall_ms " << wall.back() << " cpu_ms "
              << cpu.back() << " error " << errors.back() << std::endl;
  }
  const double stalled = static_cast<double>(std::count_if(errors.begin(), errors.end(),
                                                           [](double e) { return e > 1e-3; })) /
                         runs;
  std::cout << name << "_run_ms " << Median(wall) << "\n"
            << name << "_run_cpu_ms " << Median(cpu) << "\n"
            << name << "_error " << Median(errors) << "\n"
            << name << "_stalled " << stalled << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  std::string problem = "both";
  int runs = 20;
  double alpha = 0.5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--problem") {
      problem = argv[i + 1];
    } else if (flag == "--runs") {
      runs = std::atoi(argv[i + 1]);
    } else if (flag == "--alpha") {
      alpha = std::atof(argv[i + 1]);
    } else {
      std::cerr << "unknown flag " << flag
                << "; usage: limbo_bo_bench [--problem branin|hartmann6|both] [--runs N]"
                   " [--alpha A]\n";
      return 2;
    }
  }
  if (runs < 1 || !(alpha >= 0.0) ||
      (problem != "branin" && problem != "hartmann6" && problem != "both")) {
    std::cerr << "--runs must be >= 1, --alpha >= 0, --problem branin, hartmann6 or both\n";
    return 2;
  }
  Params::acqui_ucb::set_alpha(alpha);
  std::cout.precision(6);
  if (problem != "hartmann6") RunProblem<Problem<2, true>>("branin", runs);
  if (problem != "branin") RunProblem<Problem<6, false>>("hartmann6", runs);
  return 0;
}
