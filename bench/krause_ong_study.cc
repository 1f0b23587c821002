// Regret study 3: a multi-task stand-in for Krause & Ong (NIPS 2011), CGP-UCB.
//
// 7 tasks (contexts) with the fixed inter-task covariance K_Z(i, j) = 0.5 + 0.5 * 0.7^|i - j|
// (every pair of tasks is related, neighbours more so); 100 actions on a grid of [0, 1] with
// k_S = SE (lengthscale 0.2); f ~ GP(0, k_S (x) K_Z) over the 700 (action, task) pairs; noise
// variance 0.025. The tasks arrive in sequence, 50 rounds each (T = 350); regret is contextual:
// r_t = max_s f(s, z_t) - f(s_t, z_t).
// Learners (all GP-UCB with the finite-D schedule scaled by 1/5, delta = 0.1, known prior):
//   CGP-UCB   one GP on (action, task) with the product kernel k_S (x) k_index(K_Z); plays the
//             best UCB among the pairs of the revealed task (the context held fixed).
//   separate  an independent GP-UCB per task over the 100 actions ("ignoring" the context: no
//             transfer between tasks; each restarts at t = 1).
//   merged    one GP-UCB over the 100 actions fed every observation, blind to the task.
// Reported per learner: the mean over tasks of the per-task cumulative regret and the worst
// task's, each as mean (std) over trials. O(N^2)-per-round FiniteSetPosterior throughout.
//
// Usage: krause_ong_study [--full] [--trials N] [--rounds R] [--seed S]
//   default: 20 trials (seconds); --full: 100 trials.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/maximizer/finite_bandit_loop.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "numerics/cholesky.h"
#include "study_args.h"

