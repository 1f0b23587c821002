// docs/design.md, "Faults": "huge or tiny rewards (1e200, spreads of 1e-15), bounds whose width
// overflows": the Optimizer at any reward scale, and refused calls that leave the log as it
// was. (The model's own tests of this row: tests/gp/gaussian_process_test.cc, the domain's:
// tests/space/domain_test.cc, suite HugeOrTinyRewardsTest in both.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

// Branin's rewards (-308 .. -0.398) through `transform`, 25 rounds of `strategy` with the
// default options; the suggestions in order.
struct ScaledRun {
  std::vector<Eigen::VectorXd> suggestions;
  std::vector<double> rewards, units;
  Recommendation best;
  std::string fingerprint;
};

ScaledRun PlayScaled(const std::string& strategy, const std::function<double(double)>& transform,
                     int rounds = 25) {
  const problems::SyntheticFunction branin = problems::MakeBranin();
  OptimizerOptions o;
  o.seed = gpbandit::testing::TestSeed(4);
  o.sync_log = false;
  o.num_threads = 1;
  Optimizer opt(Domain::Box(branin.lower, branin.upper), nullptr, strategy, StrategyParams(), o);
  ScaledRun run;
  for (int round = 0; round < rounds; ++round) {
    const Eigen::VectorXd x = opt.Ask();
    const double y = transform(branin.reward(x));
    opt.Tell(x, y);
    run.suggestions.push_back(x);
    run.rewards.push_back(y);
    run.units.push_back(opt.reward_unit());
    EXPECT_TRUE(std::isfinite(opt.figure()) || round < 3) << "round " << round;
    EXPECT_TRUE(std::isfinite(opt.information_gain())) << "round " << round;
  }
  run.best = opt.Best();
  run.fingerprint = opt.Fingerprint();
  return run;
}

TEST(HugeOrTinyRewardsTest, RewardsScaledByHugeOrTinyPowersOfTwoGiveTheSameSuggestions) {
  // Rewards f 2^600 reach the model as f 2^88 (reward unit 2^512), exactly what rewards f 2^88
  // give it; f 2^-600 likewise as f 2^-88. So the runs agree bit for bit, where before the
  // variances (scale^2 ~ 2^1200) overflowed and every acquisition was infinite.
  for (const std::string strategy : {"gp-ucb", "ei"}) {
    for (const int k : {600, -600}) {
      const int kept = k > 0 ? 88 : -88;
      const ScaledRun extreme = PlayScaled(strategy, [k](double f) { return std::ldexp(f, k); });
      const ScaledRun moderate =
          PlayScaled(strategy, [kept](double f) { return std::ldexp(f, kept); });
      for (double unit : extreme.units) EXPECT_EQ(unit, std::ldexp(1.0, k - kept)) << strategy;
      for (double unit : moderate.units) EXPECT_EQ(unit, 1.0) << strategy;
      ASSERT_EQ(extreme.suggestions.size(), moderate.suggestions.size());
      for (std::size_t i = 0; i < extreme.suggestions.size(); ++i)
        ASSERT_EQ(extreme.suggestions[i], moderate.suggestions[i])
            << strategy << ", 2^" << k << ", round " << i;
      EXPECT_EQ(extreme.best.x, moderate.best.x);
      EXPECT_EQ(extreme.best.posterior_mean, std::ldexp(moderate.best.posterior_mean, k - kept));
    }
  }
}

TEST(HugeOrTinyRewardsTest, ExtremeMagnitudesAndTinyRelativeSpreadsStayUsable) {
  // Rewards near the largest double, near the smallest normal one, and with spreads of 1e-13
  // relative to their mean: every suggestion in the box, every figure finite, and Best() at
  // the best reward observed (for interpolated noise-free rewards its posterior mean is the
  // largest).
  const double big = std::numeric_limits<double>::max();
  const std::vector<std::pair<std::string, std::function<double(double)>>> scales = {
      {"1e300 f", [](double f) { return 1e300 * f; }},
      {"f / 310 * largest double", [big](double f) { return f / 310.0 * big; }},
      {"1e-300 f", [](double f) { return 1e-300 * f; }},
      {"1e5 + 1e-10 f", [](double f) { return 1e5 + 1e-10 * f; }},
      {"-1e300 (1 + 1e-13 f)", [](double f) { return -1e300 * (1.0 - 1e-13 * f); }},
  };
  for (const auto& [name, transform] : scales) {
    const ScaledRun run = PlayScaled("ei", transform, 20);
    double best_reward = -std::numeric_limits<double>::infinity();
    for (double y : run.rewards) best_reward = std::max(best_reward, y);
    EXPECT_EQ(run.best.observed_reward, best_reward) << name;
    EXPECT_TRUE(std::isfinite(run.best.posterior_mean)) << name;
    const problems::SyntheticFunction branin = problems::MakeBranin();
    for (const Eigen::VectorXd& x : run.suggestions) {
      ASSERT_TRUE(x.allFinite()) << name;
      EXPECT_TRUE((x.array() >= branin.lower.array()).all() &&
                  (x.array() <= branin.upper.array()).all())
          << name;
    }
  }
}

