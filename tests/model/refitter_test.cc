// The refits (model/refitter.h): a refit only when owed, its fit record replaying into the same
// models bit for bit, the transaction that undoes an uncommitted refit, replays deferred until
// the models catch up, mismatched records refused, and the claims a tell makes.
#include "model/refitter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

// A refitter wired to models of its own, as ModelKeeper wires it: a reward over [0, 1]^2 and
// num_constraints legacy constraint models.
struct Models {
  explicit Models(int num_constraints = 0)
      : reward(MakeSquaredExponential(FirstDims(2), true, 1.0, 0.5), 2, options.gp,
               options.local_model, false),
        policy(options, TimeModel(), true, false, reward.kernel_log_params()),
        constraints(reward.kernel(), num_constraints, 2, options.gp),
        counts(options.non_finite_rewards),
        refit(options, policy, reward, constraints, counts, work, "this-worker", true) {}

  // n rewards of a smooth function (and, with constraints, a constraint value each).
  void Observe(int n) {
    for (int k = 0; k < n; ++k) {
      const Eigen::Vector2d u(0.1 + 0.11 * k, 0.9 - 0.07 * k);
      const double y = std::sin(4.0 * u(0)) * std::cos(3.0 * u(1));
      constraints.Add(u, Eigen::VectorXd::Constant(constraints.num_constraints(), u(0) - u(1)));
      reward.AddObservation(u, y);
      counts.Count(y, true);
    }
  }

  OptimizerOptions options;
  RewardModel reward;
  RefitPolicy policy;
  ConstraintModels constraints;
  ObservationCounts counts;
  DeferredWork work;
  Refitter refit;
};

TEST(RefitterTest, RefitsOnlyWhenARefitIsOwed) {
  Models m;
  m.Observe(5);
  EXPECT_FALSE(m.refit.owed());
  EXPECT_EQ(m.refit.MaybeRefit(4), "");
  EXPECT_FALSE(m.refit.has_fit_report());
  EXPECT_EQ(m.refit.last_fit_observations(), -1);
  // Resuming as the study's only writer owes the refit due at 5 rows.
  m.refit.OweIfDue(/*claims_hold=*/false, 0.0);
  EXPECT_TRUE(m.refit.owed());
  EXPECT_NE(m.refit.MaybeRefit(4), "");
  EXPECT_TRUE(m.refit.has_fit_report());
  EXPECT_EQ(m.refit.last_fit_observations(), 5);
}

// What a live refit leaves in the models is what a replay of its record leaves (resume is
// bit-exact), predictions included.
TEST(RefitterTest, AFitRecordReplaysIntoTheSameModels) {
  Models live(1), replayed(1);
  live.Observe(6);
  replayed.Observe(6);
  live.refit.OweIfDue(false, 0.0);
  const std::string record = live.refit.MaybeRefit(5);
  ASSERT_NE(record, "");
  ASSERT_NE(live.reward.kernel_log_params(), replayed.reward.kernel_log_params());
  replayed.refit.ReplayFit(ParseLogRecord(record));
  EXPECT_EQ(replayed.reward.kernel_log_params(), live.reward.kernel_log_params());
  EXPECT_EQ(replayed.reward.noise_variance(), live.reward.noise_variance());
  EXPECT_EQ(replayed.constraints.constraint(0).kernel_log_params(),
            live.constraints.constraint(0).kernel_log_params());
  double live_mean = 0, live_var = 0, mean = 0, var = 0;
  live.reward.gp().MeanAndVariance(Eigen::Vector2d(0.33, 0.44), &live_mean, &live_var);
  replayed.reward.gp().MeanAndVariance(Eigen::Vector2d(0.33, 0.44), &mean, &var);
  EXPECT_EQ(mean, live_mean);
  EXPECT_EQ(var, live_var);
  EXPECT_EQ(replayed.refit.last_fit_observations(), 6);
  EXPECT_EQ(replayed.refit.last_fit_report().message, "restored from the log");
  EXPECT_TRUE(replayed.refit.last_fit_report().success);
  EXPECT_NE(live.refit.last_fit_report().message, "restored from the log");
}

