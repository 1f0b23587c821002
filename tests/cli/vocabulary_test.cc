// One vocabulary across the program's subcommands (cli/README.md, "One vocabulary"): the
// strategies are --strategy, the rounds --rounds, the repetitions --trials, every noise a
// standard deviation (--noise-sd), one default kernel, one grammar of --option; the old
// spellings still work for one release, with a warning that names the new flag.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The column `name` of a CSV file with a header line.
std::vector<double> Column(const std::string& csv, const std::string& name) {
  std::stringstream in(csv);
  std::string line, item;
  std::getline(in, line);
  std::stringstream header(line);
  int index = 0;
  while (std::getline(header, item, ',') && item != name) ++index;
  std::vector<double> values;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    for (int i = 0; i <= index; ++i) std::getline(row, item, ',');
    values.push_back(std::stod(item));
  }
  return values;
}

// An old spelling and its replacement: the same command with each, whose result (`file`, or
// the standard output when empty) must be byte for byte the same.
struct Respelling {
  std::string old_args, new_args, old_flag, new_flag, file;
};

std::vector<Respelling> Respellings() {
  return {
      {"run --grid 30 --T 6 --trials 2 --out r.csv",
       "run --grid 30 --rounds 6 --trials 2 --out r.csv", "--T", "--rounds", "r.csv"},
      // --noise was a variance: 0.25 is the standard deviation 0.5.
      {"run --grid 30 --rounds 6 --trials 2 --noise 0.25 --out r.csv",
       "run --grid 30 --rounds 6 --trials 2 --noise-sd 0.5 --out r.csv", "--noise",
       "--noise-sd SD, the standard deviation", "r.csv"},
      {"demo --episodes 5 --brute-force-points 5 --plot '' --out d.csv",
       "demo --rounds 5 --brute-force-points 5 --plot '' --out d.csv", "--episodes", "--rounds",
       "d.csv"},
      {"demo --rounds 5 --brute-force-points 5 --plot '' --reward-noise 0.05 --out d.csv",
       "demo --rounds 5 --brute-force-points 5 --plot '' --noise-sd 0.05 --out d.csv",
       "--reward-noise", "--noise-sd", "d.csv"},
      {"safe-demo --episodes 6 --trials 1 --brute-force-points 7 --strategy safe-opt --threads 1",
       "safe-demo --rounds 6 --trials 1 --brute-force-points 7 --strategy safe-opt --threads 1",
       "--episodes", "--rounds", ""},
      {"safe-demo --rounds 6 --seeds 1 --brute-force-points 7 --strategy safe-opt --threads 1",
       "safe-demo --rounds 6 --trials 1 --brute-force-points 7 --strategy safe-opt --threads 1",
       "--seeds", "--trials", ""},
      {"safe-demo --rounds 6 --trials 1 --brute-force-points 7 --strategies safe-opt --threads 1",
       "safe-demo --rounds 6 --trials 1 --brute-force-points 7 --strategy safe-opt --threads 1",
       "--strategies", "--strategy", ""},
      {"safe-demo --rounds 6 --trials 1 --grid-points 7 --strategy safe-opt --threads 1",
       "safe-demo --rounds 6 --trials 1 --brute-force-points 7 --strategy safe-opt --threads 1",
       "--grid-points", "--brute-force-points", ""},
      {"safe-demo --rounds 6 --trials 1 --brute-force-points 7 --strategy safe-opt --threads 1 "
       "--peak-noise 0.02",
       "safe-demo --rounds 6 --trials 1 --brute-force-points 7 --strategy safe-opt --threads 1 "
       "--peak-noise-sd 0.02",
       "--peak-noise", "--peak-noise-sd", ""},
      {"drift-demo --episodes 8 --drift 2:4 --measured 2 --seeds 1 --brute-force-points 5 "
       "--strategies gp-ucb --threads 1",
       "drift-demo --rounds 8 --drift 2:4 --measured 2 --trials 1 --brute-force-points 5 "
       "--strategy gp-ucb --threads 1",
       "--episodes", "--rounds", ""},
      {"fit --data o.csv --noise 0.0025", "fit --data o.csv --noise-sd 0.05", "--noise",
       "--noise-sd SD, the standard deviation", ""},
      {"sensor-data --out-dir sd --days 3 --samples-per-hour 1 --reading-noise 0.2",
       "sensor-data --out-dir sd --days 3 --samples-per-hour 1 --noise-sd 0.2", "--reading-noise",
       "--noise-sd", "sd/readings.csv"},
  };
}