TEST(HugeOrTinyRewardsTest, HugeRewardsAreLoggedAndResumedExactly) {
  const std::string path = gpbandit::testing::TempLogPath("huge_rewards");
  const problems::SyntheticFunction branin = problems::MakeBranin();
  OptimizerOptions o = gpbandit::testing::CheapOptions(8);
  o.log_path = path;
  std::string fingerprint;
  {
    Optimizer opt(Domain::Box(branin.lower, branin.upper), nullptr, "gp-ucb", StrategyParams(), o);
    for (int round = 0; round < 12; ++round) {
      const Eigen::VectorXd x = opt.Ask();
      opt.Tell(x, 1e306 * (branin.reward(x) / 310.0));
    }
    fingerprint = opt.Fingerprint();
  }
  EXPECT_EQ(Optimizer::Resume(path)->Fingerprint(), fingerprint);
  std::remove(path.c_str());
}

// Every check runs before anything is written: a refused first call creates no log, so the
// corrected retry starts afresh (it used to find a header written by the refused call and be
// refused for not matching it); a refused later call leaves the file byte-identical.
TEST(HugeOrTinyRewardsTest, RefusedCallsLeaveTheLogByteIdentical) {
  const std::string path = gpbandit::testing::TempLogPath("refused_first");
  const Domain square = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1));
  OptimizerOptions o = gpbandit::testing::CheapOptions();
  o.log_path = path;
  auto exists = [&] { return std::fopen(path.c_str(), "r") != nullptr; };
  {
    Optimizer opt(square, nullptr, "gp-ucb", StrategyParams(), o);
    EXPECT_FALSE(exists());  // the header waits for the first record
    ExpectInvalid([&] { opt.Tell(Eigen::Vector2d(2, 0.5), 1.0); }, "x[0] = 2 is outside [0, 1]");
    ExpectInvalid([&] { opt.Tell(Eigen::Vector3d(0.5, 0.5, 0.5), 1.0); }, "x has size 3");
    ExpectInvalid([&] { opt.Tell(Eigen::Vector2d(0.5, 0.5), std::nan("")); }, "y is not finite");
    ExpectInvalid([&] { opt.AskBatch(0); }, "q must be >= 1");
    ExpectInvalid([&] { opt.Ask(Eigen::VectorXd::Ones(1)); }, "context has size 1");
    EXPECT_FALSE(exists());
  }
  // The widest refusal: the box itself, before any optimizer exists.
  ExpectInvalid([] { Domain::Box(Eigen::Vector2d(0, -1e308), Eigen::Vector2d(1, 1e308)); },
                "overflows");
  EXPECT_FALSE(exists());
  // The corrected retry, on another box, starts the log.
  {
    Optimizer opt(Domain::Box(Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(2, 2, 2)), nullptr,
                  "gp-ucb", StrategyParams(), o);
    opt.Tell(Eigen::Vector3d(1.5, 0.5, 0.5), 1.0);
    const std::string before = gpbandit::testing::ReadFile(path);
    EXPECT_NE(before.find("\"type\":\"header\""), std::string::npos);
    ExpectInvalid([&] { opt.Tell(Eigen::Vector3d(1.5, 0.5, 3), 1.0); }, "outside");
    ExpectInvalid(
        [&] {
          opt.TellMany(Eigen::Matrix<double, 3, 2>::Constant(0.5), Eigen::MatrixXd(),
                       Eigen::Vector2d(1.0, std::nan("")));
        },
        "y[1] is not finite");
    EXPECT_EQ(gpbandit::testing::ReadFile(path), before);
  }
  EXPECT_EQ(Optimizer::Resume(path)->num_accepted(), 1);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpbandit
