// Shared studies with real processes (tests/shared/study_worker.cc) on the file backend and on
// a real PostgreSQL server: 16 workers x 40 rounds on one study; workers killed with SIGKILL
// throughout; the database stopped and restarted mid-run. After each run: every acknowledged
// tell is in the study exactly once, the sequence has no gap, no two points were pending at
// once with live leases, and every worker's model after its last tell is bit-identical to a
// replay of the study up to that tell.
//
// These are the suite's heaviest tests (about a minute in all on 2 cores): ctest label `heavy`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "tests/shared/shared_study_fixture.h"
#include "tests/shared/shared_study_util.h"
#include "tests/shared/tell_counter.h"
#include "tests/storage/postgres_environment.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::Child;
using testing::SharedStudyTest;

const auto* const environment =
    ::testing::AddGlobalTestEnvironment(new testing::PostgresEnvironment);

TEST_P(SharedStudyTest, SixteenWorkersFortyRoundsEach) {
  CreateStudy();
  std::vector<Child> workers;
  for (int w = 0; w < 16; ++w) workers.push_back(StartWorker(40, 0, 3600, 0));
  std::vector<testing::Told> acknowledged;
  for (const Child& w : workers) {
    EXPECT_TRUE(testing::ExitedZero(testing::Wait(w))) << testing::ReadText(w.err);
    const std::vector<testing::Told> told = testing::Acknowledged(w.out, nullptr);
    EXPECT_EQ(told.size(), 40u) << w.out;
    acknowledged.insert(acknowledged.end(), told.begin(), told.end());
  }
  const std::vector<LogRecord> records = testing::StudyRecords(backend_.url, backend_.study);
  int tells = 0, fits = 0;
  std::set<long> rounds;
  for (const LogRecord& r : records) {
    tells += r.type == LogRecordType::kTell;
    fits += r.type == LogRecordType::kFit;
    if (r.type == LogRecordType::kPending) {
      EXPECT_TRUE(rounds.insert(r.round).second) << "round " << r.round << " handed out twice";
    }
  }
  EXPECT_EQ(tells, 640);
  EXPECT_EQ(rounds.size(), 640u);  // one study-wide round counter
  // The schedule's refits (every 4 observations up to 40) happen once, not once per worker:
  // each is claimed by one tell and made by that worker at its next ask, outside the lock, while
  // the others tell on (so a refit lags its claim by up to a round of the others' tells).
  EXPECT_GE(fits, 2);
  EXPECT_LE(fits, 11);
  testing::ExpectAcknowledgedExactlyOnce(records, acknowledged);
  testing::ExpectNoEqualActivePending(records, 3600);
  ExpectWorkersHeldTheReplayedModel(workers);
  // The study replays to one model however it is read: from the storage, or from its export.
  std::string header;
  const std::vector<LogRecord> all = testing::StudyRecords(backend_.url, backend_.study, &header);
  const std::string export_path = dir_ + "/export.jsonl";
  testing::WritePrefixLog(export_path, header, all, all.size() - 1);
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  EXPECT_EQ(Optimizer::Open(backend_.url, backend_.study)->Fingerprint(),
            Optimizer::Resume(export_path)->Fingerprint());
}

