// The Optimizer's queries (optimizer/optimizer_state.cc) while another thread syncs a shared
// study whose replica is rebuilt from its start (StudyRewound: a database that forgot its last
// asynchronous commits). Every query must read under the lock and return a value or a copy, not
// a reference into the models the rebuild replaces: ThreadSanitizer (.ci/tsan) reports any
// access that is not, and a reference into a replaced model would be read after it is freed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpbandit/numerics/warning_sink.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/storage/memory_storage.h"

namespace gpbandit {
namespace {

using testing::MemoryStudy;
using testing::MemoryStudyStorage;

// A memory study whose reader is told, once per Rewind(), that the study no longer holds what it
// read (its next ReadAfter past the start throws StudyRewound, as PostgresStudyStorage does after
// a crash), so that it replays the study from its first record. The records stay as they are:
// the rebuilt replica equals the one it replaces, and only the rebuild itself is under test.
class RewindingStorage : public StudyStorage {
 public:
  explicit RewindingStorage(std::shared_ptr<MemoryStudy> study)
      : memory_("rewinding memory study", std::move(study)) {}

  void Rewind() { armed_ = true; }
  int rewinds() const { return rewinds_; }

  std::string Describe() const override { return memory_.Describe(); }
  std::unique_ptr<StudySession> Begin(LockMode mode) override {
    return std::make_unique<Session>(memory_.Begin(mode), this);
  }

 private:
  class Session : public StudySession {
   public:
    Session(std::unique_ptr<StudySession> inner, RewindingStorage* owner)
        : inner_(std::move(inner)), owner_(owner) {}
    const std::string& header() const override { return inner_->header(); }
    std::vector<StudyRecord> ReadAfter(long long after) override {
      if (after > 0 && owner_->armed_.exchange(false)) {
        ++owner_->rewinds_;
        throw StudyRewound("the study no longer holds record " + std::to_string(after));
      }
      return inner_->ReadAfter(after);
    }
    double Now() override { return inner_->Now(); }
    void CreateStudy(const std::string& header_json) override { inner_->CreateStudy(header_json); }
    void Append(const std::string& record_json) override { inner_->Append(record_json); }
    long long Commit(Durability durability) override { return inner_->Commit(durability); }

   private:
    std::unique_ptr<StudySession> inner_;
    RewindingStorage* owner_;
  };

  MemoryStudyStorage memory_;
  std::atomic<bool> armed_{false};
  std::atomic<int> rewinds_{0};
};

Domain UnitInterval() { return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1)); }

// SafeOpt with one constraint signal, so that constraint_model and PredictConstraint have a
// model to read.
StrategyParams Constrained() {
  return StrategyParams().WithText("constraint_thresholds", "[0]").WithText("seeds", "[[0.5]]");
}

double Reward(double x) { return -(x - 0.3) * (x - 0.3); }
double Constraint(double x) { return 0.6 - std::abs(x - 0.5); }

std::unique_ptr<Optimizer> Worker(std::unique_ptr<StudyStorage> storage) {
  OptimizerOptions o = testing::CheapOptions(7);
  return std::make_unique<Optimizer>(UnitInterval(), nullptr, "safe-opt", Constrained(), o,
                                     std::move(storage));
}

// Every query of optimizer.h once; each result checked for what holds in any state of the
// study (the copies are consistent in themselves).
void QueryEverything(const Optimizer& opt) {
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 0.4);
  const GaussianProcess gp = opt.model();
  EXPECT_EQ(gp.inputs().cols(), gp.num_observations());
  ASSERT_EQ(opt.num_constraints(), 1);
  const GaussianProcess g = opt.constraint_model(0);
  EXPECT_EQ(g.outputs().size(), g.num_observations());
  EXPECT_GE(opt.t(), 1);
  EXPECT_GE(opt.rounds(), 0);
  EXPECT_GE(opt.num_accepted(), 0);
  EXPECT_GE(opt.num_failed(), 0);
  EXPECT_GE(opt.observations().size(), 0u);
  EXPECT_EQ(opt.pending_actions().rows(), 1);
  EXPECT_EQ(opt.pending_contexts().rows(), 0);
  EXPECT_GE(opt.pending_points().size(), 0u);
  EXPECT_GE(opt.Predict(x).stddev, 0.0);
  EXPECT_GE(opt.PredictConstraint(0, x).stddev, 0.0);
  opt.SafetyMargin(x);
  opt.figure();
  EXPECT_FALSE(opt.figure_name().empty());
  EXPECT_GE(opt.information_gain(), 0.0);
  if (opt.has_fit_report()) opt.last_fit_report();
  opt.last_round_report();
  EXPECT_FALSE(opt.Fingerprint().empty());
  EXPECT_EQ(opt.reward_unit(), 1.0);
  try {
    opt.Best();
  } catch (const std::logic_error&) {
    // Before an accepted observation, or none qualifies yet.
  }
  EXPECT_EQ(opt.domain().action_dim(), 1);
  EXPECT_EQ(opt.strategy_name(), "safe-opt");
  EXPECT_EQ(opt.options().seed, 7u);
  EXPECT_FALSE(opt.worker_id().empty());
  opt.strategy_options();
}

