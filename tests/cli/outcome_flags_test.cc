// One vocabulary for what a told value means and what a failed evaluation does: --sense and
// --failures, with the same values, in suggest, observe, study create and worker; the messages
// name the flag a user can pass.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The first line of a command's output, without its newline.

// suggest's first call takes --failures; a NaN is then recorded as failed (skip), and under
// the default (throw) it is refused with a message that names --failures, not an option the
// command line does not have.
TEST_F(CliTest, SuggestAndObserveTakeFailuresAndTheNanMessageNamesIt) {
  Result s = Run("suggest --log refuse.jsonl --bounds 0:1");
  ASSERT_EQ(s.status, 0) << s.err;
  Result o = Run("observe --log refuse.jsonl --x '" + FirstLine(s.out) + "' --y nan");
  EXPECT_EQ(o.status, 2);
  EXPECT_THAT(o.err, HasSubstr("--y nan is not finite"));
  EXPECT_THAT(o.err, HasSubstr("--failures skip"));
  EXPECT_THAT(o.err, Not(HasSubstr("non_finite_rewards")));
  EXPECT_EQ(Optimizer::Resume(dir_ + "/refuse.jsonl")->observations().size(), 0u);

  s = Run("suggest --log skip.jsonl --bounds 0:1 --failures skip");
  ASSERT_EQ(s.status, 0) << s.err;
  o = Run("observe --log skip.jsonl --x '" + FirstLine(s.out) + "' --y nan");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto skip = Optimizer::Resume(dir_ + "/skip.jsonl");
  EXPECT_EQ(skip->num_failed(), 1);
  EXPECT_EQ(skip->options().non_finite_rewards, NonFiniteRewardPolicy::kSkip);
  EXPECT_TRUE(skip->pending_points().empty());
  // Later calls may restate the study's policy, never change it.
  EXPECT_EQ(Run("suggest --log skip.jsonl --failures skip").status, 0);
  o = Run("suggest --log skip.jsonl --failures impute-worst");
  EXPECT_EQ(o.status, 2);
  EXPECT_THAT(o.err, HasSubstr("--failures impute-worst differs from the study's --failures skip"));
  o = Run("suggest --log bad.jsonl --bounds 0:1 --failures ignore");
  EXPECT_EQ(o.status, 2);
  EXPECT_THAT(o.err, HasSubstr("--failures 'ignore' is unknown; known: skip, impute-worst, throw"));
}

// The study's own options given as strategy options are refused naming the flag to use.
TEST_F(CliTest, StudyOptionsAsStrategyOptionsPointToTheirFlags) {
  Result r = Run("suggest --log a.jsonl --bounds 0:1 --option non_finite_rewards=skip");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("give it as --failures skip"));
  r = Run("study create --storage b.jsonl --bounds 0:1 --option sense=minimize");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("give it as --sense minimize"));
}

// study create takes --sense and --failures as suggest does; worker accepts them when they are
// the study's and refuses them otherwise, before evaluating anything.
TEST_F(CliTest, StudyCreateAndWorkerShareSenseAndFailures) {
  Result r =
      Run("study create --storage s.jsonl --bounds 0:1 --sense minimize --failures "
          "impute-worst");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto study = Optimizer::Resume(dir_ + "/s.jsonl");
  EXPECT_EQ(study->options().sense, ObjectiveSense::kMinimize);
  EXPECT_EQ(study->options().non_finite_rewards, NonFiniteRewardPolicy::kImputeWorst);
  r = Run("study create --storage bad.jsonl --bounds 0:1 --sense lower");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--sense 'lower' is unknown; known: maximize, minimize"));

  Write("cost.sh", "#!/bin/sh\necho 0.25\n");
  ASSERT_EQ(std::system(("chmod +x '" + dir_ + "/cost.sh'").c_str()), 0);
  r = Run("worker --storage s.jsonl --sense maximize --evaluations 1 -- ./cost.sh");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--sense maximize differs from the study's sense minimize"));
  r = Run("worker --storage s.jsonl --failures skip --evaluations 1 -- ./cost.sh");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--failures skip differs from the study's --failures impute-worst"));
  EXPECT_EQ(Optimizer::Resume(dir_ + "/s.jsonl")->observations().size(), 0u);
  r =
      Run("worker --storage s.jsonl --sense minimize --failures impute-worst --evaluations 1 "
          "-- ./cost.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Optimizer::Resume(dir_ + "/s.jsonl")->num_accepted(), 1);
  for (const std::string command : {"suggest", "observe", "study create", "worker"}) {
    const Result help = Run(command + " --help");
    EXPECT_THAT(help.out, HasSubstr("--sense")) << command;
    EXPECT_THAT(help.out, HasSubstr("--failures")) << command;
  }
}

// A minimized study reports its best value as a cost, with the sense stated.
TEST_F(CliTest, StudyShowReportsAMinimizedStudysBestAsACost) {
  const Result s = Run("suggest --log m.jsonl --bounds 0:1 --sense minimize");
  ASSERT_EQ(s.status, 0) << s.err;
  ASSERT_EQ(Run("observe --log m.jsonl --x '" + FirstLine(s.out) + "' --y 3.5").status, 0);
  const Result show = Run("study show --storage m.jsonl");
  ASSERT_EQ(show.status, 0) << show.err;
  const nlohmann::json j = nlohmann::json::parse(show.out);
  EXPECT_EQ(j.at("sense"), "minimize");
  EXPECT_EQ(j.at("failures"), "throw");
  EXPECT_EQ(j.at("best").at("observed_cost"), 3.5);
  EXPECT_FALSE(j.at("best").contains("observed_reward"));
  const Result best = Run("best --log m.jsonl");
  ASSERT_EQ(best.status, 0) << best.err;
  EXPECT_THAT(best.err, HasSubstr("observed cost 3.5"));
}

}  // namespace
}  // namespace gpbandit
