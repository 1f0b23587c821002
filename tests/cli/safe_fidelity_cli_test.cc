// safe-opt with fidelities on the command line (docs/fidelities.md, "Safety across fidelities"):
// a safety threshold on the reward, suggest at either fidelity, observe at the suggestion's,
// best at the target inside the safe set; --g (constraint signals) is not told with fidelities.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

// A reward with its limit >= 0 on [0, 1]: 0.25 - (x - 0.4)^2, safe on [-0.1, 0.9].
std::string Value(double x) {
  std::ostringstream s;
  s.precision(17);
  s << 0.25 - (x - 0.4) * (x - 0.4);
  return s.str();
}

TEST_F(CliTest, SafeOptWithFidelitiesRunsEndToEnd) {
  const std::string create =
      "suggest --log s.jsonl --bounds 0:1 --strategy safe-opt --option threshold=0 "
      "--option seeds=[[0.4]] --fidelity sim:1 --fidelity robot:10";
  int target = 0, unsafe = 0;
  for (int i = 0; i < 8; ++i) {
    const Result r = Run(i == 0 ? create : "suggest --log s.jsonl");
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out);
    std::string x, word, fidelity;
    std::getline(lines, x);
    lines >> word >> fidelity;
    ASSERT_EQ(word, "fidelity") << r.out;
    if (fidelity == "robot") {
      ++target;
      unsafe += 0.25 - std::pow(std::stod(x) - 0.4, 2) < 0.0;
    }
    const Result o = Run("observe --log s.jsonl --x " + x + " --y " + Value(std::stod(x)));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_THAT(o.err, HasSubstr("at fidelity " + fidelity));
  }
  EXPECT_GT(target, 0);
  EXPECT_EQ(unsafe, 0);
  const Result best = Run("best --log s.jsonl");
  ASSERT_EQ(best.status, 0) << best.err;
  EXPECT_THAT(best.err, HasSubstr("at the target robot"));
  EXPECT_THAT(best.err, HasSubstr("inside the safe set"));
}

TEST_F(CliTest, SafeOptConstraintSignalsAreNotToldWithFidelitiesYet) {
  ASSERT_EQ(Run("suggest --log g.jsonl --bounds 0:1 --strategy safe-opt --option "
                "constraint_thresholds=[0] --option seeds=[[0.4]] --fidelity sim:1 "
                "--fidelity robot:10")
                .status,
            0);
  const Result r = Run("observe --log g.jsonl --x 0.4 --y 1 --g 0.2");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--g"));
}

}  // namespace
}  // namespace gpbandit
