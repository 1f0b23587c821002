// Asks of a shared study computed outside the study's lock (optimizer/ask_outside_lock.cc), in one
// process: a storage wrapper lets other optimizers on the same study ask, tell and refit exactly
// between this worker's choice and its lock. What is checked: a point others took meanwhile is
// chosen again (never handed out twice), one that their points do not bear on is kept under the
// study's next round with the round it drew, design points and time models keep their own
// rules, three refused choices end under the lock, and whatever happened, the worker's model
// is bit-identical to a replay of the study (its own refit re-applied after others' records,
// or dropped for theirs).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>
#include <thread>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/file_storage.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/optimizer/scoped_tmpdir.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::TempLogPath;

// A file storage that runs `meanwhile` before each of its next `times` exclusive sessions:
// what other workers do while this one's ask is computed outside the lock.
class MeanwhileStorage : public StudyStorage {
 public:
  explicit MeanwhileStorage(const std::string& path) : file_(path, false) {}
  std::string Describe() const override { return file_.Describe(); }
  std::unique_ptr<StudySession> Begin(LockMode mode) override {
    if (mode == LockMode::kExclusive && times > 0) {
      --times;
      meanwhile();
    }
    return file_.Begin(mode);
  }
  std::function<void()> meanwhile;
  int times = 0;

 private:
  FileStudyStorage file_;
};

double CornerBump(const Eigen::VectorXd& x) { return -(x.array() - 0.3).square().sum(); }

OptimizerOptions Options(const std::string& path = "") {
  OptimizerOptions o = testing::CheapOptions(5);
  o.initial_design_size = 3;
  o.refit.every_while_small = 2;
  o.log_path = path;
  return o;
}

class AskOutsideLockTest : public ::testing::Test {
 protected:
  // The ask slots are this test's own: the optimizers that ask meanwhile do so inside the
  // worker's ask, while it holds a slot, and take another one (a machine of one core has no
  // other: they wait for the worker's lease). With the machine's slots, another process's ask
  // in the other slot (a test program beside this one) would hold them up until its lease ends.
  void SetUp() override {
    path_ = TempLogPath("outside_lock");
    slots_ = std::make_unique<testing::ScopedTmpdir>("outside_lock");
  }
  void TearDown() override {
    slots_.reset();
    std::remove(path_.c_str());
    std::remove((path_ + ".lock").c_str());
  }

  // The worker under test, on the wrapped storage.
  std::unique_ptr<Optimizer> Worker(const Domain& domain, const std::string& strategy,
                                    OptimizerOptions o, std::unique_ptr<Kernel> kernel = nullptr) {
    auto storage = std::make_unique<MeanwhileStorage>(path_);
    storage_ = storage.get();
    o.log_path.clear();
    return std::make_unique<Optimizer>(domain, std::move(kernel), strategy, StrategyParams(), o,
                                       std::move(storage));
  }
  std::vector<LogRecord> Records() const {
    std::vector<LogRecord> all = ReadLog(path_).records;
    all.erase(all.begin());  // the header
    return all;
  }
  std::vector<LogRecord> Pending() const {
    std::vector<LogRecord> pending;
    for (const LogRecord& r : Records())
      if (r.type == LogRecordType::kPending) pending.push_back(r);
    return pending;
  }
  // The worker's model equals a replay of the study (after it caught up).
  void ExpectReplayed(Optimizer& worker, std::unique_ptr<Kernel> kernel = nullptr) {
    worker.Sync();
    GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
    EXPECT_EQ(Optimizer::Resume(path_, std::move(kernel))->Fingerprint(), worker.Fingerprint());
  }

  std::string path_;
  std::unique_ptr<testing::ScopedTmpdir> slots_;
  MeanwhileStorage* storage_ = nullptr;
};

Domain Square() { return Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)); }

// Refits after the last tell that claimed one.
int FitsAfterLastClaim(const std::vector<LogRecord>& records) {
  int fits = 0;
  for (const LogRecord& r : records) {
    if (r.type == LogRecordType::kTell && !std::isnan(r.refit_claim)) fits = 0;
    if (r.type == LogRecordType::kFit) ++fits;
  }
  return fits;
}

