#include "gpbandit/acquisition/cgp_ucb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/maximizer/box_maximizer.h"
#include "gpbandit/maximizer/finite_argmax.h"
#include "tests/acquisition/fake_posterior.h"
#include "tests/acquisition/options_json_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::FakePosterior;
using testing::MakeRound;

TEST(CgpUcbTest, PicksWithinTheRevealedContextOnly) {
  // Candidates are (action, context) pairs: 0,1 carry context A; 2,3 carry context B. The
  // overall best UCB is in context B, but context A is revealed, so only 0 and 1 may be played.
  FakePosterior posterior((Eigen::VectorXd(4) << 0.2, 0.5, 3.0, 2.0).finished(),
                          (Eigen::VectorXd(4) << 1.0, 0.01, 1.0, 1.0).finished());
  Eigen::Array<bool, Eigen::Dynamic, 1> context_a(4);
  context_a << true, true, false, false;
  GpUcbOptions options;
  options.beta.kind = BetaScheduleKind::kConstant;
  options.beta.constant_beta = 4.0;
  CgpUcb cgp(options);
  EXPECT_EQ(cgp.name(), "cgp-ucb");
  cgp.BeginRound(MakeRound(1, 4));
  Rng rng(1);
  const Eigen::VectorXd scores = cgp.ScoreCandidates(posterior, rng);
  // UCB 0.2 + 2 * 1 = 2.2 beats 0.5 + 2 * 0.1 = 0.7 within context A.
  EXPECT_EQ(FiniteArgmaxMasked(scores, context_a), 0);
  EXPECT_EQ(FiniteArgmax(scores), 2);
  EXPECT_EQ(cgp.Clone()->name(), "cgp-ucb");
}

TEST(CgpUcbTest, BetaUsesActionDimensionOnly) {
  GpUcbOptions options;
  options.beta.kind = BetaScheduleKind::kCompact;
  CgpUcb cgp(options);
  RoundState state = MakeRound(2, 0);
  state.action_dim = 2;
  cgp.BeginRound(state);
  EXPECT_NEAR(cgp.figure(), 22.418537040838768, 1e-10);  // d = 2 (see beta_schedule_test)
}

}  // namespace
}  // namespace gpbandit

namespace gpbandit {
namespace {

using testing::MakeRound;

// On a continuous domain the context is held fixed by the box (lower == upper on its
// coordinate): only the action moves, and the result is the best action for that context.
TEST(CgpUcbTest, ContinuousMaximizationHoldsTheContextFixed) {
  Eigen::MatrixXd task_cov(3, 3);
  task_cov << 1.0, 0.6, 0.2, 0.6, 1.0, 0.6, 0.2, 0.6, 1.0;
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0}, true, 1.0, 0.2));
  parts.push_back(MakeIndexKernel(1, task_cov));
  GaussianProcess gp(MakeProduct(std::move(parts)), 2);
  Rng rng(testing::TestSeed(61));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 15; ++i) {
    const double x = u(rng);
    const int z = i % 3;
    gp.AddObservation(Eigen::Vector2d(x, z), std::sin(5.0 * x + z));
  }
  GpUcbOptions options;
  options.beta.kind = BetaScheduleKind::kConstant;
  options.beta.constant_beta = 1.0;
  CgpUcb cgp(options);
  RoundState state = MakeRound(16, 0);
  cgp.BeginRound(state);
  const auto acquisition = cgp.MakeContinuous(gp, rng);
  const Eigen::Vector2d lower(0.0, 2.0), upper(1.0, 2.0);
  BoxMaximizerOptions box;
  box.num_raw_samples = 64;
  const BoxMaximizerResult result =
      MaximizeOverBox(*acquisition, lower, upper, Eigen::MatrixXd(2, 0), box, rng);
  EXPECT_EQ(result.x(1), 2.0);
  // No action on a fine grid (context 2) beats the maximizer's answer.
  double grid_best = -1e300;
  for (int k = 0; k <= 2000; ++k)
    grid_best =
        std::max(grid_best, acquisition->Evaluate(Eigen::Vector2d(k / 2000.0, 2.0), nullptr));
  EXPECT_GE(result.value, grid_best - 1e-9);
}

TEST(CgpUcbTest, OptionsSurviveJsonExactly) {
  GpUcbOptions o;
  o.beta.kind = BetaScheduleKind::kConstant;
  o.beta.constant_beta = testing::kThird;
  o.beta.scale = testing::kPointThree;
  o.gamma.source = GammaSource::kLinearBound;
  const CgpUcb ucb(o);
  const auto back = testing::RebuiltFromJson(ucb);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->name(), "cgp-ucb");
  EXPECT_EQ(back->options().beta.kind, BetaScheduleKind::kConstant);
  EXPECT_TRUE(testing::SameBits(back->options().beta.constant_beta, testing::kThird));
  EXPECT_TRUE(testing::SameBits(back->options().beta.scale, testing::kPointThree));
  EXPECT_EQ(back->options().gamma.source, GammaSource::kLinearBound);
  EXPECT_EQ(back->OptionsJson(), ucb.OptionsJson());
  EXPECT_EQ(ucb.OptionsJson(), GpUcb(o).OptionsJson());  // GP-UCB's keys
}

}  // namespace
}  // namespace gpbandit
