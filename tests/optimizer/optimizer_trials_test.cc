// Trial numbers: the handle Ask hands out with each point, which TellTrial and ReleaseTrial take
// instead of the exact point. Numbered alike by every worker of a study, logged, and replayed
// exactly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using ::testing::HasSubstr;
using testing::ReadFile;
using testing::TempLogPath;

using testing::UnitSquare;

OptimizerOptions LoggedOptions(const std::string& path) {
  OptimizerOptions o = CheapOptions(5);
  o.initial_design_size = 3;
  o.log_path = path;
  return o;
}

Eigen::VectorXd Rounded(const Eigen::VectorXd& x) { return (x * 100.0).array().round() / 100.0; }

TEST(OptimizerTrialsTest, AsksNumberTheirPointsInOrder) {
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), CheapOptions(5));
  long first = -1;
  opt.Ask(Eigen::VectorXd(), &first);
  std::vector<long> batch;
  opt.AskBatch(3, Eigen::VectorXd(), &batch);
  EXPECT_EQ(first, 0);
  EXPECT_EQ(batch, (std::vector<long>{1, 2, 3}));
  const std::vector<PendingPoint> pending = opt.pending_points();
  ASSERT_EQ(pending.size(), 4u);
  for (std::size_t j = 0; j < pending.size(); ++j) EXPECT_EQ(pending[j].trial, long(j));
}

// Telling a rounded x used to leave the suggested point pending (matched by exact value),
// steering later asks away from it for the whole lease.
TEST(OptimizerTrialsTest, TellingARoundedPointByTrialReleasesTheSuggestion) {
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), CheapOptions(5));
  const Eigen::VectorXd by_value = opt.Ask();
  opt.Tell(Rounded(by_value), 1.0);
  EXPECT_EQ(opt.pending_points().size(), 1u);  // matched by value: still pending
  long trial = -1;
  const Eigen::VectorXd x = opt.Ask(Eigen::VectorXd(), &trial);
  ASSERT_NE(Rounded(x), x);
  opt.TellTrial(trial, Rounded(x), Eigen::VectorXd(), 2.0);
  const std::vector<PendingPoint> pending = opt.pending_points();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].trial, 0);  // the by-value one, not the trial's
  const Observation told = opt.observations().back();
  EXPECT_EQ(told.x, Rounded(x));
  EXPECT_EQ(told.round, 1);  // the trial's round
}

TEST(OptimizerTrialsTest, ATrialThatIsNotPendingIsRefusedAndNothingChanges) {
  const std::string path = TempLogPath("trials_refused");
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), LoggedOptions(path));
  long trial = -1;
  const Eigen::VectorXd x = opt.Ask(Eigen::VectorXd(), &trial);
  opt.TellTrial(trial, x, Eigen::VectorXd(), 1.0);
  const std::string log = ReadFile(path);
  const std::string fingerprint = opt.Fingerprint();
  for (long bad : {trial, 7L, -1L}) {
    try {
      opt.TellTrial(bad, x, Eigen::VectorXd(), 1.0);
      ADD_FAILURE() << "told trial " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr("trial " + std::to_string(bad) + " is not pending"));
    }
    EXPECT_FALSE(opt.ReleaseTrial(bad));
  }
  EXPECT_EQ(ReadFile(path), log);
  EXPECT_EQ(opt.Fingerprint(), fingerprint);
  std::remove(path.c_str());
}

TEST(OptimizerTrialsTest, ReleaseTrialGivesBackThatPointOnly) {
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), CheapOptions(5));
  std::vector<long> trials;
  const Eigen::MatrixXd X = opt.AskBatch(2, Eigen::VectorXd(), &trials);
  EXPECT_TRUE(opt.ReleaseTrial(trials[0]));
  const std::vector<PendingPoint> pending = opt.pending_points();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].trial, trials[1]);
  EXPECT_EQ(pending[0].x, Eigen::VectorXd(X.col(1)));
}

// Two workers of one study number the points alike, so one may tell the other's trial; a
// resumed optimizer replays the trial tells and releases exactly.
TEST(OptimizerTrialsTest, WorkersNumberTrialsAlikeAndResumeReplaysThemExactly) {
  const std::string path = TempLogPath("trials_shared");
  Optimizer a(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), LoggedOptions(path));
  Optimizer b(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), LoggedOptions(path));
  long ta = -1, tb = -1;
  const Eigen::VectorXd xa = a.Ask(Eigen::VectorXd(), &ta);
  const Eigen::VectorXd xb = b.Ask(Eigen::VectorXd(), &tb);
  EXPECT_EQ(ta, 0);
  EXPECT_EQ(tb, 1);
  b.TellTrial(ta, Rounded(xa), Eigen::VectorXd(), -Rounded(xa).squaredNorm());
  a.TellTrial(tb, Rounded(xb), Eigen::VectorXd(), -Rounded(xb).squaredNorm());
  std::vector<long> more;
  a.AskBatch(2, Eigen::VectorXd(), &more);
  EXPECT_EQ(more, (std::vector<long>{2, 3}));
  a.ReleaseTrial(2);
  b.Sync();
  ASSERT_EQ(b.pending_points().size(), 1u);
  EXPECT_EQ(b.pending_points()[0].trial, 3);
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(path);
  EXPECT_EQ(resumed->Fingerprint(), a.Fingerprint());
  ASSERT_EQ(resumed->pending_points().size(), 1u);
  EXPECT_EQ(resumed->pending_points()[0].trial, 3);
  long next = -1;
  resumed->Ask(Eigen::VectorXd(), &next);
  EXPECT_EQ(next, 4);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpbandit
