// What a newcomer meets first: an empty study, a mistyped parameter name, the help's numbers,
// suggestions at the bounds, and the README's own command-line block run as pasted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/parameter_flags.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/numerics/format.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A study with nothing observed cannot be queried: status 2 (a study that cannot be used as
// given, cli/command.h), not 1 (a failure of the work), with a message saying why.
TEST_F(CliTest, BestAndPlotOfAnEmptyStudyAreRefusedWithStatusTwo) {
  ASSERT_EQ(Run("study create --storage empty.jsonl --bounds 0:1").status, 0);
  Result r = Run("best --storage empty.jsonl");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("holds no observations yet"));
  if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  r = Run("plot --storage empty.jsonl --out e.png");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("holds no observations yet"));
}

// A name that is no parameter's, after the last pair of --x, is refused naming it (it used to
// be read as part of the label before it).
TEST_F(CliTest, AnUnknownTrailingNameInXIsRefusedByName) {
  const std::string space =
      "--param kp=log:0.1:100 --param taps=int:1:12 --param mode=cat:pid,lead-lag";
  const Result s = Run("suggest --log g.jsonl " + space);
  ASSERT_EQ(s.status, 0) << s.err;
  const std::string point = FirstLine(s.out);
  for (const std::string& x : {point + " gain=3", std::string("kp=1 gain=3 taps=4 mode=pid")}) {
    const Result o = Run("observe --log g.jsonl --x '" + x + "' --y 1");
    EXPECT_EQ(o.status, 2) << x;
    EXPECT_THAT(o.err, HasSubstr("'gain' in 'gain=3' is not a parameter of this study")) << x;
  }
  // A label with a blank and an '=' stays a label.
  const Result l = Run("suggest --log l.jsonl --param 'op=cat:a b=c,d'");
  ASSERT_EQ(l.status, 0) << l.err;
  const Result o = Run("observe --log l.jsonl --x 'op=a b=c' --y 1");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(Run("observe --log g.jsonl --x '" + point + "' --y 1").status, 0);
}

// run --help states the dim-log schedule's coefficient the strategies use by default.
TEST_F(CliTest, RunHelpStatesTheDefaultDimLogCoefficient) {
  const Result r = Run("run --help");
  ASSERT_EQ(r.status, 0);
  const std::string coefficient = FormatDouble(GpUcbOptions().beta.dim_log_coefficient);
  EXPECT_EQ(coefficient, "0.05");
  std::string help = r.out;  // Boost wraps long lines: join them
  help = std::regex_replace(help, std::regex("\\s+"), " ");
  EXPECT_THAT(help, HasSubstr("dim-log = " + coefficient + " d log(2t)"));
  EXPECT_THAT(help, Not(HasSubstr("dim-log = 0.2")));
}

// A coordinate within rounding of a bound is printed as the bound, and observing the printed
// point answers its suggestion; others keep their shortest round-trip form.
TEST(SuggestionTextTest, ValuesWithinRoundingOfABoundPrintAsTheBound) {
  Eigen::Vector2d lower(0, 0), upper(1, 50);
  const Domain box = Domain::Box(lower, upper);
  EXPECT_EQ(cli::SuggestionText(box, Eigen::Vector2d(7.877e-08, 49.99999993)), "0,50");
  EXPECT_EQ(cli::SuggestionText(box, Eigen::Vector2d(0.1, 49.9)), "0.1,49.9");
  EXPECT_EQ(cli::SuggestionText(box, Eigen::Vector2d(1e-4, 49.999)), "0.0001,49.999");
  const Domain space = Domain::Space(ParameterSpace(
      {Parameter::Real("kp", 0.1, 100, ParameterScale::kLog), Parameter::Integer("taps", 1, 12)}));
  EXPECT_EQ(cli::SuggestionText(space, Eigen::Vector2d(0.10000001, 12)), "kp=0.1 taps=12");
  EXPECT_EQ(cli::SuggestionText(space, Eigen::Vector2d(0.1001, 3)), "kp=0.1001 taps=3");
}

// observe finds the pending point a --x answers as printed: the one whose printed text is the
// same, when no pending point is exactly --x.
TEST(SuggestionTextTest, APointAsPrintedFindsItsPendingSuggestion) {
  const Domain box = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 50));
  PendingPoint near_bound, inside;
  near_bound.x = Eigen::Vector2d(7.877e-08, 3);
  near_bound.trial = 4;
  inside.x = Eigen::Vector2d(0.5, 49.99999993);
  inside.trial = 7;
  const std::vector<PendingPoint> pending = {near_bound, inside};
  const Eigen::VectorXd none;
  EXPECT_EQ(cli::FindPendingPrintedAs(pending, box, Eigen::Vector2d(0, 3), none), 4);
  EXPECT_EQ(cli::FindPendingPrintedAs(pending, box, Eigen::Vector2d(0.5, 50), none), 7);
  EXPECT_EQ(cli::FindPendingPrintedAs(pending, box, near_bound.x, none), -1);  // Tell's own match
  EXPECT_EQ(cli::FindPendingPrintedAs(pending, box, Eigen::Vector2d(0, 3.5), none), -1);
  EXPECT_EQ(cli::FindPendingPrintedAs(pending, box, Eigen::Vector2d(0, 3), Eigen::Vector2d(1, 1)),
            -1);  // another context
}

