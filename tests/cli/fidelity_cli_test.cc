// Several fidelities on the command line (cli/fidelity_flags.h): suggest prints the fidelity to
// evaluate at, observe takes it (else the suggestion's, else the target), refused values leave
// the study byte for byte as it was, workers find it in GPBANDIT_FIDELITY or run a command per
// fidelity, and best answers at the target with the cost spent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

const char* kFidelities = "--fidelity sim:1 --fidelity robot:20";

std::vector<std::string> LinesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string RewardText(double x) {
  std::ostringstream s;
  s.precision(17);
  s << -(x - 0.3) * (x - 0.3);
  return s.str();
}

// The round trip a shell loop makes: the point on the first line, "fidelity NAME" on the
// second, the trial on the third with --print-trial; observe without --fidelity records the
// value at the fidelity suggest gave.
TEST_F(CliTest, SuggestPrintsTheFidelityAndObserveRecordsIt) {
  bool saw_sim = false;
  for (int round = 0; round < 12 && !saw_sim; ++round) {
    Result s = Run(std::string("suggest --log f.jsonl --bounds 0:1 --seed 3 --print-trial ") +
                   (round == 0 ? kFidelities : ""));
    ASSERT_EQ(s.status, 0) << s.err;
    const std::vector<std::string> lines = LinesOf(s.out);
    ASSERT_EQ(lines.size(), 3u) << s.out;
    ASSERT_EQ(lines[1].rfind("fidelity ", 0), 0u) << s.out;
    const std::string name = lines[1].substr(9);
    ASSERT_TRUE(name == "sim" || name == "robot") << name;
    EXPECT_EQ(lines[2], "trial " + std::to_string(round));
    const double x = std::stod(lines[0]);
    Result o = Run("observe --log f.jsonl --x " + lines[0] + " --y " + RewardText(x));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_THAT(o.err, HasSubstr("at fidelity " + name));
    const auto study = Optimizer::Resume(dir_ + "/f.jsonl");
    ASSERT_EQ(study->observations().size(), static_cast<std::size_t>(round + 1));
    EXPECT_EQ(study->observations().back().fidelity, name == "sim" ? 0 : 1);
    saw_sim = name == "sim";
  }
  EXPECT_TRUE(saw_sim) << "no suggestion at the simulator in 12 rounds";
  // --fidelity NAME overrides, and a point nobody suggested is told at the target by default.
  ASSERT_EQ(Run("observe --log f.jsonl --x 0.9 --y -0.36 --fidelity sim").status, 0);
  ASSERT_EQ(Run("observe --log f.jsonl --x 0.1 --y -0.04").status, 0);
  const auto study = Optimizer::Resume(dir_ + "/f.jsonl");
  const std::vector<Observation> obs = study->observations();
  EXPECT_EQ(obs[obs.size() - 2].fidelity, 0);
  EXPECT_EQ(obs.back().fidelity, 1);
  EXPECT_EQ(study->options().fidelities.levels.size(), 2u);
  EXPECT_EQ(study->options().fidelities.levels[0].name, "sim");
  EXPECT_EQ(study->options().fidelities.levels[1].cost, 20.0);
}

TEST_F(CliTest, ObserveRefusesAnUnknownFidelityAndLeavesTheLogAsItWas) {
  ASSERT_EQ(Run(std::string("observe --log f.jsonl --bounds 0:1 ") + kFidelities +
                " --x 0.5 --y 1 --fidelity sim")
                .status,
            0);
  const std::string before = ReadAll(dir_ + "/f.jsonl");
  Result r = Run("observe --log f.jsonl --x 0.4 --y 2 --fidelity lab");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--fidelity lab is not a fidelity"));
  EXPECT_THAT(r.err, HasSubstr("sim, robot"));
  EXPECT_EQ(ReadAll(dir_ + "/f.jsonl"), before);
  // Fidelities other than the study's, or a study's whose costs differ, likewise.
  r = Run("suggest --log f.jsonl --fidelity sim:1 --fidelity robot:30");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("robot:30"));
  EXPECT_EQ(ReadAll(dir_ + "/f.jsonl"), before);
  for (const char* flags :
       {"--fidelity-model icm", "--fidelity-rule threshold", "--fidelity-min-correlation 0.5"}) {
    r = Run(std::string("suggest --log f.jsonl ") + flags);
    EXPECT_EQ(r.status, 2) << flags;
    EXPECT_THAT(r.err, HasSubstr(flags)) << flags;
    EXPECT_EQ(ReadAll(dir_ + "/f.jsonl"), before) << flags;
  }
  // The study's own values are accepted.
  ASSERT_EQ(Run(std::string("suggest --log f.jsonl --fidelity-model autoregressive ") +
                "--fidelity-rule information --fidelity-min-correlation 0.3 " + kFidelities)
                .status,
            0);
  // A refused first call creates no log.
  r = Run(std::string("observe --log new.jsonl --bounds 0:1 ") + kFidelities +
          " --x 0.5 --y 1 --fidelity lab");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("lab"));
  EXPECT_NE(std::ifstream(dir_ + "/new.jsonl").good(), true);
}

