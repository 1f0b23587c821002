// gpbandit plot on every kind of domain the command line makes: named parameters (log scale,
// integers, labels; the README's kp/taps/mode study) as well as boxes; axes named by parameter,
// the held coordinates stated, only the observations near the slice drawn, the safe side
// marked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The lines of block `index` of a gnuplot data file (blocks end in two blank lines).
std::vector<std::string> Block(const std::string& data, int index) {
  std::size_t start = 0;
  for (int i = 0; i < index; ++i) start = data.find("\n\n\n", start) + 3;
  const std::size_t end = data.find("\n\n\n", start);
  std::istringstream in(data.substr(start, end == std::string::npos ? end : end - start));
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(line);
  return lines;
}

class PlotDomainsTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  }

  // The README's study of named parameters, minimized, `rounds` suggest/observe rounds.
  void MakeGains(int rounds) {
    for (int i = 0; i < rounds; ++i) {
      const Result s =
          Run("suggest --log gains.jsonl --param kp=log:0.1:100 --param taps=int:1:12 "
              "--param mode=cat:pid,lead-lag --sense minimize --strategy ei");
      ASSERT_EQ(s.status, 0) << s.err;
      const std::string point = FirstLine(s.out);
      const double cost = (point.find("mode=pid") != std::string::npos ? 0.5 : 0.0) + 0.01 * i;
      ASSERT_EQ(
          Run("observe --log gains.jsonl --x '" + point + "' --y " + std::to_string(cost)).status,
          0);
    }
  }
};

TEST_F(PlotDomainsTest, NamedParametersArePlottedWithTheirNamesAndTheHeldValuesStated) {
  MakeGains(6);
  struct Case {
    std::string dims, xlabel, held_names;
  };
  for (const Case& c : std::vector<Case>{{"kp", "kp (log scale)", "taps="},
                                         {"taps", "taps", "kp="},
                                         {"mode", "mode", "taps="},
                                         {"kp,taps", "kp (log scale)", "mode="},
                                         {"mode,kp", "mode", "taps="}}) {
    const std::string png = "g" + std::to_string(c.dims.size()) + c.dims.substr(0, 2) + ".png";
    const Result r = Run("plot --log gains.jsonl --dims " + c.dims + " --grid 30 --out " + png +
                         " --keep-plot-files");
    ASSERT_EQ(r.status, 0) << c.dims << ": " << r.err;
    const std::string script = ReadAll(dir_ + "/" + png + ".gp");
    EXPECT_THAT(script, HasSubstr("set xlabel '" + c.xlabel + "'")) << c.dims;
    EXPECT_THAT(script, HasSubstr("held at ")) << c.dims;
    EXPECT_THAT(script, HasSubstr(c.held_names)) << c.dims;
    EXPECT_THAT(script, HasSubstr("(the recommendation)")) << c.dims;
    EXPECT_THAT(script, Not(HasSubstr("all contexts"))) << c.dims;
    EXPECT_THAT(script, Not(HasSubstr("x[0]"))) << c.dims;
    if (c.dims == "mode") {
      EXPECT_THAT(script, HasSubstr("set xtics ('pid' 0, 'lead-lag' 1)"));
    }
  }
  // By index as before, and --at as the pairs suggest prints.
  const Result r =
      Run("plot --log gains.jsonl --dims 1 --at 'kp=1 taps=3 mode=pid' --out a.png "
          "--keep-plot-files");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(ReadAll(dir_ + "/a.png.gp"), HasSubstr("held at kp=1 mode=pid (--at)"));
  const Result bad = Run("plot --log gains.jsonl --dims gain --out b.png");
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, HasSubstr("--dims 'gain' is not a parameter"));
}

// Only the observations near the slice are drawn (the held coordinate within 10% of its range),
// and the title says how many and by what rule; a slice that holds nothing draws them all.
TEST_F(PlotDomainsTest, OnlyObservationsNearTheSliceAreDrawn) {
  ASSERT_EQ(Run("study create --storage box.jsonl --bounds 0:1,0:10").status, 0);
  const std::vector<std::pair<std::string, bool>> told = {{"0.1,5", true},   {"0.5,5.9", true},
                                                          {"0.9,4.2", true}, {"0.3,6.5", false},
                                                          {"0.7,0", false},  {"0.2,10", false}};
  for (const auto& [x, near] : told)
    ASSERT_EQ(Run("observe --storage box.jsonl --x " + x + " --y 1").status, 0) << x;
  Result r =
      Run("plot --storage box.jsonl --dims 0 --at 0.5,5 --grid 20 --out s.png "
          "--keep-plot-files");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string data = ReadAll(dir_ + "/s.png.dat");
  const std::vector<std::string> drawn = Block(data, 1);
  ASSERT_EQ(drawn.size(), 3u) << data;
  EXPECT_EQ(drawn[0].substr(0, 4), "0.1 ");
  EXPECT_EQ(drawn[1].substr(0, 4), "0.5 ");
  EXPECT_EQ(drawn[2].substr(0, 4), "0.9 ");
  const std::string script = ReadAll(dir_ + "/s.png.gp");
  EXPECT_THAT(script, HasSubstr("held at x[1]=5 (--at)"));
  EXPECT_THAT(script, HasSubstr("drawn: 3 observations with the held coordinates within 10% of "
                                "their range"));
  EXPECT_THAT(script, HasSubstr("title 'observations near the slice'"));
  // --storage FILE is no database: the next suggestion is drawn (asked of a copy).
  EXPECT_THAT(r.err, Not(HasSubstr("database")));
  EXPECT_EQ(Block(data, 2).size(), 1u);
  r = Run("plot --storage box.jsonl --dims 0,1 --grid 20 --out t.png --keep-plot-files");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Block(ReadAll(dir_ + "/t.png.dat"), 1).size(), told.size());
  EXPECT_THAT(ReadAll(dir_ + "/t.png.gp"), HasSubstr("title 'observations'"));
}

// A safe-opt study's pictures tell the safe side from the unsafe one, in 1-D and 2-D.
TEST_F(PlotDomainsTest, SafeSetPlotsMarkTheUnsafeSide) {
  for (int i = 0; i < 8; ++i) {
    const Result s =
        Run("suggest --log safe.jsonl --bounds 0:1,0:1 --strategy safe-opt --option "
            "seeds=[[0.5,0.5]] --option constraint_thresholds=[0]");
    ASSERT_EQ(s.status, 0) << s.err;
    const std::vector<double> x = Numbers(FirstLine(s.out));
    std::ostringstream told;
    told.precision(17);
    told << "--x " << FirstLine(s.out) << " --y " << x[0] + x[1] << " --g "
         << 0.3 - std::abs(x[0] - 0.5) - std::abs(x[1] - 0.5);
    ASSERT_EQ(Run("observe --log safe.jsonl " + told.str()).status, 0);
  }
  for (const std::string dims : {"0", "0,1"}) {
    const Result r =
        Run("plot --log safe.jsonl --dims " + dims + " --grid 30 --out safe" + dims.substr(0, 1) +
            std::to_string(dims.size()) + ".png --keep-plot-files");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string script =
        ReadAll(dir_ + "/safe" + dims.substr(0, 1) + std::to_string(dims.size()) + ".png.gp");
    EXPECT_THAT(script, HasSubstr("unsafe side")) << dims;
    EXPECT_THAT(script, HasSubstr(dims == "0" ? "safe side" : "edge of the safe set")) << dims;
  }
}

}  // namespace
}  // namespace gpbandit