namespace {

using gpbandit::Rng;
constexpr gpbandit::bench::TrialStream kInstance = gpbandit::bench::TrialStream::kInstance;
constexpr gpbandit::bench::TrialStream kRun = gpbandit::bench::TrialStream::kRun;

constexpr int kTasks = 7;
constexpr int kActions = 100;

struct Settings {
  int trials = 20;
  int rounds_per_task = 50;
  double noise_variance = 0.025;
  std::uint64_t seed = 2011;
};

Settings ParseArgs(int argc, char** argv) {
  Settings s;
  const gpbandit::bench::StudyArgs args = gpbandit::bench::ParseStudyArgs(
      argc, argv, {s.trials, s.rounds_per_task, s.seed}, 100, "rounds");
  s.trials = args.trials;
  s.rounds_per_task = args.length;
  s.seed = args.seed;
  return s;
}

Eigen::MatrixXd TaskCovariance() {
  Eigen::MatrixXd K(kTasks, kTasks);
  for (int i = 0; i < kTasks; ++i)
    for (int j = 0; j < kTasks; ++j) K(i, j) = 0.5 + 0.5 * std::pow(0.7, std::abs(i - j));
  return K;
}

gpbandit::StrategyParams UcbOptions() {
  return gpbandit::StrategyParams(
      R"({"beta_schedule": "finite", "beta_scale": 0.2, "delta": 0.1})");
}

// Per-task cumulative regret (kTasks entries) from a run over the whole sequence.
std::vector<double> PerTask(const Eigen::VectorXd& regret, int rounds) {
  std::vector<double> per_task(kTasks, 0.0);
  for (int g = 0; g < kTasks; ++g) per_task[g] = regret.segment(g * rounds, rounds).sum();
  return per_task;
}

// What every trial shares: the kernels, the joint candidates and the task schedule.
struct Study {
  Settings settings;
  int rounds = 0, horizon = 0;
  Eigen::MatrixXd actions;  // 1 x kActions
  std::unique_ptr<gpbandit::Kernel> action_kernel, joint_kernel;
  Eigen::MatrixXd joint;  // task-major: column g * kActions + a is (action a, task g)
  std::vector<int> candidate_task, schedule;
  gpbandit::JitteredCholesky chol_s, chol_z;  // of k_S over the actions, of K_Z
};

Study MakeStudy(const Settings& settings) {
  Study s;
  s.settings = settings;
  s.rounds = settings.rounds_per_task;
  s.horizon = kTasks * s.rounds;
  const Eigen::MatrixXd task_cov = TaskCovariance();
  s.actions = Eigen::RowVectorXd::LinSpaced(kActions, 0.0, 1.0);
  s.action_kernel = gpbandit::MakeSquaredExponential({0}, true, 1.0, 0.2);
  std::vector<std::unique_ptr<gpbandit::Kernel>> parts;
  parts.push_back(gpbandit::MakeSquaredExponential({0}, true, 1.0, 0.2));
  parts.push_back(gpbandit::MakeIndexKernel(1, task_cov));
  s.joint_kernel = gpbandit::MakeProduct(std::move(parts));
  s.joint.resize(2, kActions * kTasks);
  s.candidate_task.resize(kActions * kTasks);
  for (int g = 0; g < kTasks; ++g)
    for (int a = 0; a < kActions; ++a) {
      s.joint(0, g * kActions + a) = s.actions(0, a);
      s.joint(1, g * kActions + a) = g;
      s.candidate_task[g * kActions + a] = g;
    }
  s.schedule.resize(s.horizon);
  for (int t = 0; t < s.horizon; ++t) s.schedule[t] = t / s.rounds;
  s.chol_s = gpbandit::FactorizeWithJitter(s.action_kernel->Gram(s.actions));
  s.chol_z = gpbandit::FactorizeWithJitter(task_cov);
  return s;
}

// CGP-UCB over the joint candidates: per-task regret.
std::vector<double> RunCgpUcb(const Study& s, const Eigen::MatrixXd& F, int trial) {
  gpbandit::FiniteBanditProblem problem;
  problem.rewards.resize(kActions * kTasks, 1);
  for (int g = 0; g < kTasks; ++g)
    problem.rewards.col(0).segment(g * kActions, kActions) = F.col(g);
  problem.candidate_context = s.candidate_task;
  problem.context_of_round = s.schedule;
  problem.noise_sd = std::sqrt(s.settings.noise_variance);
  auto strategy = gpbandit::StrategyRegistry::Default().Create("cgp-ucb", UcbOptions());
  gpbandit::FiniteSetPosterior posterior(*s.joint_kernel, s.joint, s.settings.noise_variance);
  Rng rng = gpbandit::bench::TrialRng(s.settings.seed, trial, kRun, 0);
  return PerTask(gpbandit::RunFiniteBandit(*strategy, posterior, problem, s.horizon, rng).regret,
                 s.rounds);
}

// A separate GP-UCB per task: per-task regret.
std::vector<double> RunSeparate(const Study& s, const Eigen::MatrixXd& F, int trial) {
  std::vector<double> per_task(kTasks, 0.0);
  Rng rng = gpbandit::bench::TrialRng(s.settings.seed, trial, kRun, 1);
  for (int g = 0; g < kTasks; ++g) {
    gpbandit::FiniteBanditProblem problem;
    problem.rewards = F.col(g);
    problem.noise_sd = std::sqrt(s.settings.noise_variance);
    auto strategy = gpbandit::StrategyRegistry::Default().Create("gp-ucb", UcbOptions());
    gpbandit::FiniteSetPosterior posterior(*s.action_kernel, s.actions, s.settings.noise_variance);
    per_task[g] =
        gpbandit::RunFiniteBandit(*strategy, posterior, problem, s.rounds, rng).CumulativeRegret();
  }
  return per_task;
}

// One GP-UCB that does not see the task: per-task regret.
std::vector<double> RunMerged(const Study& s, const Eigen::MatrixXd& F, int trial) {
  gpbandit::FiniteBanditProblem problem;
  problem.rewards = F;
  problem.context_of_round = s.schedule;
  problem.noise_sd = std::sqrt(s.settings.noise_variance);
  auto strategy = gpbandit::StrategyRegistry::Default().Create("gp-ucb", UcbOptions());
  gpbandit::FiniteSetPosterior posterior(*s.action_kernel, s.actions, s.settings.noise_variance);
  Rng rng = gpbandit::bench::TrialRng(s.settings.seed, trial, kRun, 2);
  return PerTask(gpbandit::RunFiniteBandit(*strategy, posterior, problem, s.horizon, rng).regret,
                 s.rounds);
}

// Per learner: the trials' mean-over-tasks and worst-task regrets, and each task's sum.
struct Totals {
  std::vector<std::vector<double>> mean_task, worst_task, per_task_sum;
  explicit Totals(int trials)
      : mean_task(3, std::vector<double>(trials)),
        worst_task(3, std::vector<double>(trials)),
        per_task_sum(3, std::vector<double>(kTasks, 0.0)) {}
};

void RunTrial(const Study& s, int trial, Totals* totals) {
  Rng f_rng = gpbandit::bench::TrialRng(s.settings.seed, trial, kInstance);
  // f = L_S Z L_Z^T has covariance K_Z (x) K_S over (action, task).
  const Eigen::MatrixXd F = s.chol_s.lower *
                            gpbandit::StandardNormalMatrix(kActions, kTasks, f_rng) *
                            s.chol_z.lower.transpose();
  const std::vector<double> per_task[3] = {RunCgpUcb(s, F, trial), RunSeparate(s, F, trial),
                                           RunMerged(s, F, trial)};
  for (int m = 0; m < 3; ++m) {
    double sum = 0.0, worst = 0.0;
    for (double r : per_task[m]) {
      sum += r;
      worst = std::max(worst, r);
    }
    totals->mean_task[m][trial] = sum / kTasks;
    totals->worst_task[m][trial] = worst;
#pragma omp critical
    for (int g = 0; g < kTasks; ++g) totals->per_task_sum[m][g] += per_task[m][g];
  }
}

void MeanAndSd(const std::vector<double>& v, double* mean, double* sd) {
  *mean = 0.0;
  for (double x : v) *mean += x / v.size();
  double var = 0.0;
  for (double x : v) var += (x - *mean) * (x - *mean);
  *sd = v.size() > 1 ? std::sqrt(var / (v.size() - 1)) : 0.0;
}

void PrintTable(const Settings& settings, const Totals& totals, double wall) {
  const char* labels[3] = {"CGP-UCB (k_S x K_Z)", "separate GP-UCB/task", "merged GP-UCB (no z)"};
  std::printf(
      "Krause & Ong 2011 multi-task stand-in: %d tasks in sequence, %d rounds each, %d "
      "actions, K_Z(i,j) = 0.5 + 0.5*0.7^|i-j|, SE l=0.2, noise var %.3f, beta/5, %d "
      "trials (seed %llu)\n",
      kTasks, settings.rounds_per_task, kActions, settings.noise_variance, settings.trials,
      static_cast<unsigned long long>(settings.seed));
  std::printf("Per-task cumulative (contextual) regret over %d rounds: mean (std) over trials\n",
              settings.rounds_per_task);
  std::printf("%-22s  %-18s  %-18s  per-task mean, task 1..%d\n", "learner", "average task",
              "worst task", kTasks);
  for (int m = 0; m < 3; ++m) {
    double am, as, wm, ws;
    MeanAndSd(totals.mean_task[m], &am, &as);
    MeanAndSd(totals.worst_task[m], &wm, &ws);
    char a[32], w[32];
    std::snprintf(a, sizeof(a), "%.2f (%.2f)", am, as);
    std::snprintf(w, sizeof(w), "%.2f (%.2f)", wm, ws);
    std::printf("%-22s  %-18s  %-18s ", labels[m], a, w);
    for (int g = 0; g < kTasks; ++g)
      std::printf(" %.2f", totals.per_task_sum[m][g] / settings.trials);
    std::printf("\n");
  }
  std::printf("wall time %.1f s with %d threads\n", wall, omp_get_max_threads());
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = ParseArgs(argc, argv);
  const Study study = MakeStudy(settings);
  if (!study.chol_s.ok || !study.chol_z.ok) {
    std::fprintf(stderr, "cannot factorize the prior covariances\n");
    return 1;
  }
  Totals totals(settings.trials);
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic)
  for (int trial = 0; trial < settings.trials; ++trial) RunTrial(study, trial, &totals);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PrintTable(settings, totals, wall);
  return 0;
}