TEST_F(CliTest, BadFidelityDeclarationsAreRefused) {
  for (const char* flags : {"--fidelity robot:20 --fidelity sim:1", "--fidelity sim:1",
                            "--fidelity sim:0 --fidelity "
                            "robot:1",
                            "--fidelity sim:x --fidelity robot:2", "--fidelity-model icm",
                            "--fidelity sim:1 --fidelity robot:2 --fidelity-rule best",
                            "--fidelity sim:1 --fidelity robot:2 --fidelity-min-correlation 2"}) {
    Result r = Run(std::string("suggest --log f.jsonl --bounds 0:1 ") + flags);
    EXPECT_EQ(r.status, 2) << flags << "\n" << r.err;
    EXPECT_NE(std::ifstream(dir_ + "/f.jsonl").good(), true) << flags;
  }
  Result r = Run("observe --log g.jsonl --bounds 0:1 --x 0.5 --y 1 --fidelity sim");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("has no fidelities"));
}

// pending lists each point's fidelity in a last column.
TEST_F(CliTest, PendingListsTheFidelityOfEachPoint) {
  Result s = Run(std::string("suggest --log f.jsonl --bounds 0:1 ") + kFidelities);
  ASSERT_EQ(s.status, 0) << s.err;
  const std::string name = LinesOf(s.out)[1].substr(9);
  Result r = Run("pending --log f.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = LinesOf(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_EQ(lines[0], "round\tworker\tlease\tx\tz\ttrial\tfidelity");
  EXPECT_EQ(lines[1].substr(lines[1].rfind('\t') + 1), name);
  EXPECT_THAT(lines[1], HasSubstr("\t0\t" + name));
}

// A study without fidelities prints as before: the point alone (and the trial when asked).
TEST_F(CliTest, SuggestWithoutFidelitiesPrintsNoFidelityLine) {
  Result r = Run("suggest --log f.jsonl --bounds 0:1 --print-trial");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = LinesOf(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_EQ(lines[1], "trial 0");
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("fidelity")));
}

// A worker finds the fidelity in its environment; --command-for runs another command for one
// fidelity; each told line ends with the fidelity's name, as the study records it.
TEST_F(CliTest, WorkerPassesTheFidelityAndRunsACommandPerFidelity) {
  ASSERT_EQ(Run(std::string("study create --storage s.jsonl --bounds 0:1 --seed 5 ") + kFidelities)
                .status,
            0);
  Write("robot.sh",
        "echo \"robot $GPBANDIT_FIDELITY $GPBANDIT_FIDELITY_COST\" >> seen.txt\n"
        "echo 0\n");
  Write("sim.sh",
        "echo \"sim $GPBANDIT_FIDELITY $GPBANDIT_FIDELITY_COST\" >> seen.txt\n"
        "echo 0.5\n");
  Result r =
      Run("worker --storage s.jsonl --evaluations 8 --command-for 'sim=sh sim.sh' -- sh "
          "robot.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> told = LinesOf(r.out);
  const std::vector<std::string> seen = LinesOf(ReadAll(dir_ + "/seen.txt"));
  ASSERT_EQ(told.size(), 8u) << r.out;
  ASSERT_EQ(seen.size(), 8u);
  const auto study = Optimizer::Open(dir_ + "/s.jsonl", "");
  const std::vector<Observation> obs = study->observations();
  ASSERT_EQ(obs.size(), 8u);
  double cost = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    const std::string name = told[i].substr(told[i].rfind(',') + 1);
    // The command run was the fidelity's, and it saw its name and cost.
    EXPECT_EQ(seen[i], name == "sim" ? "sim sim 1" : "robot robot 20") << i;
    EXPECT_EQ(obs[i].fidelity, name == "sim" ? 0 : 1) << i;
    EXPECT_EQ(obs[i].y, name == "sim" ? 0.5 : 0.0) << i;
    cost += name == "sim" ? 1 : 20;
  }
  EXPECT_DOUBLE_EQ(study->CostSpent(), cost);
  // Every fidelity needs a command; --command-for names a fidelity of the study.
  r = Run("worker --storage s.jsonl --evaluations 1 --command-for 'sim=sh sim.sh'");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("no command for the fidelity robot"));
  r = Run("worker --storage s.jsonl --evaluations 1 --command-for 'lab=sh sim.sh' -- sh robot.sh");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--command-for lab is not a fidelity"));
}

