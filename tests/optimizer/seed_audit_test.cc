// The audit of a safe strategy's seeds (optimizer/seed_audit.h): which seeds were measured unsafe
// and what the findings and the refusal say, a cost's upper limit, failed evaluations, and the
// hint for a threshold that every measurement violates.
#include "optimizer/seed_audit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace gpbandit {
namespace {

Observation AuditTold(double x, double y, std::vector<double> g = {}) {
  Observation o;
  o.x = Eigen::VectorXd::Constant(1, x);
  o.y = y;
  o.accepted = std::isfinite(y);
  o.constraints = Eigen::Map<Eigen::VectorXd>(g.data(), static_cast<Eigen::Index>(g.size()));
  return o;
}

// Reward threshold none, one constraint g_1 >= -0.05.
std::vector<SafetySignal> AuditConstraint() {
  std::vector<SafetySignal> signals(2);
  signals[1].threshold = -0.05;
  return signals;
}

Eigen::MatrixXd AuditSeeds(std::vector<double> xs) {
  return Eigen::Map<Eigen::RowVectorXd>(xs.data(), static_cast<Eigen::Index>(xs.size()));
}

TEST(SeedAuditTest, ASeedMeasuredBelowItsThresholdIsDroppedAndNamed) {
  const std::vector<Observation> told = {AuditTold(1.0, 0.5, {0.02}), AuditTold(2.0, 0.4, {-0.7}),
                                         AuditTold(1.5, 0.1, {-0.2})};
  const SeedAudit audit = AuditSeeds(AuditSeeds({1.0, 2.0, 3.0}), told, AuditConstraint(), false);
  EXPECT_EQ(audit.usable, (std::vector<bool>{true, false, true}));  // seed 3 not evaluated yet
  EXPECT_EQ(audit.findings[1], "seed 1 (2): constraint g_1 measured -0.7 < threshold -0.05");
  EXPECT_TRUE(audit.findings[0].empty());
  EXPECT_TRUE(audit.any_usable());
  EXPECT_TRUE(audit.sense_hints.empty());  // one measurement clears it
  EXPECT_TRUE(MeasuredSafe(told[0], AuditConstraint(), false));
  EXPECT_FALSE(MeasuredSafe(told[2], AuditConstraint(), false));
}

// Every measurement below the threshold: the refusal names each seed and value and asks about
// the sense (an upper limit written as a lower one).
TEST(SeedAuditTest, NoSeedLeftGivesARefusalWithTheSenseHint) {
  const std::vector<Observation> told = {AuditTold(1.0, 0.5, {-0.7}), AuditTold(2.0, 0.4, {-0.9})};
  const SeedAudit audit = AuditSeeds(AuditSeeds({1.0, 2.0}), told, AuditConstraint(), false);
  EXPECT_FALSE(audit.any_usable());
  const std::string message = audit.RefusalMessage("safe-opt");
  EXPECT_NE(message.find("strategy 'safe-opt' has no safe seed left"), std::string::npos);
  EXPECT_NE(message.find("seed 0 (1): constraint g_1 measured -0.7 < threshold -0.05"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("seed 1 (2): constraint g_1 measured -0.9"), std::string::npos);
  ASSERT_EQ(audit.sense_hints.size(), 1u);
  EXPECT_NE(message.find("Every one of the 2 measurements of the constraint g_1 violates"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("g = -q with threshold -L"), std::string::npos);
}

// A threshold on the reward: an upper limit on a cost when minimizing; a failed evaluation of a
// seed is a finding too.
TEST(SeedAuditTest, CostLimitsAndFailuresCount) {
  std::vector<SafetySignal> cost(1);
  cost[0].threshold = 1.0;  // cost <= 1
  const std::vector<Observation> told = {AuditTold(1.0, 0.8), AuditTold(2.0, 1.3),
                                         AuditTold(3.0, std::nan(""))};
  const SeedAudit audit = AuditSeeds(AuditSeeds({1.0, 2.0, 3.0}), told, cost, /*minimize=*/true);
  EXPECT_EQ(audit.usable, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(audit.findings[1], "seed 1 (2): reward measured 1.3 > threshold 1");
  EXPECT_EQ(audit.findings[2], "seed 2 (3): its evaluation failed (reward nan)");
  // Maximizing, the same threshold is a lower limit: seed 0 is then unsafe, seed 1 safe.
  const SeedAudit rewards = AuditSeeds(AuditSeeds({1.0, 2.0}), told, cost, false);
  EXPECT_EQ(rewards.usable, (std::vector<bool>{false, true}));
}

}  // namespace
}  // namespace gpbandit
