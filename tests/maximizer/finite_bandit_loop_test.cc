#include "gpbandit/maximizer/finite_bandit_loop.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/mean_only.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

TEST(FiniteBanditLoopTest, GpUcbConvergesToTheBestArmNoiseFree) {
  Rng rng(testing::TestSeed(51));
  auto kernel = MakeSquaredExponential(FirstDims(1), true, 1.0, 0.2);
  const Eigen::MatrixXd candidates = Eigen::RowVectorXd::LinSpaced(30, 0.0, 1.0);
  FiniteSetPosterior posterior(*kernel, candidates, 1e-4);
  FiniteBanditProblem problem;
  problem.rewards.resize(30, 1);
  for (int i = 0; i < 30; ++i) problem.rewards(i, 0) = std::sin(6.0 * candidates(0, i));
  GpUcbOptions options;
  options.beta.scale = 0.2;
  GpUcb ucb(options);
  const FiniteBanditRun run = RunFiniteBandit(ucb, posterior, problem, 60, rng);
  ASSERT_EQ(run.regret.size(), 60);
  EXPECT_GE(run.regret.minCoeff(), 0.0);
  // No regret: the last rounds play at or next to the best arm (sin(6x) peaks at x = pi/12,
  // between grid points 7 and 8, whose rewards differ by 0.004), far better than the first.
  EXPECT_LT(run.regret.tail(10).sum(), 0.05);
  EXPECT_GT(run.regret.head(10).sum(), 1.0);
  EXPECT_EQ(posterior.num_observations(), 60);
}

TEST(FiniteBanditLoopTest, ContextRestrictsTheChoiceAndRegretIsContextual) {
  Rng rng(1);
  // Four joint candidates: (a0, z0), (a1, z0), (a0, z1), (a1, z1).
  auto kernel = MakeSquaredExponential(FirstDims(1), true, 1.0, 0.1);
  Eigen::MatrixXd candidates(1, 4);
  candidates << 0.0, 1.0, 2.0, 3.0;
  FiniteSetPosterior posterior(*kernel, candidates, 0.01);
  FiniteBanditProblem problem;
  problem.rewards = (Eigen::MatrixXd(4, 1) << 1.0, 0.0, 5.0, 4.0).finished();
  problem.candidate_context = {0, 0, 1, 1};
  problem.context_of_round = {0, 1, 0, 1, 0, 1};
  MeanOnly greedy;
  const FiniteBanditRun run = RunFiniteBandit(greedy, posterior, problem, 6, rng);
  for (int t = 0; t < 6; ++t) {
    const int g = problem.context_of_round[t];
    EXPECT_EQ(problem.candidate_context[run.played[t]], g) << t;
    const double best = g == 0 ? 1.0 : 5.0;
    EXPECT_DOUBLE_EQ(run.regret(t), best - problem.rewards(run.played[t], 0));
  }
}

TEST(FiniteBanditLoopTest, RejectsInconsistentProblems) {
  Rng rng(1);
  auto kernel = MakeSquaredExponential(FirstDims(1));
  FiniteSetPosterior posterior(*kernel, Eigen::MatrixXd::Zero(1, 3), 0.1);
  MeanOnly greedy;
  FiniteBanditProblem problem;
  problem.rewards = Eigen::MatrixXd::Zero(2, 1);
  EXPECT_THROW(RunFiniteBandit(greedy, posterior, problem, 5, rng), std::invalid_argument);
  problem.rewards = Eigen::MatrixXd::Zero(3, 1);
  EXPECT_THROW(RunFiniteBandit(greedy, posterior, problem, 0, rng), std::invalid_argument);
  problem.rewards = Eigen::MatrixXd::Zero(3, 2);
  problem.context_of_round = {0, 2};
  EXPECT_THROW(RunFiniteBandit(greedy, posterior, problem, 2, rng), std::invalid_argument);
  problem.context_of_round = {0, 1};  // fewer contexts than rounds
  EXPECT_THROW(RunFiniteBandit(greedy, posterior, problem, 3, rng), std::invalid_argument);
  EXPECT_EQ(posterior.num_observations(), 0);
}

}  // namespace
}  // namespace gpbandit