// A simulator farm beside one robot: two real worker processes on one shared study, each
// evaluating at its own fidelity (a bare --fidelity NAME), at the same time; suggest takes the
// same flag, and a fidelity the study does not have is refused with the study unchanged.
TEST_F(CliTest, WorkersEachEvaluateAtTheirOwnFidelityOnOneStudy) {
  ASSERT_EQ(Run(std::string("study create --storage s.jsonl --bounds 0:1 --seed 3 ") + kFidelities)
                .status,
            0);
  Write("sim.sh", "echo \"$GPBANDIT_FIDELITY\" >> sim_seen.txt\necho 0.5\n");
  Write("robot.sh", "echo \"$GPBANDIT_FIDELITY\" >> robot_seen.txt\necho 0.25\n");
  const std::string g = std::string("GLOG_minloglevel=3 '") + GPBANDIT_CLI_PATH + "'";
  Write("farm.sh",
        g + " worker --storage s.jsonl --fidelity sim --evaluations 6 -- sh sim.sh " +
            "> sim.out 2> sim.err &\n" + g +
            " worker --storage s.jsonl --fidelity robot --evaluations 3 -- sh robot.sh " +
            "> robot.out 2> robot.err\nwait\n");
  ASSERT_EQ(std::system(("cd '" + dir_ + "' && sh farm.sh").c_str()), 0)
      << ReadAll(dir_ + "/sim.err") << ReadAll(dir_ + "/robot.err");
  EXPECT_EQ(LinesOf(ReadAll(dir_ + "/sim_seen.txt")), std::vector<std::string>(6, "sim"));
  EXPECT_EQ(LinesOf(ReadAll(dir_ + "/robot_seen.txt")), std::vector<std::string>(3, "robot"));
  const auto study = Optimizer::Open(dir_ + "/s.jsonl", "");
  int at_sim = 0, at_robot = 0;
  for (const Observation& o : study->observations()) {
    at_sim += o.fidelity == 0 ? 1 : 0;
    at_robot += o.fidelity == 1 ? 1 : 0;
    EXPECT_EQ(o.y, o.fidelity == 0 ? 0.5 : 0.25);
  }
  EXPECT_EQ(at_sim, 6);
  EXPECT_EQ(at_robot, 3);
  EXPECT_DOUBLE_EQ(study->CostSpent(), 6 * 1.0 + 3 * 20.0);

  Result r = Run("suggest --storage s.jsonl --fidelity sim");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(LinesOf(r.out).size(), 2u) << r.out;
  EXPECT_EQ(LinesOf(r.out)[1], "fidelity sim");
  const std::string before = ReadAll(dir_ + "/s.jsonl");
  r = Run("worker --storage s.jsonl --fidelity lab --evaluations 1 -- sh robot.sh");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("worker.fidelity 'lab' is not a fidelity the study declares"));
  r = Run("suggest --storage s.jsonl --fidelity lab");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(ReadAll(dir_ + "/s.jsonl"), before);
}

// A simulator worker and a robot told by hand on one shared study; best recommends among the
// target's observations (the simulator's far higher value is not the robot's), and best and
// study show give the cost spent: one robot episode and three simulations, 20 + 3.
TEST_F(CliTest, SharedStudyBestAtTheTargetWithTheCostSpent) {
  ASSERT_EQ(Run(std::string("study create --storage s.jsonl --bounds 0:1 ") + kFidelities +
                " --fidelity-model icm --fidelity-rule threshold --fidelity-min-correlation 0.1")
                .status,
            0);
  ASSERT_EQ(Run("observe --storage s.jsonl --x 0.2 --y 1 --fidelity robot").status, 0);
  for (const char* x : {"0.8", "0.7", "0.9"})
    ASSERT_EQ(
        Run(std::string("observe --storage s.jsonl --x ") + x + " --y 100 --fidelity sim").status,
        0);
  Result r = Run("best --storage s.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "0.2\n");
  EXPECT_THAT(r.err, HasSubstr("at the target robot, cost spent 23"));
  r = Run("study show --storage s.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cost_spent"].get<double>(), 23.0);
  EXPECT_EQ(j["fidelities"]["target"], "robot");
  EXPECT_EQ(j["fidelities"]["model"], "icm");
  EXPECT_EQ(j["fidelities"]["rule"], "threshold");
  EXPECT_EQ(j["fidelities"]["min_correlation"].get<double>(), 0.1);
  EXPECT_EQ(j["fidelities"]["levels"][0]["told"].get<int>(), 3);
  EXPECT_EQ(j["fidelities"]["levels"][1]["told"].get<int>(), 1);
  EXPECT_EQ(j["best"]["x"], "0.2");
  // predict answers at the target, or at the fidelity named.
  r = Run("predict --storage s.jsonl --x 0.8 --fidelity sim");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_GT(std::stod(r.out), 50.0);
  r = Run("predict --storage s.jsonl --x 0.8 --fidelity lab");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("lab"));
}

}  // namespace
}  // namespace gpbandit
