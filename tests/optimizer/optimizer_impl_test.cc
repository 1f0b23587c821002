// The wiring behind an Optimizer (optimizer/optimizer_impl.h) as the study journal's client:
// each record kind replayed into the replica, the header it writes and the headers it accepts,
// and the reset before a study is replayed from its start.
#include "optimizer/optimizer_impl.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit {
namespace {

using internal::OptimizerImpl;

Domain Square() { return Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)); }
const Eigen::VectorXd kNoZ;

std::unique_ptr<OptimizerImpl> Make(const OptimizerOptions& options = testing::CheapOptions()) {
  return std::make_unique<OptimizerImpl>(
      Square(), StrategyRegistry::Default().Create("gp-ucb", {}), "gp-ucb",
      StrategyRegistry::Default().ResolveOptions("gp-ucb", {}), options, nullptr, nullptr);
}

LogRecord Pending(const Eigen::Vector2d& x, long round, long design_index, long trial) {
  return ParseLogRecord(FormatPendingRecord(round, design_index, x, kNoZ, "w", 1e300, trial));
}

TEST(OptimizerImpl, APendingRecordAddsThePointAndAdvancesTheRoundsAndTheDesign) {
  auto impl = Make();
  impl->Replay(Pending(Eigen::Vector2d(0.2, 0.3), /*round=*/4, /*design_index=*/1, /*trial=*/6));
  const internal::StudyReplica& r = impl->replica();
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending.points()[0].x, Eigen::Vector2d(0.2, 0.3));
  EXPECT_EQ(r.pending.points()[0].round, 4);
  EXPECT_EQ(r.pending.points()[0].trial, 6);
  EXPECT_EQ(r.pending.points()[0].worker, "w");
  EXPECT_EQ(r.rounds, 5);
  EXPECT_EQ(r.design->handed_out(), 2);
  // An earlier round and a model-driven point (design index -1) move neither back.
  impl->Replay(Pending(Eigen::Vector2d(0.4, 0.3), 1, -1, 7));
  EXPECT_EQ(r.rounds, 5);
  EXPECT_EQ(r.design->handed_out(), 2);
}

TEST(OptimizerImpl, APendingRecordOutsideTheDomainIsRefusedNamingIt) {
  auto impl = Make();
  try {
    impl->Replay(Pending(Eigen::Vector2d(0.2, 1.5), 0, -1, 0));
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("log pending x"));
  }
  EXPECT_EQ(impl->replica().pending.size(), 0u);
  EXPECT_EQ(impl->replica().rounds, 0);
}

TEST(OptimizerImpl, ReleaseAndClearRecordsRemovePendingPoints) {
  auto impl = Make();
  impl->Replay(Pending(Eigen::Vector2d(0.1, 0.1), 0, -1, 0));
  impl->Replay(Pending(Eigen::Vector2d(0.2, 0.2), 0, -1, 1));
  impl->Replay(Pending(Eigen::Vector2d(0.3, 0.3), 0, -1, 2));
  impl->Replay(
      ParseLogRecord(FormatReleaseRecord(Eigen::Vector2d(0.9, 0.9), kNoZ, 1)));  // by trial
  ASSERT_EQ(impl->replica().pending.size(), 2u);
  EXPECT_EQ(impl->replica().pending.IndexOfTrial(1), -1);
  impl->Replay(ParseLogRecord(FormatReleaseRecord(Eigen::Vector2d(0.3, 0.3), kNoZ)));  // by point
  ASSERT_EQ(impl->replica().pending.size(), 1u);
  EXPECT_EQ(impl->replica().pending.points()[0].trial, 0);
  impl->Replay(ParseLogRecord(FormatClearPendingRecord()));
  EXPECT_EQ(impl->replica().pending.size(), 0u);
}

TEST(OptimizerImpl, ATellRecordIsAnObservation) {
  auto impl = Make();
  impl->Replay(ParseLogRecord(FormatTellRecord(Eigen::Vector2d(0.5, 0.5), kNoZ, 2.5, true)));
  ASSERT_EQ(impl->replica().observations.size(), 1u);
  EXPECT_EQ(impl->replica().observations[0].y, 2.5);
  EXPECT_EQ(impl->replica().model->counts().rows(), 1);
}

TEST(OptimizerImpl, ASecondHeaderIsACorruptLog) {
  auto impl = Make();
  LogRecord header;
  header.type = LogRecordType::kHeader;
  try {
    impl->Replay(header);
    ADD_FAILURE() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "a second header record in the log");
  }
}

TEST(OptimizerImpl, ResetForgetsEveryRecordReplayed) {
  auto impl = Make();
  impl->Replay(Pending(Eigen::Vector2d(0.1, 0.1), 3, 0, 0));
  impl->Replay(ParseLogRecord(FormatTellRecord(Eigen::Vector2d(0.5, 0.5), kNoZ, 2.5, true)));
  impl->ResetReplica();
  const internal::StudyReplica& r = impl->replica();
  EXPECT_EQ(r.pending.size(), 0u);
  EXPECT_TRUE(r.observations.empty());
  EXPECT_EQ(r.model->counts().rows(), 0);
  EXPECT_EQ(r.rounds, 0);
  EXPECT_EQ(r.design->handed_out(), 0);
}

TEST(OptimizerImpl, WritesItsSettingsAsTheHeaderAndAcceptsOnlyMatchingOnes) {
  OptimizerOptions options = testing::CheapOptions(3);
  options.log_path = testing::TempLogPath("optimizer_impl_header");
  auto impl = Make(options);
  const LogHeader header = ParseLogHeader(impl->HeaderJson());
  EXPECT_EQ(header.strategy, "gp-ucb");
  EXPECT_EQ(header.options.seed, 3u);
  EXPECT_EQ(header.domain, Square());
  EXPECT_NO_THROW(impl->CheckHeader(impl->HeaderJson()));
  LogHeader other = header;
  other.options.seed = 4;
  try {
    impl->CheckHeader(FormatLogHeader(other));
    ADD_FAILURE() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("the study "));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("options.seed = 4, not 3"));
  }
}

}  // namespace
}  // namespace gpbandit