TEST(OptimizerStateTest, QueriesDuringReplicaRebuildsReadConsistentCopies) {
  testing::MemoryStudies server;
  const std::shared_ptr<MemoryStudy> study = server.Get("queries");
  std::unique_ptr<Optimizer> writer = Worker(std::make_unique<MemoryStudyStorage>("writer", study));
  auto rewinding = std::make_unique<RewindingStorage>(study);
  RewindingStorage* storage = rewinding.get();
  std::unique_ptr<Optimizer> reader = Worker(std::move(rewinding));

  std::mutex mutex;
  std::vector<std::string> warnings;
  SetWarningSink([&](const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex);
    warnings.push_back(message);
  });
  std::atomic<bool> done{false};
  std::atomic<int> queries{0};
  std::thread querier([&] {
    while (!done.load()) {
      QueryEverything(*reader);
      ++queries;
    }
  });
  // The querier runs through every query at least once between two rebuilds, and any number of
  // times during one.
  auto after_queries = [&queries](int n) {
    const int seen = queries.load();
    while (queries.load() < seen + n) std::this_thread::yield();
  };
  constexpr int kTells = 12;
  for (int i = 0; i < kTells; ++i) {
    const Eigen::VectorXd x = writer->Ask();
    writer->Tell(x, Eigen::VectorXd(), Reward(x(0)),
                 Eigen::VectorXd::Constant(1, Constraint(x(0))));
    storage->Rewind();
    reader->Sync();
    EXPECT_EQ(reader->observations().size(), static_cast<std::size_t>(i + 1));
    EXPECT_EQ(reader->Fingerprint(), writer->Fingerprint()) << "after tell " << i;
    after_queries(2);
  }
  done = true;
  querier.join();
  SetWarningSink(nullptr);

  // Every sync but the first (nothing replayed yet) rebuilt the replica, and said so.
  EXPECT_EQ(storage->rewinds(), kTells - 1);
  EXPECT_EQ(std::count_if(warnings.begin(), warnings.end(),
                          [](const std::string& w) {
                            return w.find("replaying the study again") != std::string::npos;
                          }),
            kTells - 1);
  EXPECT_GE(queries.load(), 2 * kTells);
}

// A copy stays what it was when taken: later tells and rebuilds change the optimizer, not it.
TEST(OptimizerStateTest, ModelCopiesOutliveLaterCalls) {
  testing::MemoryStudies server;
  const std::shared_ptr<MemoryStudy> study = server.Get("copies");
  std::unique_ptr<Optimizer> opt = Worker(std::make_unique<MemoryStudyStorage>("one", study));
  for (int i = 0; i < 3; ++i) {
    const Eigen::VectorXd x = opt->Ask();
    opt->Tell(x, Eigen::VectorXd(), Reward(x(0)), Eigen::VectorXd::Constant(1, Constraint(x(0))));
  }
  const GaussianProcess reward = opt->model();
  const GaussianProcess constraint = opt->constraint_model(0);
  const Eigen::VectorXd x = opt->Ask();
  opt->Tell(x, Eigen::VectorXd(), Reward(x(0)), Eigen::VectorXd::Constant(1, Constraint(x(0))));
  EXPECT_EQ(reward.num_observations(), 3);
  EXPECT_EQ(constraint.num_observations(), 3);
  EXPECT_EQ(opt->model().num_observations(), 4);
  EXPECT_EQ(opt->constraint_model(0).num_observations(), 4);
  EXPECT_THROW(opt->constraint_model(1), std::out_of_range);
}

}  // namespace
}  // namespace gpbandit
