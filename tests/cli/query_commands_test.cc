// gpbandit best, predict and plot read a study without changing it; --sense minimize takes
// costs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

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
  const bool gnuplot = GnuplotInstalled();
  for (const std::string dims : {"0", "0,1"}) {
    const Result r =
        Run("plot --log runs.jsonl --dims " + dims + " --grid 20 --out m.png --keep-plot-files");
    if (!gnuplot) {  // refused before any work (tests/cli/plot_test.cc)
      EXPECT_EQ(r.status, 2) << r.err;
      continue;
    }
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string data = ReadAll(dir_ + "/m.png.dat");
    EXPECT_FALSE(data.empty());
    EXPECT_THAT(ReadAll(dir_ + "/m.png.gp"), HasSubstr("next suggestion"));
  }
  EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), before);
  EXPECT_EQ(Run("plot --log runs.jsonl --dims 0,0 --out m.png").status, 2);
  EXPECT_EQ(Run("plot --log runs.jsonl --dims 2 --out m.png").status, 2);
}

}  // namespace
}  // namespace gpbandit