TEST_F(CliTest, EveryOldSpellingWarnsAndMeansWhatTheNewOneMeans) {
  Write("o.csv", "x1,y\n0.1,0.3\n0.4,0.9\n0.5,1.1\n0.8,0.2\n0.9,-0.1\n");
  for (const Respelling& c : Respellings()) {
    const Result old_result = Run(c.old_args);
    const std::string old_output = c.file.empty() ? old_result.out : ReadAll(dir_ + "/" + c.file);
    const Result new_result = Run(c.new_args);
    const std::string new_output = c.file.empty() ? new_result.out : ReadAll(dir_ + "/" + c.file);
    ASSERT_EQ(old_result.status, 0) << c.old_args << "\n" << old_result.err;
    ASSERT_EQ(new_result.status, 0) << c.new_args << "\n" << new_result.err;
    const std::string command = c.old_args.substr(0, c.old_args.find(' '));
    EXPECT_THAT(
        old_result.err,
        HasSubstr("gpbandit " + command + ": warning: " + c.old_flag +
                  " is deprecated and will be removed in the next release; use " + c.new_flag))
        << c.old_args;
    EXPECT_THAT(new_result.err, Not(HasSubstr("deprecated"))) << c.new_args;
    EXPECT_FALSE(new_output.empty()) << c.new_args;
    EXPECT_EQ(old_output, new_output) << c.old_args << "\nvs " << c.new_args;
  }
}

TEST_F(CliTest, HelpShowsTheNewSpellingsOnly) {
  struct Flags {
    std::string command;
    std::vector<std::string> shown, hidden;
  };
  const std::vector<Flags> cases = {
      {"run",
       {"--rounds", "--noise-sd", "--strategy", "--trials", "--option", "--keep-plot-files"},
       {"--T ", "--noise arg", "--episodes"}},
      {"demo",
       {"--rounds", "--noise-sd", "--option", "--keep-plot-files"},
       {"--episodes", "--reward-noise"}},
      {"safe-demo",
       {"--rounds", "--trials", "--strategy", "--noise-sd", "--peak-noise-sd",
        "--brute-force-points", "--keep-plot-files"},
       {"--episodes", "--seeds", "--strategies", "--peak-noise arg", "--grid-points"}},
      {"drift-demo",
       {"--rounds", "--trials", "--strategy", "--noise-sd", "--brute-force-points"},
       {"--episodes", "--seeds", "--strategies"}},
      {"fit", {"--noise-sd"}, {"--noise arg"}},
      {"sensor-data", {"--noise-sd"}, {"--reading-noise"}},
      {"plot", {"--keep-plot-files"}, {}},
  };
  for (const Flags& c : cases) {
    const Result r = Run(c.command + " --help");
    ASSERT_EQ(r.status, 0) << c.command;
    for (const std::string& flag : c.shown) EXPECT_THAT(r.out, HasSubstr(flag)) << c.command;
    for (const std::string& flag : c.hidden) EXPECT_THAT(r.out, Not(HasSubstr(flag))) << c.command;
  }
}

// run and fit build the kernel they are named; by default both build the Optimizer's own
// (the kernel a study gets when none is given: Matern-5/2 with ARD).
TEST_F(CliTest, RunFitAndTheOptimizerShareOneDefaultKernel) {
  ASSERT_EQ(Run("suggest --log l.jsonl --bounds 0:1").status, 0);
  const std::string log = ReadAll(dir_ + "/l.jsonl");
  const nlohmann::json header = nlohmann::json::parse(log.substr(0, log.find('\n')));
  const std::string description = header.at("kernel").at("description");
  const std::string optimizer_kernel = description.substr(0, description.find('('));
  EXPECT_EQ(optimizer_kernel, "matern52") << description;
  for (const std::string command : {"run", "fit"})
    EXPECT_THAT(Run(command + " --help").out, HasSubstr("--kernel arg (=" + optimizer_kernel + ")"))
        << command;
  Write("o.csv", "x1,y\n0.1,0.3\n0.4,0.9\n0.5,1.1\n0.8,0.2\n0.9,-0.1\n");
  const Result fit = Run("fit --data o.csv");
  ASSERT_EQ(fit.status, 0) << fit.err;
  EXPECT_THAT(nlohmann::json::parse(fit.out).at("kernel").get<std::string>(),
              ::testing::StartsWith(optimizer_kernel));
}

