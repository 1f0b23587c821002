// Regret study 2: Chowdhury & Gopalan (ICML 2017), Figures 1 and 2.
//
// Decision set: 100 points drawn uniformly from [0, 1] (fresh per trial). Test functions, per
// trial, for each kernel (SE and Matern-5/2, lengthscale 0.2, unit variance):
//   rkhs:    draw y ~ N(0, K) on the 100 points; f = the GP posterior mean given y, i.e.
//            f = K alpha, alpha = (K + s0 I)^-1 y with s0 = 0.01 (the paper does not state the
//            noise of this step); B^2 = alpha^T K alpha (the RKHS norm of f).
//   gp-draw: f = y ~ N(0, K) itself; B^2 = f^T (K + j I)^-1 f with j the jitter used to draw it.
// Noise: N(0, R^2) with R^2 = 1% of f's range; the model's lambda = R^2; delta = 0.1; gamma_t
// from the kernel-family bounds (SE: (log t)^{d+1}; Matern-5/2: t^{d(d+1)/(2 nu + d(d+1))} log t),
// as the paper does. Strategies: GP-UCB (RKHS schedule of Srinivas et al. Theorem 3, unscaled),
// IGP-UCB, GP-TS (exact joint samples on the 100 points), EI and PI (margin 0).
// Reported: cumulative regret R_T (mean and std over trials) at checkpoints, seconds per run,
// and the CPU time of one round (Ask + Tell) at t = 1000, 10000 and 30000: the median of the
// 100 rounds up to each, the mean over trials.
// The runs go through the public Optimizer (a finite set, fixed hyperparameters, outputs not
// standardized, no initial design: the rank-one model of OptimizerOptions::
// finite_set_rank_one_updates, O(N^2) per round whatever t); --path=loop plays them on
// FiniteSetPosterior directly (acquisition/finite_bandit_loop.h), with the same noise draws.
//
// Usage: chowdhury_study [--full] [--trials N] [--horizon T] [--seed S] [--path optimizer|loop]
//   default: T = 30000, 4 trials (a few minutes on 2 cores); --full: the paper's 25 trials.
#include <omp.h>
#include <time.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/maximizer/finite_bandit_loop.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "numerics/cholesky.h"
#include "study_args.h"

