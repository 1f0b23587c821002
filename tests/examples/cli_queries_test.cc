// gpbandit best, predict and plot read a study without changing it; --sense minimize takes
// costs; drift-demo and safe-demo print their tables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "examples/cli/safe_demo.h"
#include "gpbandit/plugin/optimizer.h"
#include "tests/examples/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

std::vector<double> Numbers(const std::string& csv_line) {
  std::vector<double> v;
  std::stringstream s(csv_line);
  std::string item;
  while (std::getline(s, item, ',')) v.push_back(std::stod(item));
  return v;
}

// cost(x) = (x0 - 1.2)^2 + (x1 - 0.4)^2 on [0, 2] x [0, 1].
double Cost(const std::vector<double>& x) {
  return (x[0] - 1.2) * (x[0] - 1.2) + (x[1] - 0.4) * (x[1] - 0.4);
}

class CliQueriesTest : public CliTest {
 protected:
  // Eight rounds of suggest/observe under --sense minimize; returns the last point told.
  std::vector<double> Minimize() {
    std::vector<double> x;
    for (int i = 0; i < 8; ++i) {
      const Result s = Run("suggest --log runs.jsonl --bounds 0:2,0:1 --sense minimize");
      EXPECT_EQ(s.status, 0) << s.err;
      x = Numbers(s.out);
      std::ostringstream cost;
      cost.precision(17);
      cost << Cost(x);
      const Result o = Run("observe --log runs.jsonl --x " + s.out.substr(0, s.out.size() - 1) +
                           " --y " + cost.str());
      EXPECT_EQ(o.status, 0) << o.err;
    }
    return x;
  }
};

// Under safe-opt, `gpbandit best` recommends inside the safe set: the point Optimizer::Best()
// recommends from the same study (which Python's best() returns too), measured safe, with its
// safety margin on stderr.
TEST_F(CliQueriesTest, BestUnderSafeOptStaysInsideTheSafeSet) {
  auto g = [](double x) { return 0.3 - std::abs(x - 0.4); };  // safe on [0.1, 0.7]
  for (int i = 0; i < 10; ++i) {
    const Result s =
        Run("suggest --log safe.jsonl --bounds 0:1 --strategy safe-opt --option seeds=[[0.5]] "
            "--option constraint_thresholds=[0]");
    ASSERT_EQ(s.status, 0) << s.err;
    const double x = Numbers(s.out)[0];
    std::ostringstream told;
    told.precision(17);
    told << "--x " << x << " --y " << x << " --g " << g(x);
    ASSERT_EQ(Run("observe --log safe.jsonl " + told.str()).status, 0);
  }
  const Result best = Run("best --log safe.jsonl");
  ASSERT_EQ(best.status, 0) << best.err;
  EXPECT_THAT(best.err, HasSubstr("inside the safe set, safety margin"));
  const double x = Numbers(best.out)[0];
  EXPECT_GE(g(x), 0.0);
  const auto resumed = Optimizer::Resume(dir_ + "/safe.jsonl");
  EXPECT_EQ(resumed->Best().x(0), x);
  EXPECT_EQ(resumed->Best(Eigen::VectorXd()).x(0), x);
}

TEST_F(CliQueriesTest, BestAndPredictAnswerInCostsWithoutChangingTheLog) {
  const std::vector<double> last = Minimize();
  const std::string before = ReadAll(dir_ + "/runs.jsonl");
  EXPECT_THAT(before, HasSubstr("\"sense\":\"minimize\""));
  const Result best = Run("best --log runs.jsonl");
  ASSERT_EQ(best.status, 0) << best.err;
  const std::vector<double> x = Numbers(best.out);
  ASSERT_EQ(x.size(), 2u);
  EXPECT_THAT(best.err, HasSubstr("minimize"));
  std::ostringstream at;
  at.precision(17);
  at << last[0] << "," << last[1];
  const Result p = Run("predict --log runs.jsonl --x " + at.str());
  ASSERT_EQ(p.status, 0) << p.err;
  const std::vector<double> mean_sd = Numbers(p.out);
  ASSERT_EQ(mean_sd.size(), 2u);
  // At a point it observed the model predicts the cost told there (small noise).
  EXPECT_NEAR(mean_sd[0], Cost(last), 0.05);
  EXPECT_GE(mean_sd[1], 0.0);
  EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), before);
  EXPECT_EQ(Run("predict --log runs.jsonl --x 3,0.5").status, 2);
  EXPECT_EQ(Run("suggest --log runs.jsonl --sense maximize").status, 2);
  EXPECT_EQ(Run("suggest --log new.jsonl --bounds 0:1 --sense lowest").status, 2);
}