// --noise-sd is a standard deviation in every command: the observations' deviations from the
// noise-free values have that spread (run), or none at all (demo with 0).
TEST_F(CliTest, NoiseIsAStandardDeviationEverywhere) {
  Result r = Run("run --grid 50 --rounds 100 --trials 4 --noise-sd 0.5 --out r.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = ReadAll(dir_ + "/r.csv");
  const std::vector<double> y = Column(csv, "y"), f = Column(csv, "f");
  ASSERT_EQ(y.size(), 400u);
  double sum = 0, sum2 = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    sum += y[i] - f[i];
    sum2 += (y[i] - f[i]) * (y[i] - f[i]);
  }
  const double n = static_cast<double>(y.size());
  const double sd = std::sqrt((sum2 - sum * sum / n) / (n - 1));
  EXPECT_NEAR(sd, 0.5, 0.06);  // a variance of 0.5 would give 0.71

  r = Run("demo --rounds 6 --brute-force-points 5 --noise-sd 0 --plot '' --out d.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string demo = ReadAll(dir_ + "/d.csv");
  EXPECT_EQ(Column(demo, "cgp_ucb_observed"), Column(demo, "cgp_ucb_reward"));
  EXPECT_EQ(Column(demo, "gp_ucb_observed"), Column(demo, "gp_ucb_reward"));
}

// --option [STRATEGY:]KEY=VALUE everywhere: KEY=VALUE goes to the strategies that have KEY,
// STRATEGY:KEY=VALUE to that one.
TEST_F(CliTest, StrategyOptionsHaveOneGrammarEverywhere) {
  // run: one strategy's option by name is the same as the study-wide flag for it alone.
  ASSERT_EQ(Run("run --grid 30 --rounds 8 --trials 1 --beta-scale 0.3 --out a.csv").status, 0);
  ASSERT_EQ(
      Run("run --grid 30 --rounds 8 --trials 1 --option gp-ucb:beta_scale=0.3 --out b.csv").status,
      0);
  EXPECT_EQ(ReadAll(dir_ + "/a.csv"), ReadAll(dir_ + "/b.csv"));
  Result r = Run("run --grid 30 --rounds 3 --trials 1 --option ei:xi=0.1");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err,
              HasSubstr("--option ei:xi=0.1: ei is not a strategy of this command (gp-ucb)"));

  // suggest: the study's strategy may be named; another is refused.
  r = Run("suggest --log l.jsonl --bounds 0:1 --option gp-ucb:beta_scale=0.2");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string log = ReadAll(dir_ + "/l.jsonl");
  EXPECT_EQ(
      nlohmann::json::parse(log.substr(0, log.find('\n'))).at("strategy_options").at("beta_scale"),
      0.2);
  EXPECT_EQ(Run("suggest --log l.jsonl --option gp-ucb:beta_scale=0.2").status, 0);
  EXPECT_EQ(Run("suggest --log m.jsonl --bounds 0:1 --option ei:xi=0.1").status, 2);

  // drift-demo: KEY=VALUE, once refused there, goes to the strategies that have the key.
  r =
      Run("drift-demo --rounds 8 --drift 2:4 --measured 2 --trials 1 --brute-force-points 5 "
          "--strategy gp-ucb,tv-gp-ucb --option epsilon=0.05 --threads 1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| tv-gp-ucb | {\"beta_scale\":0.2,\"epsilon\":0.05}"));
  EXPECT_THAT(r.out, HasSubstr("| gp-ucb | {\"beta_scale\":0.2} |"));

  // demo: one tuner's option by name; a strategy the demo does not run is refused.
  r =
      Run("demo --rounds 3 --brute-force-points 5 --plot '' --out '' "
          "--option cgp-ucb:beta_scale=0.5");
  EXPECT_EQ(r.status, 0) << r.err;
  r = Run("demo --rounds 3 --option ei:xi=0.1");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("ei is not a strategy of this command (cgp-ucb, gp-ucb)"));
}

}  // namespace
}  // namespace gpbandit