TEST(RefitterTest, RestoreFitUndoesAnUncommittedRefitAndCommitSettlesIt) {
  Models m(1);
  m.Observe(6);
  const Eigen::VectorXd initial = m.reward.kernel_log_params();
  const Eigen::VectorXd constraint_initial = m.constraints.constraint(0).kernel_log_params();
  m.refit.OweIfDue(false, 0.0);
  ASSERT_NE(m.refit.MaybeRefit(5), "");
  EXPECT_TRUE(m.refit.fit_uncommitted());
  ASSERT_NE(m.reward.kernel_log_params(), initial);
  m.refit.RestoreFit();
  EXPECT_FALSE(m.refit.fit_uncommitted());
  EXPECT_EQ(m.reward.kernel_log_params(), initial);
  EXPECT_EQ(m.constraints.constraint(0).kernel_log_params(), constraint_initial);
  EXPECT_FALSE(m.refit.has_fit_report());
  EXPECT_EQ(m.refit.last_fit_observations(), -1);
  // Still owed: the same round refits the same way; committed, it is owed no more.
  EXPECT_TRUE(m.refit.owed());
  const std::string again = m.refit.MaybeRefit(5);
  ASSERT_NE(again, "");
  m.refit.ForgetSavedFit();
  EXPECT_FALSE(m.refit.fit_uncommitted());
  EXPECT_FALSE(m.refit.owed());
  EXPECT_EQ(m.refit.MaybeRefit(6), "");
  EXPECT_NE(m.reward.kernel_log_params(), initial);
}

// The own record applied after a rollback (others' records replayed first) keeps the refit's
// own report, not a replay's.
TEST(RefitterTest, ApplyOwnFitKeepsItsReport) {
  Models m;
  m.Observe(4);
  m.refit.OweIfDue(false, 0.0);
  const std::string record = m.refit.MaybeRefit(3);
  const HyperparameterFitReport report = m.refit.last_fit_report();
  const Eigen::VectorXd fitted = m.reward.kernel_log_params();
  m.refit.RestoreFit();
  m.refit.ApplyOwnFit(ParseLogRecord(record), report);
  EXPECT_EQ(m.refit.last_fit_report().message, report.message);
  EXPECT_EQ(m.reward.kernel_log_params(), fitted);
  EXPECT_FALSE(m.refit.owed());
}

TEST(RefitterTest, AReplayWhileDeferringReachesTheModelsOnCatchUp) {
  Models live, replayed;
  live.Observe(4);
  replayed.Observe(4);
  live.refit.OweIfDue(false, 0.0);
  const LogRecord record = ParseLogRecord(live.refit.MaybeRefit(3));
  const Eigen::VectorXd initial = replayed.reward.kernel_log_params();
  replayed.work.Defer();
  replayed.refit.ReplayFit(record);
  // The bookkeeping at once, the models later.
  EXPECT_EQ(replayed.refit.last_fit_observations(), 4);
  EXPECT_TRUE(replayed.refit.has_fit_report());
  EXPECT_EQ(replayed.reward.kernel_log_params(), initial);
  EXPECT_THROW(replayed.refit.MaybeRefit(4), std::logic_error);
  replayed.work.CatchUp();
  EXPECT_EQ(replayed.reward.kernel_log_params(), live.reward.kernel_log_params());
}

TEST(RefitterTest, RefusesAFitRecordForOtherModelsAndChangesNothing) {
  Models with(1), without;
  with.Observe(4);
  without.Observe(4);
  with.refit.OweIfDue(false, 0.0);
  const LogRecord record = ParseLogRecord(with.refit.MaybeRefit(3));
  without.refit.OweIfDue(false, 0.0);
  EXPECT_THROW(without.refit.ReplayFit(record), std::runtime_error);
  EXPECT_TRUE(without.refit.owed());
  EXPECT_FALSE(without.refit.has_fit_report());
  EXPECT_EQ(without.refit.last_fit_observations(), -1);
}

// A refit falls due at the first row (every_while_small = 1): the tell that finds it due claims
// it unless this worker owes it already or another worker's claim lasts.
TEST(RefitterTest, ATellClaimsTheRefitDueUnlessOneIsOwedOrClaimed) {
  Models m;
  EXPECT_TRUE(std::isnan(m.refit.Claim(0, 10.0)));  // nothing due without rows
  EXPECT_EQ(m.refit.Claim(1, 10.0), 10.0);          // now + 4 x the last refit's 0 s
  m.Observe(1);
  m.refit.NoteClaim(10.0, /*mine=*/true);
  EXPECT_TRUE(m.refit.owed());
  EXPECT_TRUE(std::isnan(m.refit.Claim(2, 10.0)));
  Models other;
  other.Observe(1);
  other.refit.NoteClaim(100.0, /*mine=*/false, "another-worker");
  EXPECT_FALSE(other.refit.owed());
  EXPECT_TRUE(std::isnan(other.refit.Claim(2, 10.0)));
}

}  // namespace
}  // namespace gpbandit
