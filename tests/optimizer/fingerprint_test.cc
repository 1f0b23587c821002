#include "optimizer/fingerprint.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/optimizer/replica_test_util.h"
#include "tests/test_domains.h"

namespace gpbandit {
namespace {

using internal::Fingerprint;
using testing::AddObservation;
using testing::MakeReplica;

using testing::UnitSquare;

TEST(Fingerprint, CountsInPlainTextAndADigest) {
  auto replica = MakeReplica(UnitSquare(), "gp-ucb");
  const std::string fresh = Fingerprint(*replica);
  EXPECT_EQ(fresh.rfind("t=1 told=0 pending=0 rounds=0 digest=", 0), 0u) << fresh;
  EXPECT_EQ(fresh.size(), std::string("t=1 told=0 pending=0 rounds=0 digest=").size() + 16);
  AddObservation(replica.get(), Eigen::Vector2d(0.2, 0.3), 1.5);
  EXPECT_EQ(Fingerprint(*replica).rfind("t=2 told=1 pending=0 rounds=0 digest=", 0), 0u);
}

TEST(Fingerprint, EqualForReplicasThatWouldBehaveAlike) {
  auto a = MakeReplica(UnitSquare(), "gp-ucb");
  auto b = MakeReplica(UnitSquare(), "gp-ucb");
  auto c = MakeReplica(UnitSquare(), "gp-ucb");
  AddObservation(a.get(), Eigen::Vector2d(0.2, 0.3), 1.5);
  AddObservation(b.get(), Eigen::Vector2d(0.2, 0.3), 1.5);
  AddObservation(c.get(), Eigen::Vector2d(0.2, 0.3), 1.25);
  EXPECT_EQ(Fingerprint(*a), Fingerprint(*b));
  EXPECT_NE(Fingerprint(*a), Fingerprint(*c));
}

}  // namespace
}  // namespace gpbandit
