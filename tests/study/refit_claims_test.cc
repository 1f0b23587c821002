#include "study/refit_claims.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <set>
#include <string>

namespace gpbandit {
namespace {

// Every refit schedule's period is 1 below 20 rows and 5 from there on.
RefitSchedule Schedule() {
  RefitSchedule s;
  s.every_while_small = 1;
  s.small_until = 20;
  s.every = 5;
  return s;
}

// Claims of the workers named in `gone` are of finished processes.
RefitClaims::GoneCheck GoneAmong(std::set<std::string> gone) {
  return [gone](const std::string& worker) { return gone.count(worker) > 0; };
}

TEST(RefitClaims, OwnClaimIsOwedAndClaimsNothingMore) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "me", /*named=*/false, GoneAmong({}));
  const double until = claims.ClaimFor(/*due=*/true, 3, 100.0);
  EXPECT_EQ(until, 100.0);  // no refit yet: its time is 4 x 0 s
  claims.NoteOwn(until, 3);
  EXPECT_TRUE(claims.owed());
  EXPECT_TRUE(std::isnan(claims.ClaimFor(true, 4, 200.0)));
  claims.set_last_refit_seconds(2.0);
  claims.Settle();
  EXPECT_FALSE(claims.owed());
  EXPECT_EQ(claims.ClaimFor(true, 5, 300.0), 308.0);
}

TEST(RefitClaims, NothingDueClaimsNothing) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "me", false, GoneAmong({}));
  EXPECT_TRUE(std::isnan(claims.ClaimFor(/*due=*/false, 3, 100.0)));
}

TEST(RefitClaims, LiveWorkersClaimLastsItsTimeAndAPeriodOfTells) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "me", false, GoneAmong({}));
  claims.NoteReplayed(/*until=*/110.0, /*rows=*/30, "host:1");
  EXPECT_FALSE(claims.owed());
  EXPECT_TRUE(claims.Lasts(31, 105.0));   // its time and its tells
  EXPECT_TRUE(claims.Lasts(31, 120.0));   // its tells (5 from 30 rows on)
  EXPECT_TRUE(claims.Lasts(40, 105.0));   // its time
  EXPECT_FALSE(claims.Lasts(35, 120.0));  // neither: the claim passes on
  EXPECT_TRUE(std::isnan(claims.ClaimFor(true, 31, 120.0)));
  EXPECT_EQ(claims.ClaimFor(true, 35, 120.0), 120.0);
  claims.OweIfDue(/*due=*/true, /*resumes=*/false, 31, 105.0);
  EXPECT_FALSE(claims.owed());  // a joining worker leaves a live claim alone
}

TEST(RefitClaims, ExpiredClaimIsOwedByAJoiningWorker) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "me", false, GoneAmong({}));
  claims.NoteReplayed(110.0, 30, "host:1");
  claims.OweIfDue(true, false, 35, 120.0);
  EXPECT_TRUE(claims.owed());
}

TEST(RefitClaims, FinishedProcessesClaimLastsNoLonger) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "host:2", false, GoneAmong({"host:1"}));
  claims.NoteReplayed(1e9, 3, "host:1");  // its time and its tells would last
  EXPECT_FALSE(claims.owed());
  EXPECT_FALSE(claims.Lasts(3, 100.0));
  claims.OweIfDue(true, false, 3, 100.0);
  EXPECT_TRUE(claims.owed());  // the next worker to ask makes the refit
}

TEST(RefitClaims, ClaimOfAnOlderLogWithoutItsWorkerLastsByTimeAndTells) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "me", false, [](const std::string&) { return true; });
  claims.NoteReplayed(110.0, 30, "");
  EXPECT_TRUE(claims.Lasts(31, 120.0));
}

TEST(RefitClaims, ClaimUnderThisWorkersOwnNameIsOwed) {
  const RefitSchedule schedule = Schedule();
  RefitClaims named(schedule, "pump-1", /*named=*/true, GoneAmong({}));
  named.NoteReplayed(1e9, 3, "pump-1");
  EXPECT_TRUE(named.owed());
  {
    // A default name equal to this process's, with another book of this process alive: that
    // optimizer may have made the claim, and it lives.
    RefitClaims other(schedule, "host:2", /*named=*/false, GoneAmong({}));
    RefitClaims unnamed(schedule, "host:2", /*named=*/false, GoneAmong({}));
    unnamed.NoteReplayed(1e9, 3, "host:2");
    EXPECT_FALSE(unnamed.owed());
    EXPECT_TRUE(unnamed.Lasts(3, 100.0));
  }
  // The process's only book: an earlier optimizer of this process made the claim and is gone,
  // so a joining worker owes the refit due.
  RefitClaims alone(schedule, "host:2", /*named=*/false, GoneAmong({}));
  alone.NoteReplayed(1e9, 3, "host:2");
  EXPECT_FALSE(alone.Lasts(3, 100.0));
  alone.OweIfDue(/*due=*/true, /*resumes=*/false, 3, 100.0);
  EXPECT_TRUE(alone.owed());
}

TEST(RefitClaims, ResumeOwesTheDueRefitWhoeverClaimedIt) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "me", false, GoneAmong({}));
  claims.NoteReplayed(1e9, 3, "host:1");
  claims.OweIfDue(/*due=*/false, /*resumes=*/true, 3, 100.0);
  EXPECT_FALSE(claims.owed());
  claims.OweIfDue(/*due=*/true, /*resumes=*/true, 3, 100.0);
  EXPECT_TRUE(claims.owed());
}

TEST(RefitClaims, RollBackRestoresAndCommitSettles) {
  const RefitSchedule schedule = Schedule();
  RefitClaims claims(schedule, "me", false, GoneAmong({}));
  claims.NoteOwn(100.0, 3);
  int restored = 0;
  claims.BeginFit([&] { ++restored; });
  EXPECT_TRUE(claims.fit_uncommitted());
  claims.RollBack();
  claims.RollBack();  // nothing left to undo
  EXPECT_EQ(restored, 1);
  EXPECT_FALSE(claims.fit_uncommitted());
  EXPECT_TRUE(claims.owed());  // undone: still owed
  claims.Commit();             // nothing was begun: nothing settles
  EXPECT_TRUE(claims.owed());
  claims.BeginFit([&] { ++restored; });
  claims.Commit();
  EXPECT_EQ(restored, 1);
  EXPECT_FALSE(claims.owed());
  EXPECT_FALSE(claims.Lasts(3, 0.0));
}

TEST(WorkerProcessGone, KnowsThisHostsFinishedProcesses) {
  const std::string self = DefaultWorkerId();
  EXPECT_FALSE(WorkerProcessGone(self));
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  const std::string host = self.substr(0, self.rfind(':'));
  EXPECT_TRUE(WorkerProcessGone(host + ":" + std::to_string(child)));
  // Another host's process, or a name that is not host:pid, is not known to be gone.
  EXPECT_FALSE(WorkerProcessGone("elsewhere.invalid:" + std::to_string(child)));
  EXPECT_FALSE(WorkerProcessGone("pump-1"));
  EXPECT_FALSE(WorkerProcessGone(host + ":"));
  EXPECT_FALSE(WorkerProcessGone(host + ":12x"));
}

}  // namespace
}  // namespace gpbandit