// Workers are killed with SIGKILL at random moments (in an ask, an evaluation, a tell) and
// replaced; every acknowledged tell survives, the leases of the points the dead held expire,
// and the study reaches its target.
TEST_P(SharedStudyTest, KilledWorkersLoseNothingAcknowledged) {
  const std::uint64_t seed = testing::TestSeed(12);
  std::mt19937_64 rng(seed);
  CreateStudy();
  constexpr long kTarget = 400;
  constexpr double kLease = 2.0;
  std::vector<Child> running, finished, killed;
  for (int w = 0; w < 12; ++w) running.push_back(StartWorker(0, kTarget, kLease, 20000));
  // A kill every 12 tells (by the study's progress, not the clock, so that a fast machine does
  // not finish first): 24 kills up to t = 288, at random moments of the victims' loops.
  testing::TellCounter progress(backend_.url, backend_.study);
  int kills = 0;
  while (!running.empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + rng() % 20));
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      if (::waitpid(it->pid, &status, WNOHANG) == it->pid) {
        EXPECT_TRUE(testing::ExitedZero(status)) << testing::ReadText(it->err);
        finished.push_back(*it);
        it = running.erase(it);
      } else {
        ++it;
      }
    }
    if (kills >= 24 || running.empty() || progress.Count() < 12L * (kills + 1)) continue;
    const std::size_t victim = rng() % running.size();
    ::kill(running[victim].pid, SIGKILL);
    testing::Wait(running[victim]);
    killed.push_back(running[victim]);
    running[victim] = StartWorker(0, kTarget, kLease, 20000);
    ++kills;
  }
  EXPECT_GE(kills, 20);
  std::vector<testing::Told> acknowledged;
  for (const auto* group : {&finished, &killed})
    for (const Child& w : *group) {
      const std::vector<testing::Told> told = testing::Acknowledged(w.out, nullptr);
      acknowledged.insert(acknowledged.end(), told.begin(), told.end());
    }
  const std::vector<LogRecord> records = testing::StudyRecords(backend_.url, backend_.study);
  testing::ExpectAcknowledgedExactlyOnce(records, acknowledged, kills);
  testing::ExpectNoEqualActivePending(records, kLease);
  // The study went on to its target; what the dead held is still pending, with ended leases.
  const auto opt = Optimizer::Open(backend_.url, backend_.study);
  EXPECT_GE(static_cast<long>(opt->observations().size()), kTarget);
  std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(kLease * 1000)));
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  for (const PendingPoint& p : opt->pending_points()) EXPECT_LT(p.lease_until, now);
  std::cout << "[ killed   ] " << kills << " workers; " << opt->pending_points().size()
            << " points left pending by them; " << acknowledged.size() << " acknowledged tells\n";
  ExpectWorkersHeldTheReplayedModel(finished);
}

// The database is stopped and started again while 8 workers run: they report, wait with
// backoff, and finish; nothing acknowledged is lost and no record is half-written.
TEST_P(SharedStudyTest, DatabaseRestartMidRun) {
  if (GetParam() != "postgresql") GTEST_SKIP() << "a database test";
  CreateStudy();
  std::vector<Child> workers;
  for (int w = 0; w < 8; ++w) workers.push_back(StartWorker(0, 200, 3600, 10000));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  auto opt = Optimizer::Open(backend_.url, backend_.study);
  while (opt->observations().size() < 60 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    opt->Sync();
  }
  opt.reset();
  testing::PostgresServer()->Stop("fast");
  std::this_thread::sleep_for(std::chrono::seconds(2));
  testing::PostgresServer()->Start();
  std::vector<testing::Told> acknowledged;
  int reported = 0;
  for (const Child& w : workers) {
    EXPECT_TRUE(testing::ExitedZero(testing::Wait(w))) << testing::ReadText(w.err);
    const std::vector<testing::Told> told = testing::Acknowledged(w.out, nullptr);
    acknowledged.insert(acknowledged.end(), told.begin(), told.end());
    reported += testing::ReadText(w.err).find("reconnected") != std::string::npos;
  }
  EXPECT_GT(reported, 0) << "no worker noticed the restart";
  const std::vector<LogRecord> records = testing::StudyRecords(backend_.url, backend_.study);
  // A tell in flight when the server stopped was retried: in the study once, acknowledged once.
  testing::ExpectAcknowledgedExactlyOnce(records, acknowledged);
  testing::ExpectNoEqualActivePending(records, 3600);
  ExpectWorkersHeldTheReplayedModel(workers);
}

INSTANTIATE_TEST_SUITE_P(Backends, SharedStudyTest, ::testing::Values("file", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace gpbandit
