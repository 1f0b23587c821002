// The commands that draw (plot, run --plot, demo, safe-demo --plot-dir): gnuplot's data and
// script live in a temporary directory unless --keep-plot-files keeps them beside the picture;
// without gnuplot they stop before any work; the next suggestion stands out on the model's map.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The names in a directory, sorted.
std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool Exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

class PlotTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    // The program's temporary files go to a directory of the test, so that leftovers are seen.
    std::filesystem::create_directory(dir_ + "/tmp");
  }

  Result RunWithTmp(const std::string& args) { return Run(args, "TMPDIR='" + dir_ + "/tmp'"); }
  // What the program left in its temporary directory, but for the directory of the machine's
  // ask slots ("gpbandit-<uid>", optimizer/ask_slots.h), which every asking worker shares and
  // keeps.
  std::vector<std::string> LeftInTmp() const {
    std::vector<std::string> left = Names(dir_ + "/tmp");
    const std::string slots = "gpbandit-" + std::to_string(::getuid());
    left.erase(std::remove(left.begin(), left.end(), slots), left.end());
    return left;
  }

  // Eight rounds of suggest/observe on [0, 2] x [0, 1], reward -(x0 - 1.2)^2 - (x1 - 0.4)^2.
  void MakeStudy() {
    for (int i = 0; i < 8; ++i) {
      const Result s = Run("suggest --log runs.jsonl --bounds 0:2,0:1");
      ASSERT_EQ(s.status, 0) << s.err;
      const std::vector<double> x = Numbers(s.out);
      std::ostringstream y;
      y.precision(17);
      y << -(x[0] - 1.2) * (x[0] - 1.2) - (x[1] - 0.4) * (x[1] - 0.4);
      ASSERT_EQ(Run("observe --log runs.jsonl --x " + s.out.substr(0, s.out.size() - 1) + " --y " +
                    y.str())
                    .status,
                0);
    }
  }
};

TEST_F(PlotTest, PlotLeavesOnlyThePictureUnlessAskedToKeepGnuplotsFiles) {
  if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  MakeStudy();
  for (const std::string dims : {"0", "0,1"}) {
    const Result r = RunWithTmp("plot --log runs.jsonl --dims " + dims + " --grid 20 --out m.png");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(Names(dir_),
              (std::vector<std::string>{"err.txt", "m.png", "out.txt", "runs.jsonl", "tmp"}))
        << dims;
    EXPECT_EQ(LeftInTmp(), std::vector<std::string>()) << dims;
  }
  const Result kept =
      RunWithTmp("plot --log runs.jsonl --dims 0,1 --grid 20 --out k.png --keep-plot-files");
  ASSERT_EQ(kept.status, 0) << kept.err;
  for (const char* file : {"k.png", "k.png.dat", "k.png.gp", "k.png.dat.contours"})
    EXPECT_TRUE(Exists(dir_ + "/" + file)) << file;
  EXPECT_THAT(kept.err, HasSubstr("(data k.png.dat, script k.png.gp)"));
  EXPECT_EQ(LeftInTmp(), std::vector<std::string>());
}

TEST_F(PlotTest, RunAndDemoLeaveOnlyTheirPictures) {
  if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  Result r = RunWithTmp("run --grid 20 --rounds 4 --trials 1 --out r.csv --plot r.png");
  ASSERT_EQ(r.status, 0) << r.err;
  r = RunWithTmp("demo --rounds 3 --brute-force-points 5 --out d.csv --plot d.png");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Names(dir_), (std::vector<std::string>{"d.csv", "d.png", "err.txt", "out.txt", "r.csv",
                                                   "r.png", "tmp"}));
  EXPECT_TRUE(Names(dir_ + "/tmp").empty());
  r = RunWithTmp("run --grid 20 --rounds 4 --trials 1 --plot r.png --keep-plot-files");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Exists(dir_ + "/r.png.dat"));
  EXPECT_TRUE(Exists(dir_ + "/r.png.gp"));
}

// Without gnuplot (a PATH without it) every command that would draw stops with status 2 and a
// message before doing any work: no CSV, no progress, no log record, no directory.
TEST_F(PlotTest, WithoutGnuplotDrawingCommandsStopBeforeAnyWork) {
  MakeStudy();
  const std::string log = ReadAll(dir_ + "/runs.jsonl");
  const std::vector<std::string> commands = {
      "run --grid 20 --rounds 3 --trials 1 --out r.csv --plot r.png",
      "demo --rounds 3 --brute-force-points 5 --out d.csv",
      "plot --log runs.jsonl --out m.png",
      "safe-demo --rounds 3 --trials 1 --plot-dir pictures",
  };
  for (const std::string& args : commands) {
    const Result r = Run(args, "PATH=/nonexistent");
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr("gnuplot, which draws the pictures, is not on the PATH (Debian: "
                                 "apt-get install gnuplot-nox)"))
        << args;
    EXPECT_THAT(r.err, Not(HasSubstr("["))) << args;  // no progress line: nothing was run
    EXPECT_EQ(r.out, "") << args;
  }
  EXPECT_EQ(Names(dir_), (std::vector<std::string>{"err.txt", "out.txt", "runs.jsonl", "tmp"}));
  EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), log);
  // Commands that draw nothing do not need it.
  const Result r = Run("run --grid 20 --rounds 3 --trials 1", "PATH=/nonexistent");
  EXPECT_EQ(r.status, 0) << r.err;
}