// Asks and tells until this worker's last tell claimed a refit (after the design).
void UntilItClaimsARefit(Optimizer& a, const std::function<std::vector<LogRecord>()>& records) {
  for (int i = 0; i < 40; ++i) {
    const Eigen::VectorXd x = a.Ask();
    a.Tell(x, CornerBump(x));
    if (i >= 4 && !std::isnan(records().back().refit_claim)) return;
  }
  FAIL() << "no tell claimed a refit";
}

TEST_F(AskOutsideLockTest, AnAskThatSawNothingNewIsChosenOnce) {
  auto a = Worker(Square(), "gp-ucb", Options());
  for (int i = 0; i < 6; ++i) {
    const Eigen::VectorXd x = a->Ask();
    EXPECT_EQ(a->last_round_report().choices_outside_lock, 1);
    EXPECT_FALSE(a->last_round_report().chosen_under_lock);
    a->Tell(x, CornerBump(x));
  }
  for (const LogRecord& r : Pending()) EXPECT_EQ(r.drawn_round, -1);
  ExpectReplayed(*a);
}

// Another worker on the same replica draws the same round's numbers and chooses the same point
// first: this worker's choice is refused and made again, with that point hallucinated.
TEST_F(AskOutsideLockTest, ThePointAnotherWorkerChoseMeanwhileIsChosenAgain) {
  OptimizerOptions o = Options();
  o.refit.enabled = false;  // no refit of this worker's own: the same model as the other's
  auto a = Worker(Square(), "gp-ucb", o);
  o.log_path = path_;
  Optimizer b(Square(), nullptr, "gp-ucb", StrategyParams(), o);
  for (int i = 0; i < 5; ++i) {
    const Eigen::VectorXd x = a->Ask();
    a->Tell(x, CornerBump(x));
  }
  Eigen::VectorXd xb;
  storage_->times = 1;
  storage_->meanwhile = [&] { xb = b.Ask(); };
  const Eigen::VectorXd xa = a->Ask();
  EXPECT_EQ(a->last_round_report().choices_outside_lock, 2);
  EXPECT_FALSE(xa == xb);
  const std::vector<LogRecord> pending = Pending();
  ASSERT_GE(pending.size(), 2u);
  EXPECT_EQ(pending[pending.size() - 2].x, xb);
  EXPECT_EQ(pending.back().x, xa);
  EXPECT_EQ(pending.back().round, pending[pending.size() - 2].round + 1);
  EXPECT_EQ(pending.back().drawn_round, -1);  // chosen again under the round it records
  ExpectReplayed(*a);
}

// Workers in far contexts: the other's point, handed out meanwhile, does not bear on this one's
// (its standard deviation barely moves), which is kept under the study's next round and says
// which round's numbers chose it.
TEST_F(AskOutsideLockTest, APointTheOthersDoNotBearOnIsKeptUnderTheNextRound) {
  const Domain domain = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1))
                            .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  OptimizerOptions o = Options();
  o.refit.enabled = false;
  // Contexts 0 and 1 are 10 lengthscales apart: their posteriors barely correlate.
  auto a = Worker(domain, "gp-ucb", o, MakeMatern52({0, 1}, false, 1.0, 0.1));
  o.log_path = path_;
  Optimizer b(domain, MakeMatern52({0, 1}, false, 1.0, 0.1), "gp-ucb", StrategyParams(), o);
  const Eigen::VectorXd near = Eigen::VectorXd::Zero(1), far = Eigen::VectorXd::Ones(1);
  for (int i = 0; i < 6; ++i) {
    const Eigen::VectorXd x = a->Ask(near);
    a->Tell(x, near, CornerBump(x));
  }
  storage_->times = 1;
  storage_->meanwhile = [&] { b.Ask(far); };
  long trial = -1;
  const Eigen::VectorXd xa = a->Ask(near, &trial);
  EXPECT_EQ(a->last_round_report().choices_outside_lock, 1);
  const std::vector<LogRecord> pending = Pending();
  const LogRecord& theirs = pending[pending.size() - 2];
  const LogRecord& mine = pending.back();
  EXPECT_EQ(mine.x, xa);
  EXPECT_EQ(mine.round, theirs.round + 1);
  EXPECT_EQ(mine.drawn_round, theirs.round);  // both drew the same round's numbers
  // Numbered at the commit, after theirs: the trial Ask returned is the one recorded.
  EXPECT_EQ(mine.trial, theirs.trial + 1);
  EXPECT_EQ(trial, mine.trial);
  EXPECT_EQ(a->rounds(), mine.round + 1);
  ExpectReplayed(*a, MakeMatern52({0, 1}, false, 1.0, 0.1));
}

