// Earlier studies as sources on the command line (--source [NAME:]PATH, cli/fidelity_flags.h):
// a new log takes a finished study's observations as a source level, refuses a missing file or
// another domain naming the file and writing nothing, and a joined study accepts --source only
// for the sources it has.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

// A finished study of 10 points in the temp dir: `name`, on the unit square.
void WriteOldStudy(const std::string& dir, const std::string& name) {
  OptimizerOptions o;
  o.sync_log = false;
  o.log_path = dir + "/" + name;
  Optimizer old(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "gp-ucb", o);
  for (int i = 0; i < 10; ++i) {
    const Eigen::Vector2d x(0.1 * i, 1.0 - 0.1 * i);
    old.Tell(x, -(x - Eigen::Vector2d(0.3, 0.6)).squaredNorm());
  }
}

bool FileIn(const std::string& dir, const std::string& name) {
  return std::ifstream(dir + "/" + name).good();
}

TEST_F(CliTest, ANewLogTakesAnEarlierStudyAsASource) {
  WriteOldStudy(dir_, "old.jsonl");
  Result s = Run("suggest --log new.jsonl --bounds 0:1,0:1 --seed 2 --source old.jsonl");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_THAT(s.out, HasSubstr("\nfidelity target\n"));
  const auto study = Optimizer::Resume(dir_ + "/new.jsonl");
  ASSERT_EQ(study->options().fidelities.num_fidelities(), 2);
  EXPECT_EQ(study->options().fidelities.levels[0].name, "old");
  EXPECT_TRUE(study->options().fidelities.levels[0].source);
  ASSERT_EQ(study->observations().size(), 10u);
  for (const Observation& o : study->observations()) EXPECT_EQ(o.fidelity, 0);
  EXPECT_EQ(study->CostSpent(), 0.0);
  // Joined again: the source it has is accepted (and not copied twice), another refused.
  Result again = Run("suggest --log new.jsonl --source old.jsonl");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(Optimizer::Resume(dir_ + "/new.jsonl")->observations().size(), 10u);
  Result other = Run("suggest --log new.jsonl --source past:old.jsonl");
  EXPECT_NE(other.status, 0);
  EXPECT_THAT(other.err, HasSubstr("the study has no source 'past'"));
}

TEST_F(CliTest, ANamedSourceAndSimulatorFidelities) {
  WriteOldStudy(dir_, "old.jsonl");
  Result s =
      Run("suggest --log new.jsonl --bounds 0:1,0:1 --source past:old.jsonl --fidelity sim:1 "
          "--fidelity robot:10");
  ASSERT_EQ(s.status, 0) << s.err;
  const auto study = Optimizer::Resume(dir_ + "/new.jsonl");
  const FidelityOptions& f = study->options().fidelities;
  ASSERT_EQ(f.num_fidelities(), 3);
  EXPECT_EQ(f.levels[0].name, "past");
  EXPECT_EQ(f.levels[1].name, "sim");
  EXPECT_EQ(f.levels[2].name, "robot");
  // The declaring flags again: the study's fidelities above its source.
  Result again = Run("suggest --log new.jsonl --fidelity sim:1 --fidelity robot:10");
  EXPECT_EQ(again.status, 0) << again.err;
}

// study create copies the source into the new shared study; on an existing one it adds
// nothing.
TEST_F(CliTest, StudyCreateTakesASource) {
  WriteOldStudy(dir_, "old.jsonl");
  Result c = Run("study create --storage shared.jsonl --bounds 0:1,0:1 --source old.jsonl");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_THAT(c.err, HasSubstr("created"));
  EXPECT_EQ(Optimizer::Resume(dir_ + "/shared.jsonl")->observations().size(), 10u);
  Result again = Run("study create --storage shared.jsonl --bounds 0:1,0:1 --source old.jsonl");
  EXPECT_NE(again.status, 0);
  EXPECT_THAT(again.err, HasSubstr("exists already"));
  EXPECT_EQ(Optimizer::Resume(dir_ + "/shared.jsonl")->observations().size(), 10u);
}

TEST_F(CliTest, ABadSourceIsRefusedNamingTheFileAndNothingIsWritten) {
  Result missing = Run("suggest --log new.jsonl --bounds 0:1,0:1 --source nope.jsonl");
  EXPECT_NE(missing.status, 0);
  EXPECT_THAT(missing.err, HasSubstr("source 'nope' (nope.jsonl): no such file"));
  EXPECT_FALSE(FileIn(dir_, "new.jsonl"));
  WriteOldStudy(dir_, "old.jsonl");
  Result wider = Run("suggest --log new.jsonl --bounds 0:2,0:1 --source old.jsonl");
  EXPECT_NE(wider.status, 0);
  EXPECT_THAT(wider.err, HasSubstr("old.jsonl): its domain.upper[0] = 1.0, not 2.0"));
  EXPECT_FALSE(FileIn(dir_, "new.jsonl"));
  Write("bad.jsonl", "not json\n");
  Result bad = Run("suggest --log new.jsonl --bounds 0:1,0:1 --source bad.jsonl");
  EXPECT_NE(bad.status, 0);
  EXPECT_THAT(bad.err, HasSubstr("bad.jsonl"));
  EXPECT_FALSE(FileIn(dir_, "new.jsonl"));
}

}  // namespace
}  // namespace gpbandit
