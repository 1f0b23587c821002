#include "optimizer/ask_round.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "tests/optimizer/replica_test_util.h"
#include "tests/optimizer/unit_journal_client.h"
#include "tests/test_domains.h"

namespace gpbandit {
namespace {

using internal::AskRound;

using testing::UnitSquare;
const Eigen::VectorXd kNoZ;

struct Fixture {
  explicit Fixture(int design_size)
      : replica(testing::MakeReplica(UnitSquare(), "gp-ucb", {}, Options(design_size))),
        client(replica.get()),
        journal(&client),
        asks(replica.get(), &journal) {}
  static OptimizerOptions Options(int design_size) {
    OptimizerOptions o = testing::CheapOptions();
    o.initial_design_size = design_size;
    return o;
  }
  std::unique_ptr<internal::StudyReplica> replica;
  testing::UnitJournalClient client;
  StudyJournal journal;
  AskRound asks;
};

bool Inside(const Eigen::MatrixXd& X) {
  return X.rows() == 2 && (X.array() >= 0.0).all() && (X.array() <= 1.0).all();
}

TEST(AskRound, DesignPointsFirstEachRecordedAsPending) {
  Fixture f(/*design_size=*/3);
  EXPECT_EQ(f.asks.last_round_report().round, -1);
  std::vector<long> trials;
  const Eigen::MatrixXd X = f.asks.Ask(2, kNoZ, &trials);
  ASSERT_EQ(X.cols(), 2);
  EXPECT_TRUE(Inside(X));
  EXPECT_EQ(trials, (std::vector<long>{0, 1}));
  ASSERT_EQ(f.replica->pending.size(), 2u);
  EXPECT_EQ(f.replica->pending.points()[1].x, Eigen::VectorXd(X.col(1)));
  EXPECT_EQ(f.replica->rounds, 1);
  EXPECT_EQ(f.replica->design->handed_out(), 2);
  EXPECT_EQ(f.asks.last_round_report().round, 0);
  EXPECT_EQ(f.asks.last_round_report().num_design_points, 2);
}

TEST(AskRound, ModelSlotsOnceTheDesignIsHandedOut) {
  Fixture f(/*design_size=*/2);
  f.asks.Ask(2, kNoZ);
  for (const PendingPoint& p : std::vector<PendingPoint>(f.replica->pending.points()))
    testing::AddObservation(f.replica.get(), p.x, 1.0 - (p.x - Eigen::Vector2d(0.3, 0.6)).norm());
  f.replica->pending.Clear();
  const Eigen::MatrixXd X = f.asks.Ask(1, kNoZ);
  EXPECT_TRUE(Inside(X));
  const RoundReport& report = f.asks.last_round_report();
  EXPECT_EQ(report.round, 1);
  EXPECT_EQ(report.num_design_points, 0);
  EXPECT_EQ(report.t, 3);  // two rows in the model: the third observation's round
  EXPECT_EQ(report.figure_name, f.asks.figure_name());
  EXPECT_FALSE(report.chosen_under_lock);  // no storage, no lock
}

TEST(AskRound, BadAsksAreRefusedAndChangeNothing) {
  Fixture f(/*design_size=*/3);
  EXPECT_THROW(f.asks.Ask(0, kNoZ), std::invalid_argument);
  EXPECT_THROW(f.asks.Ask(1, Eigen::VectorXd::Ones(1)), std::invalid_argument);  // no contexts
  EXPECT_EQ(f.replica->pending.size(), 0u);
  EXPECT_EQ(f.replica->rounds, 0);
  EXPECT_EQ(f.asks.last_round_report().round, -1);
}

}  // namespace
}  // namespace gpbandit
