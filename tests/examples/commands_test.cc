// The subcommands of the example studies (examples/commands.h) as a person runs them: the
// built `gpbandit` program in a temporary directory (tests/cli/cli_fixture.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

TEST_F(CliTest, RunWritesOneRowPerRoundAndASummary) {
  const Result r = Run(
      "run --problem gp-sample --grid 50 --strategy gp-ucb,mean --rounds 7 --trials 2 --out r.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gp-ucb"));
  EXPECT_THAT(r.out, HasSubstr("R_T / T"));
  const std::string csv = ReadAll(dir_ + "/r.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "trial,strategy,t,x1,y,f,regret,cumulative_regret,simple_regret");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 2 * 7);
}

TEST_F(CliTest, SensorDataFilesRunAsAFileProblem) {
  Result r = Run("sensor-data --out-dir sd --days 3 --samples-per-hour 2");
  ASSERT_EQ(r.status, 0) << r.err;
  r =
      Run("run --problem file --candidates sd/ctx_candidates.csv --kernel-matrix sd/kernel.csv "
          "--functions sd/ctx_functions.csv --contexts sd/ctx_contexts.csv --strategy cgp-ucb "
          "--context-mode joint,ignore,merge --rounds 30 --trials 1 --out c.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* label : {"cgp-ucb/joint", "cgp-ucb/ignore", "cgp-ucb/merge"})
    EXPECT_THAT(r.out, HasSubstr(label));
  const std::string csv = ReadAll(dir_ + "/c.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "trial,strategy,t,x1,x2,z1,y,f,regret,cumulative_regret,simple_regret");
}

TEST_F(CliTest, DemoWritesCsvAndPlot) {
  if (!GnuplotInstalled())
    GTEST_SKIP() << "gnuplot is not installed (tests/cli/plot_test.cc covers its absence)";
  const Result r = Run("demo --rounds 4 --brute-force-points 5 --out d.csv --plot d.png");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("brute force"));
  EXPECT_THAT(r.err, HasSubstr("[demo] episode   4/4"));
  const std::string csv = ReadAll(dir_ + "/d.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << "header + 4 episodes";
  struct stat info;
  EXPECT_EQ(stat((dir_ + "/d.png").c_str(), &info), 0) << r.err;
}

TEST_F(CliTest, RunAppliesOptionsToTheStrategiesThatHaveThem) {
  Result r =
      Run("run --problem gp-sample --grid 50 --rounds 5 --trials 1 --strategy gp-ucb,ei "
          "--beta-scale 0.2 --xi 0.01 --option gamma_source=se-bound");
  EXPECT_EQ(r.status, 0) << r.err;
  r = Run("run --problem gp-sample --grid 50 --rounds 5 --trials 1 --strategy ei --beta-scale 0.2");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("strategy option beta_scale: no strategy of the study has it"));
  r =
      Run("run --problem gp-sample --grid 50 --rounds 5 --trials 1 --strategy gp-ts "
          "--option num_features=0");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("num_features = 0"));
}

// With --fit a box problem plays the Optimizer's default model (regret_study_model_test.cc)
// unless --kernel or --lengthscale asks for a kernel: either flag gives the same study, and not
// the default one.
TEST_F(CliTest, RunPlaysTheOptimizersModelUnlessAKernelIsAskedFor) {
  const std::string study =
      "run --problem hartmann6 --strategy gp-ts --fit --rounds 12 --trials 1 --threads 1 ";
  for (const char* flags :
       {"--out d.csv", "--kernel matern52 --out k.csv", "--lengthscale 0.2 --out l.csv"}) {
    const Result r = Run(study + flags);
    ASSERT_EQ(r.status, 0) << flags << ": " << r.err;
  }
  EXPECT_EQ(ReadAll(dir_ + "/k.csv"), ReadAll(dir_ + "/l.csv"));
  EXPECT_NE(ReadAll(dir_ + "/d.csv"), ReadAll(dir_ + "/k.csv"));
}

TEST_F(CliTest, DriftDemoPrintsOneRowPerStrategy) {
  const Result r =
      Run("drift-demo --rounds 16 --drift 4:8 --measured 4 --trials 1 --brute-force-points 5 "
          "--strategy gp-ucb,tv-gp-ucb --option tv-gp-ucb:epsilon=0.05 --threads 1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| gp-ucb |"));
  EXPECT_THAT(r.out,
              HasSubstr("| tv-gp-ucb | "
                        "{\"beta_scale\":0.2,\"dim_log_coefficient\":0.2,\"epsilon\":0.05}"));
  EXPECT_EQ(Run("drift-demo --option tv-gp-ucb:epsilon=2 --trials 1").status, 2);
  EXPECT_EQ(Run("drift-demo --drift 9:3").status, 2);
}

TEST_F(CliTest, SafeDemoKeepsSafeOptWithinTheLimit) {
  const Result r =
      Run("safe-demo --rounds 20 --trials 1 --brute-force-points 11 --strategy safe-opt,gp-ucb "
          "--threads 1");
  ASSERT_EQ(r.status, 0) << r.err;
  // safe-opt's row: 0 unsafe episodes in total and for its one seed.
  EXPECT_THAT(r.out, HasSubstr("| safe-opt | 0 (0) |"));
  EXPECT_THAT(r.out, HasSubstr("| gp-ucb | "));
  EXPECT_THAT(r.out, HasSubstr("unsafe episodes of 20, total over 1 seeds"));
  EXPECT_EQ(Run("safe-demo --limit 0.2").status, 2);  // below the initial angle 0.3
  EXPECT_EQ(Run("safe-demo --trials 0").status, 2);
}

// --plot-dir: safe-opt's seed-1 log and one picture per stage reached, each drawing the safe
// set's edge (the contour of the safety margin at 0, a finite margin at every grid point).
// --keep-plot-files keeps gnuplot's data and script beside each picture.
TEST_F(CliTest, SafeDemoDrawsTheSafeSetPerStage) {
  if (!GnuplotInstalled())
    GTEST_SKIP() << "gnuplot is not installed (tests/cli/plot_test.cc covers its absence)";
  const Result r =
      Run("safe-demo --rounds 12 --trials 1 --brute-force-points 5 --strategy safe-opt "
          "--threads 1 --plot-dir pictures --keep-plot-files");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string script = ReadAll(dir_ + "/pictures/safe_set_after_010.png.gp");
  EXPECT_THAT(script, HasSubstr("edge of the safe set"));
  std::stringstream data(ReadAll(dir_ + "/pictures/safe_set_after_010.png.dat"));
  std::string line;
  ASSERT_TRUE(std::getline(data, line));
  const std::vector<double> first = Numbers([&] {
    for (char& c : line)
      if (c == ' ') c = ',';
    return line;
  }());
  ASSERT_EQ(first.size(), 4u);  // kp kd mean margin
  EXPECT_TRUE(std::isfinite(first[3]));
  EXPECT_EQ(ReadAll(dir_ + "/pictures/safe_set_after_030.png.gp"), "");  // beyond 12 episodes
}

}  // namespace
}  // namespace gpbandit