TEST_F(CliQueriesTest, PlotWritesTheSliceWithoutChangingTheLog) {
  Minimize();
  const std::string before = ReadAll(dir_ + "/runs.jsonl");
  for (const std::string dims : {"0", "0,1"}) {
    const Result r = Run("plot --log runs.jsonl --dims " + dims + " --grid 20 --out m.png");
    // Without gnuplot the data and script are still written and the exit status says so.
    EXPECT_TRUE(r.status == 0 || r.err.find("gnuplot") != std::string::npos) << r.err;
    const std::string data = ReadAll(dir_ + "/m.png.dat");
    EXPECT_FALSE(data.empty());
    EXPECT_THAT(ReadAll(dir_ + "/m.png.gp"), HasSubstr("next suggestion"));
  }
  EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), before);
  EXPECT_EQ(Run("plot --log runs.jsonl --dims 0,0 --out m.png").status, 2);
  EXPECT_EQ(Run("plot --log runs.jsonl --dims 2 --out m.png").status, 2);
}

TEST_F(CliQueriesTest, DriftDemoPrintsOneRowPerStrategy) {
  const Result r =
      Run("drift-demo --episodes 16 --drift 4:8 --measured 4 --seeds 1 --brute-force-points 5 "
          "--strategies gp-ucb,tv-gp-ucb --option tv-gp-ucb:epsilon=0.05 --threads 1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("| gp-ucb |"));
  EXPECT_THAT(r.out, HasSubstr("| tv-gp-ucb | {\"beta_scale\":0.2,\"epsilon\":0.05}"));
  EXPECT_EQ(Run("drift-demo --option tv-gp-ucb:epsilon=2 --seeds 1").status, 2);
  EXPECT_EQ(Run("drift-demo --drift 9:3").status, 2);
}

TEST_F(CliQueriesTest, SafeDemoKeepsSafeOptWithinTheLimit) {
  const Result r =
      Run("safe-demo --episodes 20 --seeds 1 --grid-points 11 --strategies safe-opt,gp-ucb "
          "--threads 1");
  ASSERT_EQ(r.status, 0) << r.err;
  // safe-opt's row: 0 unsafe episodes in total and for its one seed.
  EXPECT_THAT(r.out, HasSubstr("| safe-opt | 0 (0) |"));
  EXPECT_THAT(r.out, HasSubstr("| gp-ucb | "));
  EXPECT_THAT(r.out, HasSubstr("unsafe episodes of 20, total over 1 seeds"));
  EXPECT_EQ(Run("safe-demo --limit 0.2").status, 2);  // below the initial angle 0.3
  EXPECT_EQ(Run("safe-demo --seeds 0").status, 2);
}

// --plot-dir: safe-opt's seed-1 log and one picture per stage reached, each drawing the safe
// set's edge (the contour of the safety margin at 0, a finite margin at every grid point).
TEST_F(CliQueriesTest, SafeDemoDrawsTheSafeSetPerStage) {
  const Result r =
      Run("safe-demo --episodes 12 --seeds 1 --grid-points 5 --strategies safe-opt --threads 1 "
          "--plot-dir pictures");
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

// Without control, gravity wins: the arm falls, so its peak error is (just past) the fall angle,
// above every admissible limit. The declared seed is safe; the reference counts at least the
// uncontrolled column kp = 0 (9 of the 81 grid points) as unsafe.
TEST(SafeDemoTest, UncontrolledArmFallsAndTheSeedIsSafe) {
  cli::SafeDemoOptions o;
  o.grid_points = 9;
  const problems::PendulumPlant plant(o.plant);
  const cli::SafeEpisode fallen = cli::RunSafeEpisode(plant, Eigen::Vector2d(0, 0), o.payload);
  EXPECT_GE(fallen.peak_error, o.plant.fall_angle);
  const cli::SafeReference ref = cli::ComputeSafeReference(o);
  EXPECT_GE(ref.unsafe_fraction, 9.0 / 81.0);
  EXPECT_LT(ref.unsafe_fraction, 1.0);
  const cli::SafeEpisode seed = cli::RunSafeEpisode(plant, ref.seed_gains, o.payload);
  EXPECT_LE(seed.peak_error, o.peak_error_limit);
  EXPECT_GE(seed.peak_error, o.plant.initial_angle);  // it starts there
  EXPECT_LE(seed.reward, ref.best_safe_reward);
}

}  // namespace
}  // namespace gpbandit