// This worker's tell claimed the refit; while it refits and chooses outside the lock, another
// worker tells: the refit is undone, their tell replayed, and the refit applied again after it,
// as a replay of the study does.
TEST_F(AskOutsideLockTest, AnOwnRefitFollowsOthersRecordsAsInAReplay) {
  auto a = Worker(Square(), "gp-ucb", Options());
  Optimizer b(Square(), nullptr, "gp-ucb", StrategyParams(), Options(path_));
  UntilItClaimsARefit(*a, [&] { return Records(); });
  const Eigen::VectorXd xb = b.Ask();
  storage_->times = 1;
  storage_->meanwhile = [&] { b.Tell(xb, CornerBump(xb)); };
  a->Ask();
  EXPECT_TRUE(a->last_round_report().fitted);
  const std::vector<LogRecord> all = Records();
  ASSERT_GE(all.size(), 3u);
  EXPECT_EQ(all[all.size() - 3].type, LogRecordType::kTell);  // theirs, then my fit and point
  EXPECT_EQ(all[all.size() - 2].type, LogRecordType::kFit);
  EXPECT_EQ(all.back().type, LogRecordType::kPending);
  ExpectReplayed(*a);
}

// A worker that joins while this one's claim lasts leaves the refit to it.
TEST_F(AskOutsideLockTest, AWorkerThatJoinsLeavesAClaimedRefitAlone) {
  auto a = Worker(Square(), "gp-ucb", Options());
  UntilItClaimsARefit(*a, [&] { return Records(); });
  storage_->times = 1;
  storage_->meanwhile = [&] { Optimizer::Open(path_, "")->Ask(); };
  a->Ask();
  EXPECT_TRUE(a->last_round_report().fitted);
  EXPECT_EQ(FitsAfterLastClaim(Records()), 1);
  ExpectReplayed(*a);
}

// A process that resumes the log meanwhile (as `gpbandit suggest --log` does) takes the claim
// for its own, refits and records it first: this worker's refit is dropped, and its model is the
// study's.
TEST_F(AskOutsideLockTest, AnotherWorkersRefitMeanwhileReplacesThisOnes) {
  auto a = Worker(Square(), "gp-ucb", Options());
  UntilItClaimsARefit(*a, [&] { return Records(); });
  storage_->times = 1;
  storage_->meanwhile = [&] { Optimizer::Resume(path_)->Ask(); };
  a->Ask();
  EXPECT_FALSE(a->last_round_report().fitted);
  EXPECT_EQ(FitsAfterLastClaim(Records()), 1);
  ExpectReplayed(*a);
}

// A claim whose worker stops asking passes on: once a schedule's period of tells (and four times
// that worker's last refit) has gone by, the next tell claims the refit, and its worker makes it.
TEST_F(AskOutsideLockTest, AClaimWhoseWorkerStopsAskingPassesOn) {
  auto a = Worker(Square(), "gp-ucb", Options());
  Optimizer b(Square(), nullptr, "gp-ucb", StrategyParams(), Options(path_));
  double longest_ask = 0;
  for (int i = 0; i < 40; ++i) {
    const Eigen::VectorXd x = a->Ask();
    longest_ask = std::max(longest_ask, a->last_round_report().seconds);
    a->Tell(x, CornerBump(x));
    if (i >= 4 && !std::isnan(Records().back().refit_claim)) break;
  }
  ASSERT_FALSE(std::isnan(Records().back().refit_claim));
  std::this_thread::sleep_for(std::chrono::duration<double>(4 * longest_ask + 0.05));
  int claims = 0;
  for (int i = 0; i < 2; ++i) {  // every_while_small = 2: the claim's period of tells
    const Eigen::Vector2d x(0.1 * (i + 1), 0.9);
    b.Tell(x, CornerBump(x));
    claims += !std::isnan(Records().back().refit_claim);
  }
  EXPECT_EQ(claims, 1) << "the second of the period's tells claims the refit again";
  b.Ask();
  EXPECT_TRUE(b.last_round_report().fitted);
  EXPECT_EQ(FitsAfterLastClaim(Records()), 1);
  ExpectReplayed(b);
}

