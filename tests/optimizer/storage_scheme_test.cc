// An Optimizer on a storage scheme that a user registers at run time (storage_registry.h): one
// Register call, and then OptimizerOptions::storage, Optimizer::Open and a second worker reach
// it; the study it holds is the one a file holds, record for record.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/storage_registry.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/storage/memory_storage.h"
#include "tests/test_domains.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using testing::MemoryStudies;

// The process's memory "server", registered once as the scheme memory://.
MemoryStudies& Server() {
  static MemoryStudies server;
  static const bool registered = [] {
    StorageRegistry::Default().Register("memory", testing::MemoryScheme(&server));
    return true;
  }();
  (void)registered;
  return server;
}

using testing::UnitSquare;

double ShiftedBump(const Eigen::VectorXd& x) {
  return -(x - Eigen::Vector2d(0.3, 0.7)).squaredNorm();
}

OptimizerOptions MemoryStudyOptions(const std::string& study) {
  Server();
  OptimizerOptions o = CheapOptions(5);
  o.initial_design_size = 3;
  o.storage = "memory://lab";
  o.study = study;
  return o;
}

void AskAndTellBumps(Optimizer& opt, int n) {
  for (int i = 0; i < n; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, ShiftedBump(x));
  }
}

// The records of a study, one JSON text per line, without leases and worker names.
std::string RecordsOf(StudyStorage& storage) {
  const std::unique_ptr<StudySession> session = storage.Begin(LockMode::kShared);
  std::string text = session->header() + "\n";
  for (const StudyRecord& r : session->ReadAfter(0)) text += r.json + "\n";
  return testing::WithoutLeases(text);
}

TEST(StorageSchemeTest, OptimizerOptionsStorageReachesARegisteredScheme) {
  Optimizer in_memory(UnitSquare(), nullptr, "gp-ucb", StrategyParams(),
                      MemoryStudyOptions("same-as-file"));
  AskAndTellBumps(in_memory, 7);
  // The same study on a file: the same suggestions, the same records.
  OptimizerOptions file_options = CheapOptions(5);
  file_options.initial_design_size = 3;
  file_options.log_path = testing::TempLogPath("storage_scheme");
  Optimizer on_file(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), file_options);
  AskAndTellBumps(on_file, 7);
  const std::vector<Observation> a = in_memory.observations(), b = on_file.observations();
  ASSERT_EQ(a.size(), 7u);
  ASSERT_EQ(b.size(), 7u);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].x, b[i].x) << i;
  const std::string memory_records = RecordsOf(*OpenStudyStorage("memory://lab", "same-as-file"));
  EXPECT_EQ(memory_records, RecordsOf(*OpenStudyStorage(file_options.log_path, "")));
  // Seven tells among the records (the rest: the header, pending points, fits).
  int tells = 0;
  for (std::size_t at = memory_records.find(R"("type":"tell")"); at != std::string::npos;
       at = memory_records.find(R"("type":"tell")", at + 1))
    ++tells;
  EXPECT_EQ(tells, 7) << memory_records;
  std::remove(file_options.log_path.c_str());
}

TEST(StorageSchemeTest, OpenJoinsAStudyOfARegisteredScheme) {
  Optimizer first(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), MemoryStudyOptions("joined"));
  AskAndTellBumps(first, 4);
  const std::unique_ptr<Optimizer> second = Optimizer::Open("memory://lab", "joined");
  EXPECT_EQ(second->observations().size(), 4u);
  AskAndTellBumps(*second, 2);
  first.Ask();  // syncs from the study first
  EXPECT_EQ(first.observations().size(), 6u);
  const std::vector<StudySummary> studies = ListStudies("memory://lab");
  EXPECT_TRUE(std::any_of(studies.begin(), studies.end(),
                          [](const StudySummary& s) { return s.name == "joined"; }));
  EXPECT_THROW(Optimizer::Open("memory://lab", "no-such-study"), std::runtime_error);
}

}  // namespace
}  // namespace gpbandit