TEST_F(CliTest, ObservingASuggestionAsPrintedAtABoundReleasesIt) {
  // EI on a linear reward walks to the upper bound: its suggestions end there.
  std::string printed;
  for (int i = 0; i < 12; ++i) {
    const Result s = Run("suggest --log b.jsonl --bounds 0:50 --strategy ei --print-trial");
    ASSERT_EQ(s.status, 0) << s.err;
    printed = FirstLine(s.out);
    const Result o = Run("observe --log b.jsonl --x " + printed + " --y " + printed);
    ASSERT_EQ(o.status, 0) << o.err;
  }
  const auto study = Optimizer::Resume(dir_ + "/b.jsonl");
  EXPECT_TRUE(study->pending_points().empty());
  int at_bound = 0;
  for (const Observation& o : study->observations()) at_bound += o.x(0) == 50.0;
  EXPECT_GE(at_bound, 1) << "no suggestion reached the bound";
  for (const Observation& o : study->observations())
    EXPECT_TRUE(o.x(0) == 50.0 || o.x(0) < 50.0 * (1 - 1e-6)) << FormatDouble(o.x(0));
}

// The sh block of README.md's command-line section, its suggest/observe/plot lines run as a
// person pastes them: every suggestion is answered (nothing stays pending), each log holds the
// value told.
std::string ReadmeCommandLineBlock() {
  // The source tree: the build directory's cache names it (the program is BUILD/cli/gpbandit).
  const std::string program = GPBANDIT_CLI_PATH;
  const std::string build = program.substr(0, program.rfind("/cli/"));
  std::ifstream cache(build + "/CMakeCache.txt");
  std::string line, source;
  while (std::getline(cache, line))
    if (line.rfind("CMAKE_HOME_DIRECTORY:INTERNAL=", 0) == 0)
      source = line.substr(line.find('=') + 1);
  const std::string readme = ReadAll(source + "/README.md");
  const std::size_t section = readme.find("### The command line");
  const std::size_t start = readme.find("```sh\n", section);
  const std::size_t end = readme.find("```", start + 6);
  if (section == std::string::npos || start == std::string::npos || end == std::string::npos)
    return "";
  return readme.substr(start + 6, end - start - 6);
}

TEST_F(CliTest, TheReadmesCommandLineBlockObservesWhatItSuggested) {
  const std::string block = ReadmeCommandLineBlock();
  ASSERT_THAT(block, HasSubstr("gpbandit suggest")) << "README.md not found or changed";
  // Its ask/tell lines (a line ending in '\' goes on), with the built program for gpbandit.
  std::istringstream lines(block);
  std::string line, script, command;
  while (std::getline(lines, line)) {
    command += line + "\n";
    if (!line.empty() && line.back() == '\\') continue;
    const bool ask_tell =
        command.find("suggest") != std::string::npos ||
        command.find("observe") != std::string::npos ||
        (command.find("plot --log gains") != std::string::npos && GnuplotInstalled());
    if (ask_tell) script += command;
    command.clear();
  }
  script = std::regex_replace(script, std::regex("gpbandit "),
                              std::string("'") + GPBANDIT_CLI_PATH + "' ");
  Write("block.sh", "set -e\n" + script);
  ASSERT_EQ(
      std::system(("cd '" + dir_ + "' && GLOG_minloglevel=3 sh block.sh 2> block.err").c_str()), 0)
      << script << ReadAll(dir_ + "/block.err");
  for (const std::string log : {"runs.jsonl", "gains.jsonl", "pid.jsonl"}) {
    const auto study = Optimizer::Resume(dir_ + "/" + log);
    EXPECT_EQ(study->num_accepted(), 1) << log;
    EXPECT_TRUE(study->pending_points().empty()) << log << ": the suggestion was not observed";
  }
  EXPECT_EQ(Optimizer::Resume(dir_ + "/gains.jsonl")->options().sense, ObjectiveSense::kMinimize);
  // The study of several outcomes recorded all three, by name.
  const auto pid = Optimizer::Resume(dir_ + "/pid.jsonl");
  EXPECT_EQ(pid->options().outcomes.num_outcomes(), 3);
  ASSERT_EQ(pid->observations().size(), 1u);
  EXPECT_EQ(pid->observations()[0].y, 0.62);
}

}  // namespace
}  // namespace gpbandit