TEST_F(AskOutsideLockTest, ADesignPointTakenMeanwhileIsNotTakenAgain) {
  auto a = Worker(Square(), "gp-ucb", Options());
  Optimizer b(Square(), nullptr, "gp-ucb", StrategyParams(), Options(path_));
  storage_->times = 1;
  storage_->meanwhile = [&] { b.Ask(); };
  a->Ask();
  EXPECT_EQ(a->last_round_report().choices_outside_lock, 2);
  const std::vector<LogRecord> pending = Pending();
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0].design_index, 0);
  EXPECT_EQ(pending[1].design_index, 1);
  EXPECT_FALSE(pending[0].x == pending[1].x);
}

// A time model's point belongs to its round: any point handed out meanwhile refuses it.
TEST_F(AskOutsideLockTest, ATimeModelsPointKeepsItsRound) {
  const Domain domain = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1))
                            .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  OptimizerOptions o = Options();
  o.refit.enabled = false;
  auto a = Worker(domain, "tv-gp-ucb", o);
  o.log_path = path_;
  Optimizer b(domain, nullptr, "tv-gp-ucb", StrategyParams(), o);
  for (int i = 0; i < 6; ++i) {
    const Eigen::VectorXd x = a->Ask(Eigen::VectorXd::Zero(1));
    a->Tell(x, Eigen::VectorXd::Zero(1), CornerBump(x));
  }
  storage_->times = 1;
  storage_->meanwhile = [&] { b.Ask(Eigen::VectorXd::Ones(1)); };
  a->Ask(Eigen::VectorXd::Zero(1));
  EXPECT_EQ(a->last_round_report().choices_outside_lock, 2);
  for (const LogRecord& r : Pending()) EXPECT_EQ(r.drawn_round, -1);
  ExpectReplayed(*a);
}

// Refused three times, the ask is chosen under the lock; with asks_outside_lock off, always.
TEST_F(AskOutsideLockTest, ThreeRefusedChoicesEndUnderTheLock) {
  OptimizerOptions o = Options();
  o.refit.enabled = false;  // the other chooses this worker's point each time
  auto a = Worker(Square(), "gp-ucb", o);
  o.log_path = path_;
  Optimizer b(Square(), nullptr, "gp-ucb", StrategyParams(), o);
  for (int i = 0; i < 5; ++i) {
    const Eigen::VectorXd x = a->Ask();
    a->Tell(x, CornerBump(x));
  }
  storage_->times = 3;
  storage_->meanwhile = [&] { b.Ask(); };
  a->Ask();
  EXPECT_EQ(a->last_round_report().choices_outside_lock, 3);
  EXPECT_TRUE(a->last_round_report().chosen_under_lock);
  std::set<std::vector<double>> distinct;
  for (const LogRecord& r : Pending()) distinct.insert({r.x(0), r.x(1)});
  EXPECT_EQ(distinct.size(), Pending().size()) << "a point handed out twice";
  ExpectReplayed(*a);

  o.worker.asks_outside_lock = false;
  auto locked = Worker(Square(), "gp-ucb", o);
  locked->Ask();
  EXPECT_EQ(locked->last_round_report().choices_outside_lock, 0);
  EXPECT_TRUE(locked->last_round_report().chosen_under_lock);
}

}  // namespace
}  // namespace gpbandit
