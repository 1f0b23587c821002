#include "optimizer/tell_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/replica_test_util.h"
#include "tests/optimizer/unit_journal_client.h"
#include "tests/test_domains.h"

namespace gpbandit {
namespace {

using internal::TellStep;

using testing::UnitSquare;
const Eigen::VectorXd kNoZ;

// A replica and a journal without storage, and the step over them.
struct TellFixture {
  explicit TellFixture(const OptimizerOptions& options = testing::CheapOptions())
      : replica(testing::MakeReplica(UnitSquare(), "gp-ucb", {}, options)),
        client(replica.get()),
        journal(&client),
        step(replica.get(), &journal) {}
  std::unique_ptr<internal::StudyReplica> replica;
  testing::UnitJournalClient client;
  StudyJournal journal;
  TellStep step;
};

TEST(TellStep, TellAddsTheObservationAndReleasesItsPendingPoint) {
  TellFixture f;
  f.replica->pending.Add({Eigen::Vector2d(0.5, 0.5), kNoZ, 4, "w", 1e300, 0});
  f.step.Tell(Eigen::Vector2d(0.5, 0.5), kNoZ, 2.0, Eigen::VectorXd());
  ASSERT_EQ(f.replica->observations.size(), 1u);
  EXPECT_EQ(f.replica->observations[0].y, 2.0);
  EXPECT_EQ(f.replica->observations[0].round, 4);  // the pending point's round
  EXPECT_EQ(f.replica->model->counts().rows(), 1);
  EXPECT_EQ(f.replica->pending.size(), 0u);
}

TEST(TellStep, BadTellsAreRefusedAndChangeNothing) {
  TellFixture f;
  EXPECT_THROW(f.step.Tell(Eigen::Vector2d(1.5, 0.5), kNoZ, 2.0, Eigen::VectorXd()),
               std::invalid_argument);
  EXPECT_THROW(f.step.Tell(Eigen::Vector2d(0.5, 0.5), kNoZ, std::nan(""), Eigen::VectorXd()),
               std::invalid_argument);  // non_finite_rewards "throw"
  EXPECT_THROW(f.step.Tell(Eigen::Vector2d(0.5, 0.5), kNoZ, 1.0, Eigen::VectorXd::Ones(1)),
               std::invalid_argument);  // gp-ucb models no constraint signal
  try {
    f.step.Tell(Eigen::Vector2d(0.5, 0.5), kNoZ, 1.0, Eigen::VectorXd(), /*trial=*/3);
    FAIL() << "a tell of a trial never handed out was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("trial 3 is not pending"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(f.replica->observations.empty());
  EXPECT_EQ(f.replica->model->counts().rows(), 0);
}

TEST(TellStep, TellManyChecksEveryColumnFirst) {
  TellFixture f;
  Eigen::MatrixXd X(2, 3);
  X << 0.1, 0.5, 0.9, 0.2, 0.5, 2.0;  // the third column is outside the box
  EXPECT_THROW(f.step.TellMany(X, Eigen::MatrixXd(), Eigen::Vector3d(1, 2, 3)),
               std::invalid_argument);
  EXPECT_TRUE(f.replica->observations.empty());
  X(1, 2) = 0.8;
  EXPECT_THROW(f.step.TellMany(X, Eigen::MatrixXd(), Eigen::Vector2d(1, 2)), std::invalid_argument);
  f.step.TellMany(X, Eigen::MatrixXd(), Eigen::Vector3d(1, 2, 3));
  ASSERT_EQ(f.replica->observations.size(), 3u);
  EXPECT_EQ(f.replica->observations[2].y, 3.0);
  EXPECT_EQ(f.replica->model->counts().rows(), 3);
}

TEST(TellStep, ReleasesAndClearsPendingPoints) {
  TellFixture f;
  f.replica->pending.Add({Eigen::Vector2d(0.1, 0.1), kNoZ, 0, "w", 1e300, 0});
  f.replica->pending.Add({Eigen::Vector2d(0.2, 0.2), kNoZ, 0, "w", 1e300, 1});
  f.replica->pending.Add({Eigen::Vector2d(0.3, 0.3), kNoZ, 0, "w", 1e300, 2});
  EXPECT_TRUE(f.step.ReleaseTrial(1));
  EXPECT_FALSE(f.step.ReleaseTrial(1));
  EXPECT_TRUE(f.step.Release(Eigen::Vector2d(0.1, 0.1), kNoZ));
  EXPECT_FALSE(f.step.Release(Eigen::Vector2d(0.4, 0.4), kNoZ));
  ASSERT_EQ(f.replica->pending.size(), 1u);
  EXPECT_EQ(f.replica->pending.points()[0].trial, 2);
  f.step.ClearPending();
  EXPECT_EQ(f.replica->pending.size(), 0u);
  EXPECT_THROW(f.step.CreateStudy(), std::logic_error);  // no storage
}

TEST(TellStep, ReplayAppliesATellRecordAndChecksItsImputedReward) {
  OptimizerOptions options = testing::CheapOptions();
  options.non_finite_rewards = NonFiniteRewardPolicy::kImputeWorst;
  TellFixture f(options);
  f.step.Replay(ParseLogRecord(FormatTellRecord(Eigen::Vector2d(0.5, 0.5), kNoZ, 2.0, true)));
  ASSERT_EQ(f.replica->observations.size(), 1u);
  EXPECT_EQ(f.replica->observations[0].y, 2.0);
  // A failure imputes the worst accepted reward, 2; a record that says otherwise is refused.
  EXPECT_THROW(f.step.Replay(ParseLogRecord(
                   FormatTellRecord(Eigen::Vector2d(0.1, 0.5), kNoZ, std::nan(""), false, 7.0))),
               std::runtime_error);
  f.step.Replay(
      ParseLogRecord(FormatTellRecord(Eigen::Vector2d(0.2, 0.5), kNoZ, std::nan(""), false, 2.0)));
  EXPECT_EQ(f.replica->observations.back().imputed, 2.0);
}

}  // namespace
}  // namespace gpbandit
