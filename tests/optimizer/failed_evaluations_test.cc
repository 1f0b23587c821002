// Failed evaluations (docs/design.md, "Faults": failed evaluations): under
// NonFiniteRewardPolicy::kImputeWorst a failure teaches the model to avoid its neighbourhood,
// is logged with its imputed reward and replayed exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <string>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/observation_log.h"
#include "numerics/math.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kNaN;
constexpr int kRounds = 40;

// A box [0, 1]^2 where the objective fails on a fifth of the volume, next to its best point:
// the failing region is where the smooth objective would be highest, so a model that learns
// nothing from failures keeps going back.
struct FailingBox {
  std::string name;
  std::function<bool(const Eigen::VectorXd&)> fails;
  std::function<double(const Eigen::VectorXd&)> reward;
};

FailingBox Strip() {
  return {
      "strip x1 > 0.8", [](const Eigen::VectorXd& x) { return x(0) > 0.8; },
      [](const Eigen::VectorXd& x) { return -std::pow(x(0) - 0.9, 2) - std::pow(x(1) - 0.5, 2); }};
}

FailingBox Disc() {
  const double radius_squared = 0.2 / kPi;
  return {"disc around (0.6, 0.4)",
          [radius_squared](const Eigen::VectorXd& x) {
            return std::pow(x(0) - 0.6, 2) + std::pow(x(1) - 0.4, 2) < radius_squared;
          },
          [](const Eigen::VectorXd& x) {
            return -std::pow(x(0) - 0.55, 2) - std::pow(x(1) - 0.45, 2);
          }};
}

OptimizerOptions FailureOptions(NonFiniteRewardPolicy policy, std::uint64_t seed) {
  OptimizerOptions o;  // the defaults, as a user leaves them
  o.seed = seed;
  o.sync_log = false;
  o.num_threads = 1;
  o.non_finite_rewards = policy;
  return o;
}

// Suggestions (of kRounds, the initial design included) that fell inside the failing region.
int SuggestionsInside(const FailingBox& box, const std::string& strategy,
                      NonFiniteRewardPolicy policy, std::uint64_t seed) {
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, strategy,
                StrategyParams(), FailureOptions(policy, seed));
  int inside = 0;
  for (int round = 0; round < kRounds; ++round) {
    const Eigen::VectorXd x = opt.Ask();
    const bool failed = box.fails(x);
    inside += failed ? 1 : 0;
    opt.Tell(x, failed ? kNaN : box.reward(x));
  }
  return inside;
}

class FailingRegionTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FailingRegionTest, ImputedFailuresKeepSuggestionsOutOfTheFailingFifth) {
  const std::uint64_t seed = gpbandit::testing::TestSeed(3);
  for (const FailingBox& box : {Strip(), Disc()}) {
    for (std::uint64_t s = seed; s < seed + 2; ++s) {
      const int inside = SuggestionsInside(box, GetParam(), NonFiniteRewardPolicy::kImputeWorst, s);
      std::cout << "[ failures ] " << GetParam() << ", " << box.name << ", seed " << s << ": "
                << inside << " of " << kRounds << " suggestions inside\n";
      EXPECT_LE(inside, kRounds / 4) << box.name << ", seed " << s;
    }
  }
}

TEST_P(FailingRegionTest, SkippedFailuresTeachNothing) {
  // The contrast: dropped failures leave the model free to ask there again and again.
  const std::uint64_t seed = gpbandit::testing::TestSeed(3);
  const int inside = SuggestionsInside(Strip(), GetParam(), NonFiniteRewardPolicy::kSkip, seed);
  std::cout << "[ failures ] " << GetParam() << ", skipped, seed " << seed << ": " << inside
            << " of " << kRounds << " suggestions inside\n";
  EXPECT_GT(inside, kRounds / 2);
}

INSTANTIATE_TEST_SUITE_P(Strategies, FailingRegionTest, ::testing::Values("gp-ucb", "ei"));

using testing::UnitSquare;

TEST(FailedEvaluationsTest, ImputedRewardIsTheWorstSoFarLoggedAndReplayedExactly) {
  const std::string path = gpbandit::testing::TempLogPath("impute_worst");
  const std::string copy = gpbandit::testing::TempLogPath("impute_worst_copy");
  OptimizerOptions o = FailureOptions(NonFiniteRewardPolicy::kImputeWorst, 5);
  o.log_path = path;
  const FailingBox box = Strip();
  std::string fingerprint;
  Eigen::VectorXd next;
  double imputed = kNaN;
  {
    Optimizer opt(UnitSquare(), nullptr, "ei", StrategyParams(), o);
    for (int round = 0; round < 12; ++round) {
      const Eigen::VectorXd x = opt.Ask();
      opt.Tell(x, box.fails(x) ? kNaN : box.reward(x));
    }
    // A failure told now is imputed the lowest accepted reward.
    double worst = HUGE_VAL;
    for (const Observation& ob : opt.observations())
      if (ob.accepted) worst = std::min(worst, ob.y);
    const int rows = opt.model().num_observations();
    opt.Tell(Eigen::Vector2d(0.95, 0.5), kNaN);
    imputed = opt.observations().back().imputed;
    EXPECT_EQ(imputed, worst);
    EXPECT_EQ(opt.model().num_observations(), rows + 1);
    EXPECT_EQ(opt.t(), rows + 2);
    EXPECT_EQ(opt.model().outputs()(rows), worst);
    // A failure is never recommended.
    EXPECT_LE(opt.Best().x(0), 0.8);
    fingerprint = opt.Fingerprint();
    std::ofstream(copy, std::ios::binary) << gpbandit::testing::ReadFile(path);
    next = opt.Ask();
  }
  // Every failed tell record carries its imputed reward; the last is the one told above.
  const LogContents log = ReadLog(copy);
  const LogRecord* last_failure = nullptr;
  for (const LogRecord& r : log.records) {
    if (r.type != LogRecordType::kTell || r.accepted) continue;
    last_failure = &r;
    EXPECT_TRUE(std::isfinite(r.imputed));
  }
  ASSERT_NE(last_failure, nullptr);
  EXPECT_EQ(last_failure->imputed, imputed);
  // Replayed: the same state, the same next suggestion.
  std::unique_ptr<Optimizer> resumed = Optimizer::Resume(copy);
  EXPECT_EQ(resumed->Fingerprint(), fingerprint);
  EXPECT_EQ(resumed->Ask(), next);
  std::remove(path.c_str());
  std::remove(copy.c_str());
}

TEST(FailedEvaluationsTest, FailureBeforeAnyAcceptedRewardIsSkipped) {
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(),
                FailureOptions(NonFiniteRewardPolicy::kImputeWorst, 1));
  opt.Tell(Eigen::Vector2d(0.5, 0.5), kNaN);
  EXPECT_EQ(opt.num_failed(), 1);
  EXPECT_EQ(opt.model().num_observations(), 0);
  EXPECT_TRUE(std::isnan(opt.observations().back().imputed));
  opt.Tell(Eigen::Vector2d(0.2, 0.5), -3.0);
  opt.Tell(Eigen::Vector2d(0.7, 0.5), kNaN);
  EXPECT_EQ(opt.observations().back().imputed, -3.0);
  EXPECT_EQ(opt.model().num_observations(), 2);
  EXPECT_EQ(opt.Best().observed_reward, -3.0);
}

}  // namespace
}  // namespace gpbandit
