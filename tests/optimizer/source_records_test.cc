// The copy of a study's sources into its records (optimizer/source_records.h): once at
// creation, never again when the study is joined or resumed.
#include "optimizer/source_records.h"

#include <gtest/gtest.h>

#include <memory>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/source_study.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit {
namespace {

FidelitySpec EightPointSource() {
  FidelitySpec s{"old", 0.0, true, {}};
  for (int i = 0; i < 8; ++i)
    s.observations.push_back({Eigen::Vector2d(0.1 * i, 0.05 * i), Eigen::VectorXd(), 0.5 * i});
  return s;
}

TEST(SourceRecords, CopiesOnceAndNotAgainWhenTheStudyIsJoined) {
  OptimizerOptions o;
  o.sync_log = false;
  o.num_threads = 1;
  o.log_path = testing::TempLogPath("source_records_once");
  AddSources(&o, {EightPointSource()});
  const Domain domain = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1));
  {
    Optimizer opt(domain, nullptr, "gp-ucb", o);
    ASSERT_EQ(opt.observations().size(), 8u);
    for (const Observation& obs : opt.observations()) EXPECT_EQ(obs.fidelity, 0);
    EXPECT_EQ(opt.observations()[3].y, 1.5);
  }
  // The same options again: the study holds the source's records, so nothing is added.
  Optimizer again(domain, nullptr, "gp-ucb", o);
  EXPECT_EQ(again.observations().size(), 8u);
  int tells = 0;
  for (const LogRecord& r : ReadLog(o.log_path).records)
    tells += r.type == LogRecordType::kTell ? 1 : 0;
  EXPECT_EQ(tells, 8);
}

TEST(SourceRecords, AStudyWithoutLogHoldsTheSourceToo) {
  OptimizerOptions o;
  o.num_threads = 1;
  AddSources(&o, {EightPointSource()});
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "gp-ucb", o);
  EXPECT_EQ(opt.observations().size(), 8u);
  EXPECT_EQ(opt.CostSpent(), 0.0);
}

}  // namespace
}  // namespace gpbandit