// An RGB colour.
struct Rgb {
  int r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
  bool operator!=(const Rgb& o) const { return !(*this == o); }
};

double Distance(const Rgb& a, const Rgb& b) {
  return std::sqrt(
      double((a.r - b.r) * (a.r - b.r) + (a.g - b.g) * (a.g - b.g) + (a.b - b.b) * (a.b - b.b)));
}

// The pixels of a PNG, read by gnuplot itself (filetype=png), row after row.
std::vector<Rgb> ReadPng(const std::string& dir, const std::string& png) {
  const std::string table = dir + "/pixels.txt", script = dir + "/read.gp";
  std::ofstream(script) << "set table '" << table << "'\nplot '" << dir << "/" << png
                        << "' binary filetype=png with rgbimage\nunset table\n";
  EXPECT_EQ(std::system(("gnuplot '" + script + "' 2>/dev/null").c_str()), 0);
  std::vector<Rgb> pixels;
  std::ifstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    int x, y;
    Rgb c;
    if (std::sscanf(line.c_str(), "%d %d %d %d %d", &x, &y, &c.r, &c.g, &c.b) == 5)
      pixels.push_back(c);
  }
  return pixels;
}

// The plot's data with the next suggestion (its last block) at (x, y).
std::string WithNextAt(const std::string& data, double x, double y) {
  std::ostringstream point;
  point.precision(17);
  point << x << " " << y << "\n";
  return data.substr(0, data.rfind("\n\n\n") + 3) + point.str();
}

// The 2-D map colours the posterior mean from blue-violet (lowest) to red (highest). The next
// suggestion must stand out wherever it lands: drawn at the grid's highest and at its lowest
// mean, many of the pixels it covers differ strongly from the map's colour there. (A red mark
// was invisible at the red maximum, where the next suggestion often is.)
TEST_F(PlotTest, NextSuggestionStandsOutOnEveryColourOfTheMap) {
  if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  MakeStudy();
  const Result r = Run("plot --log runs.jsonl --dims 0,1 --grid 20 --out m.png --keep-plot-files");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string data = ReadAll(dir_ + "/m.png.dat");
  // Block 0: "x y mean margin" lines; find its highest and lowest mean.
  std::istringstream grid(data.substr(0, data.find("\n\n\n")));
  std::string line;
  double x_max = 0, y_max = 0, x_min = 0, y_min = 0, high = -1e300, low = 1e300;
  while (std::getline(grid, line)) {
    std::istringstream row(line);
    double x, y, mean;
    if (!(row >> x >> y >> mean)) continue;
    if (mean > high) high = mean, x_max = x, y_max = y;
    if (mean < low) low = mean, x_min = x, y_min = y;
  }
  ASSERT_LT(low, high);
  const auto draw = [&](double x, double y) {
    std::ofstream(dir_ + "/m.png.dat") << WithNextAt(data, x, y);
    EXPECT_EQ(std::system(("cd '" + dir_ + "' && gnuplot m.png.gp 2>/dev/null").c_str()), 0);
    return ReadPng(dir_, "m.png");
  };
  const auto without = draw(-1e6, -1e6);  // outside the ranges: not drawn
  for (const auto& [x, y] : {std::pair<double, double>{x_max, y_max}, {x_min, y_min}}) {
    const auto with = draw(x, y);
    ASSERT_EQ(with.size(), without.size());
    // The marker's pixels, and the map's colour under them (per channel, the median).
    std::vector<std::size_t> covered;
    std::vector<int> r_under, g_under, b_under;
    for (std::size_t i = 0; i < with.size(); ++i) {
      if (with[i] == without[i]) continue;
      covered.push_back(i);
      r_under.push_back(without[i].r);
      g_under.push_back(without[i].g);
      b_under.push_back(without[i].b);
    }
    ASSERT_GT(covered.size(), 20u) << "no marker drawn at " << x << ", " << y;
    const auto median = [](std::vector<int> v) {
      std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
      return v[v.size() / 2];
    };
    const Rgb under{median(r_under), median(g_under), median(b_under)};
    int contrasting = 0;
    for (std::size_t i : covered) contrasting += Distance(with[i], under) > 150 ? 1 : 0;
    EXPECT_GE(contrasting, 60) << "at " << x << ", " << y << " on the colour " << under.r << ","
                               << under.g << "," << under.b;
  }
}

}  // namespace
}  // namespace gpbandit