namespace {

using gpbandit::Rng;
constexpr gpbandit::bench::TrialStream kInstance = gpbandit::bench::TrialStream::kInstance;
constexpr gpbandit::bench::TrialStream kRun = gpbandit::bench::TrialStream::kRun;

struct Settings {
  int trials = 4;
  int horizon = 30000;
  int points = 100;
  double lengthscale = 0.2;
  double delta = 0.1;
  std::uint64_t seed = 2017;
  bool through_optimizer = true;
};

Settings ParseArgs(int argc, char** argv) {
  Settings s;
  std::string path = "optimizer";
  gpbandit::bench::po::options_description extra;
  extra.add_options()("path", gpbandit::bench::po::value<std::string>(&path),
                      "optimizer (the public Optimizer, default) or loop (FiniteSetPosterior)");
  const gpbandit::bench::StudyArgs args = gpbandit::bench::ParseStudyArgs(
      argc, argv, {s.trials, s.horizon, s.seed}, 25, "horizon", extra);
  if (path != "optimizer" && path != "loop") {
    std::fprintf(stderr, "%s: --path must be optimizer or loop, got %s\n", argv[0], path.c_str());
    std::exit(2);
  }
  s.trials = args.trials;
  s.horizon = args.length;
  s.seed = args.seed;
  s.through_optimizer = path == "optimizer";
  return s;
}

struct Setting {
  const char* kernel_name;
  bool matern;
  bool rkhs;
};

struct Instance {
  Eigen::MatrixXd points;
  bool matern = false;
  std::unique_ptr<gpbandit::Kernel> kernel;
  Eigen::VectorXd f;
  double rkhs_norm = 0.0;
  double noise_variance = 0.0;
};

Instance MakeInstance(const Setting& setting, const Settings& s, Rng& rng) {
  Instance in;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  in.points.resize(1, s.points);
  for (int i = 0; i < s.points; ++i) in.points(0, i) = uniform(rng);
  in.matern = setting.matern;
  in.kernel = setting.matern ? gpbandit::MakeMatern52({0}, true, 1.0, s.lengthscale)
                             : gpbandit::MakeSquaredExponential({0}, true, 1.0, s.lengthscale);
  const Eigen::MatrixXd K = in.kernel->Gram(in.points);
  const gpbandit::JitteredCholesky chol = gpbandit::FactorizeWithJitter(K);
  const Eigen::VectorXd y = chol.lower * gpbandit::StandardNormalVector(s.points, rng);
  if (setting.rkhs) {
    Eigen::MatrixXd A = K;
    A.diagonal().array() += 0.01;
    const Eigen::VectorXd alpha = A.llt().solve(y);
    in.f = K * alpha;
    in.rkhs_norm = std::sqrt(std::max(0.0, alpha.dot(K * alpha)));
  } else {
    in.f = y;
    // y = L z with L L^T = K + j I, so y^T (K + j I)^-1 y = |z|^2.
    const Eigen::VectorXd z = chol.lower.triangularView<Eigen::Lower>().solve(y);
    in.rkhs_norm = z.norm();
  }
  in.noise_variance = 0.01 * (in.f.maxCoeff() - in.f.minCoeff());
  return in;
}

struct Entry {
  const char* label;
  const char* name;
};

// The rounds at which the per-round cost is reported.
const std::vector<int> kCostAt = {1000, 10000, 30000};

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The median of the 100 rounds up to each of kCostAt (NaN beyond the horizon).
std::vector<double> CostAtCheckpoints(std::vector<double> seconds) {
  std::vector<double> out;
  for (int t : kCostAt) {
    if (t > static_cast<int>(seconds.size())) {
      out.push_back(std::nan(""));
      continue;
    }
    std::vector<double> window(seconds.begin() + (t - 100), seconds.begin() + t);
    std::nth_element(window.begin(), window.begin() + 50, window.end());
    out.push_back(window[50]);
  }
  return out;
}

// One run through the public Optimizer: the instance's kernel and noise, fixed, outputs as
// they are (the papers' known prior), each reward told with noise drawn from rng as the loop
// draws it. *round_seconds: the CPU time of each round's Ask and Tell.
gpbandit::FiniteBanditRun RunThroughOptimizer(std::unique_ptr<gpbandit::Strategy> strategy,
                                              const Instance& in, const Settings& settings,
                                              std::uint64_t seed, Rng& rng,
                                              std::vector<double>* round_seconds) {
  gpbandit::OptimizerOptions o;
  o.seed = seed;
  o.initial_design_size = 0;
  o.refit.enabled = false;
  o.gp.noise_variance = in.noise_variance;
  o.gp.standardize_outputs = false;
  o.num_threads = 1;
  o.finite_set_rank_one_updates = true;
  // The Optimizer's kernel sees the candidates in the unit cube of their bounding box: the
  // instance's lengthscale in those units.
  const double width = in.points.maxCoeff() - in.points.minCoeff();
  const double lengthscale = settings.lengthscale / width;
  std::unique_ptr<gpbandit::Kernel> kernel =
      in.matern ? gpbandit::MakeMatern52({0}, true, 1.0, lengthscale)
                : gpbandit::MakeSquaredExponential({0}, true, 1.0, lengthscale);
  gpbandit::Optimizer opt(gpbandit::Domain::FiniteSet(in.points), std::move(kernel),
                          std::move(strategy), o);
  std::map<double, int> index;
  for (Eigen::Index i = 0; i < in.points.cols(); ++i) index[in.points(0, i)] = static_cast<int>(i);
  gpbandit::FiniteBanditRun run;
  run.regret.resize(settings.horizon);
  const double best = in.f.maxCoeff();
  std::normal_distribution<double> noise(0.0, 1.0);
  const double noise_sd = std::sqrt(in.noise_variance);
  for (int t = 0; t < settings.horizon; ++t) {
    const double start = ThreadCpuSeconds();
    const Eigen::VectorXd x = opt.Ask();
    const int chosen = index.at(x(0));
    opt.Tell(x, in.f(chosen) + noise_sd * noise(rng));
    round_seconds->push_back(ThreadCpuSeconds() - start);
    run.played.push_back(chosen);
    run.regret(t) = best - in.f(chosen);
  }
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = ParseArgs(argc, argv);
  const std::vector<Setting> setups = {{"SE", false, true},
                                       {"Matern-5/2", true, true},
                                       {"SE", false, false},
                                       {"Matern-5/2", true, false}};
  const std::vector<Entry> strategies = {
      {"GP-UCB", "gp-ucb"}, {"IGP-UCB", "igp-ucb"}, {"GP-TS", "gp-ts"}, {"EI", "ei"}, {"PI", "pi"}};
  const int num_strategies = static_cast<int>(strategies.size());
  std::vector<int> checkpoints;
  for (int c : {100, 1000, 10000})
    if (c < settings.horizon) checkpoints.push_back(c);
  checkpoints.push_back(settings.horizon);

  std::printf(
      "Chowdhury & Gopalan 2017, Figs. 1-2: %d uniform points in [0,1], l = %.1f, R^2 = 1%% "
      "of range, lambda = R^2, delta = %.1f, gamma_t = kernel bound, T = %d, %d trials "
      "(seed %llu), through %s\n",
      settings.points, settings.lengthscale, settings.delta, settings.horizon, settings.trials,
      static_cast<unsigned long long>(settings.seed),
      settings.through_optimizer ? "the Optimizer" : "FiniteSetPosterior");
  for (const Setting& setup : setups) {
    std::vector<std::vector<std::vector<double>>> regret(
        num_strategies,
        std::vector<std::vector<double>>(checkpoints.size(), std::vector<double>(settings.trials)));
    std::vector<double> seconds(num_strategies, 0.0);
    std::vector<std::vector<double>> round_cost(num_strategies,
                                                std::vector<double>(kCostAt.size(), 0.0));
    std::vector<double> norms(settings.trials);
#pragma omp parallel for schedule(dynamic)
    for (int trial = 0; trial < settings.trials; ++trial) {
      Rng f_rng = gpbandit::bench::TrialRng(settings.seed, trial, kInstance,
                                            (setup.matern ? 1 : 0) + (setup.rkhs ? 0 : 2));
      const Instance in = MakeInstance(setup, settings, f_rng);
      norms[trial] = in.rkhs_norm;
      gpbandit::FiniteBanditProblem problem;
      problem.rewards = in.f;
      problem.noise_sd = std::sqrt(in.noise_variance);
      // One set of options; each strategy takes the keys it has.
      const gpbandit::StrategyParams options =
          gpbandit::StrategyParams()
              .WithText("beta_schedule", "rkhs")
              .With("delta", settings.delta)
              .With("rkhs_bound", in.rkhs_norm)
              .With("noise_bound", std::sqrt(in.noise_variance))
              .WithText("gamma_source", setup.matern ? "matern-bound" : "se-bound")
              .With("gamma_nu", 2.5)
              .With("gamma_dim", 1);
      const gpbandit::StrategyRegistry& registry = gpbandit::StrategyRegistry::Default();
      for (int s = 0; s < num_strategies; ++s) {
        auto strategy = registry.Create(
            strategies[s].name, options.Intersection(registry.DefaultOptions(strategies[s].name)));
        Rng run_rng = gpbandit::bench::TrialRng(settings.seed, trial, kRun, s);
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<double> round_seconds;
        gpbandit::FiniteBanditRun run;
        if (settings.through_optimizer) {
          run = RunThroughOptimizer(std::move(strategy), in, settings,
                                    settings.seed * 1000003 + static_cast<std::uint64_t>(trial),
                                    run_rng, &round_seconds);
        } else {
          gpbandit::FiniteSetPosterior posterior(*in.kernel, in.points, in.noise_variance);
          run = gpbandit::RunFiniteBandit(*strategy, posterior, problem, settings.horizon, run_rng);
        }
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const std::vector<double> costs = CostAtCheckpoints(round_seconds);
#pragma omp critical
        {
          seconds[s] += elapsed;
          for (std::size_t c = 0; c < costs.size(); ++c)
            round_cost[s][c] += costs[c] / settings.trials;
        }
        for (size_t c = 0; c < checkpoints.size(); ++c)
          regret[s][c][trial] = run.regret.head(checkpoints[c]).sum();
      }
    }
    double mean_norm = 0.0;
    for (double b : norms) mean_norm += b / settings.trials;
    std::printf("\n[%s kernel, f = %s]  mean B = %.3f\n", setup.kernel_name,
                setup.rkhs ? "RKHS function (posterior mean of a GP draw)" : "GP sample",
                mean_norm);
    std::printf("Cumulative regret R_T: mean (std)\n%-10s", "strategy");
    for (int T : checkpoints) std::printf("  T=%-17d", T);
    std::printf(" s/run\n");
    for (int s = 0; s < num_strategies; ++s) {
      std::printf("%-10s", strategies[s].label);
      for (size_t c = 0; c < checkpoints.size(); ++c) {
        const auto& v = regret[s][c];
        double mean = 0.0, var = 0.0;
        for (double x : v) mean += x;
        mean /= v.size();
        for (double x : v) var += (x - mean) * (x - mean);
        const double sd = v.size() > 1 ? std::sqrt(var / (v.size() - 1)) : 0.0;
        char cell[64];
        std::snprintf(cell, sizeof(cell), "%.2f (%.2f)", mean, sd);
        std::printf("  %-19s", cell);
      }
      std::printf(" %.2f\n", seconds[s] / settings.trials);
    }
    if (!settings.through_optimizer) continue;
    std::printf(
        "CPU time of one round (Ask + Tell), median of the 100 rounds up to t, in us\n%-10s",
        "strategy");
    for (int t : kCostAt) std::printf("  t=%-8d", t);
    std::printf("\n");
    for (int s = 0; s < num_strategies; ++s) {
      std::printf("%-10s", strategies[s].label);
      for (double cost : round_cost[s]) std::printf("  %-10.1f", 1e6 * cost);
      std::printf("\n");
    }
  }
  std::printf("\nthreads: %d\n", omp_get_max_threads());
  return 0;
}
