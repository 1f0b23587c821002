#include "optimizer/study_replica.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "optimizer/fingerprint.h"
#include "tests/optimizer/replica_test_util.h"

namespace gpbandit {
namespace {

using testing::AddObservation;
using testing::MakeReplica;

Domain UnitLine() { return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1)); }

TEST(StudyReplica, RefusesASafeStrategyWithoutSeeds) {
  EXPECT_THROW(MakeReplica(UnitLine(), "safe-opt", StrategyParams().With("threshold", 0.0)),
               std::invalid_argument);
}

TEST(StudyReplica, SafeStrategyCountsItsSeedsAndChecksSafety) {
  auto replica = MakeReplica(UnitLine(), "safe-opt",
                             StrategyParams().With("threshold", 0.0).WithText("seeds", "[[0.5]]"));
  EXPECT_TRUE(replica->safe);
  EXPECT_EQ(replica->num_seeds, 1);
  auto plain = MakeReplica(UnitLine(), "gp-ucb");
  EXPECT_FALSE(plain->safe);
  EXPECT_EQ(plain->num_seeds, 0);
}

TEST(StudyReplica, HeaderNamesTheStrategyWithoutTheLogPath) {
  OptimizerOptions options = testing::CheapOptions(7);
  options.log_path = "/nonexistent/study.jsonl";
  auto replica = MakeReplica(UnitLine(), "gp-ucb", {}, options);
  const LogHeader header = replica->MakeHeader();
  EXPECT_EQ(header.strategy, "gp-ucb");
  EXPECT_TRUE(header.options.log_path.empty());
  EXPECT_EQ(header.options.seed, 7u);
  EXPECT_TRUE(header.default_kernel);
}

TEST(StudyReplica, ResetForgetsEveryRecord) {
  auto replica = MakeReplica(UnitLine(), "gp-ucb");
  const std::string fresh = internal::Fingerprint(*replica);
  AddObservation(replica.get(), Eigen::VectorXd::Constant(1, 0.25), 2.0);
  replica->pending.Add({Eigen::VectorXd::Constant(1, 0.5), Eigen::VectorXd(), 0, "w", 1e300, 0});
  replica->rounds = 3;
  ASSERT_EQ(replica->model->counts().rows(), 1);
  replica->Reset();
  EXPECT_TRUE(replica->observations.empty());
  EXPECT_EQ(replica->pending.size(), 0u);
  EXPECT_EQ(replica->model->counts().rows(), 0);
  EXPECT_EQ(replica->rounds, 0);
  EXPECT_EQ(internal::Fingerprint(*replica), fresh);
}

}  // namespace
}  // namespace gpbandit
