// The fixture of the multi-process shared-study tests (shared_study_test.cc,
// shared_faults_test.cc), parameterized by the backend ("file" or "postgresql"): a fresh
// directory, the study (a file in it, or a study of the program's PostgreSQL server named after
// the test), worker processes (study_worker.cc), and the check that each worker's model after
// its last tell is a replay of the study up to that tell.
#ifndef GPBANDIT_TESTS_SHARED_SHARED_STUDY_FIXTURE_H_
#define GPBANDIT_TESTS_SHARED_SHARED_STUDY_FIXTURE_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/shared/child_process.h"
#include "tests/shared/shared_study_util.h"
#include "tests/storage/postgres_environment.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace testing {

// Where a run's study lives: a file, or a study of the test server.
struct Backend {
  std::string url, study;
};

class SharedStudyTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpbandit_shared_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    if (GetParam() == "postgresql") {
      REQUIRE_POSTGRES();
      backend_ = {PostgresServer()->Url(),
                  ::testing::UnitTest::GetInstance()->current_test_info()->name()};
    } else {
      backend_ = {dir_ + "/study.jsonl", ""};
    }
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  // A new study: a 2-D box, GP-UCB, a small maximizer, fits only while data are few (a fit at
  // t = 600 under the lock would dominate the run), one OpenMP thread per worker.
  void CreateStudy() {
    OptimizerOptions o;
    o.seed = 7;
    o.maximizer_raw_samples = 16;
    o.maximizer_starts = 1;
    o.maximizer_iterations = 10;
    o.refit.every_while_small = 4;
    o.refit.small_until = 40;
    o.refit.every = 1000000;
    o.fit.max_iterations = 20;
    o.num_threads = 1;
    Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "gp-ucb",
                  StrategyParams(), o, OpenStudyStorage(backend_.url, backend_.study));
    ASSERT_TRUE(opt.CreateStudy());
  }

  // options: study_worker's NAME=VALUE options beyond eval_us.
  Child StartWorker(long rounds, long until_told, double lease, long eval_us,
                    const std::vector<std::string>& options = {}) {
    const std::string name = dir_ + "/worker" + std::to_string(started_++);
    std::vector<std::string> argv = {STUDY_WORKER_PATH,
                                     backend_.url,
                                     backend_.study.empty() ? "-" : backend_.study,
                                     std::to_string(rounds),
                                     std::to_string(until_told),
                                     std::to_string(lease),
                                     "eval_us=" + std::to_string(eval_us)};
    argv.insert(argv.end(), options.begin(), options.end());
    return Spawn(argv, name + ".out", name + ".err");
  }

  // Each worker's fingerprint after its last tell equals a replay of the study up to that tell.
  void ExpectWorkersHeldTheReplayedModel(const std::vector<Child>& workers) {
    std::string header;
    const std::vector<LogRecord> records = StudyRecords(backend_.url, backend_.study, &header);
    GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
    for (const std::string& worker : ReplayMismatches(header, records, workers, dir_))
      ADD_FAILURE() << "its model is not the study's replayed: " << worker;
  }

  std::string dir_;
  Backend backend_;
  int started_ = 0;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_SHARED_SHARED_STUDY_FIXTURE_H_
