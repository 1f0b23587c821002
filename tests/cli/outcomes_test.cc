// Several outcomes on the command line (cli/outcome_declaration.h): a study declares objectives
// and constraints when it is made, observe tells them by name, refused tells leave the study
// byte for byte as it was, `pareto` prints the front the model's means make non-dominated, and
// workers of a shared study read several outcomes from their command's last line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, separator)) items.push_back(item);
  return items;
}

const char* kDeclaration = "--objective itae:min --objective tv:min --constraint 'overshoot<=0.1'";

// observe tells the outcomes by name, in any order; the study records them in tell order
// (Observation::y the first objective, then the others and the constraints).
TEST_F(CliTest, ObserveTellsNamedOutcomesInTellOrder) {
  Result r = Run(std::string("observe --log o.jsonl --bounds 0:1,0:2 ") + kDeclaration +
                 " --x 0.25,1.5 --y overshoot=0.05,itae=0.3,tv=4.2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("recorded itae=0.3 tv=4.2 overshoot=0.05"));
  const auto study = Optimizer::Resume(dir_ + "/o.jsonl");
  const OutcomeOptions& o = study->options().outcomes;
  ASSERT_EQ(o.objectives.size(), 2u);
  EXPECT_EQ(o.objectives[0].name, "itae");
  EXPECT_TRUE(o.objectives[0].minimize);
  EXPECT_EQ(o.objectives[1].name, "tv");
  ASSERT_EQ(o.constraints.size(), 1u);
  EXPECT_EQ(o.constraints[0].name, "overshoot");
  EXPECT_EQ(o.constraints[0].sense, ConstraintSense::kLessEqual);
  EXPECT_EQ(o.constraints[0].bound, 0.1);
  EXPECT_EQ(study->options().sense, ObjectiveSense::kMinimize);
  const std::vector<Observation> obs = study->observations();
  ASSERT_EQ(obs.size(), 1u);
  EXPECT_EQ(obs[0].y, 0.3);
  ASSERT_EQ(obs[0].constraints.size(), 2);
  EXPECT_EQ(obs[0].constraints(0), 4.2);
  EXPECT_EQ(obs[0].constraints(1), 0.05);
  // The header records the declaration (docs/log_format.md).
  const nlohmann::json header = nlohmann::json::parse(FirstLine(ReadAll(dir_ + "/o.jsonl")));
  EXPECT_NE(header.dump().find("\"overshoot\""), std::string::npos) << header.dump();

  // A study of one outcome still takes a plain number.
  r = Run("observe --log one.jsonl --bounds 0:1 --x 0.5 --y 1.5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Optimizer::Resume(dir_ + "/one.jsonl")->observations()[0].y, 1.5);
}

// Every refused tell, and every refused later declaration, exits 2 naming the problem and leaves
// the log byte-identical; a refused first call creates no log.
TEST_F(CliTest, RefusedOutcomesLeaveTheStudyByteIdentical) {
  Result r = Run(std::string("observe --log s.jsonl --bounds 0:1 ") + kDeclaration +
                 " --x 0.5 --y itae=1,tv=2,overshoot=0.05");
  ASSERT_EQ(r.status, 0) << r.err;
  r = Run("suggest --log s.jsonl");  // a pending point, so that a refusal must not release it
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string before = ReadAll(dir_ + "/s.jsonl");
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"--y itae=1,tv=2", "the outcome 'overshoot' is missing"},
      {"--y itae=1,tv=2,overshoot=0.1,wear=3",
       "'wear' is not an outcome of this study; its outcomes: itae, tv, overshoot"},
      {"--y itae=1,tv=2,overshoot=nan", "--y overshoot=nan is not finite"},
      {"--y 'itae=1 tv=inf overshoot=0'", "--y tv=inf is not finite"},
      {"--y itae=1,itae=2,tv=2,overshoot=0", "the outcome 'itae' is given more than once"},
      {"--y 0.3", "--y 0.3 is one number, but this study has 3 outcomes"},
      {"--y itae=abc,tv=2,overshoot=0", "the value of itae, 'abc', is not a number"},
      {"--y itae=1,tv=2,overshoot=0 --g 0.5", "--g tells safe-opt's measured signals"},
      {"--y itae=1,tv=2,overshoot=0 --objective itae:max --objective tv:min",
       "the outcome flags declare itae:max"},
      {"--y itae=1,tv=2,overshoot=0 --constraint 'overshoot<=0.2'",
       "a study keeps the outcomes it was created with"},
      {"--y itae=1,tv=2,overshoot=0 --reference-point 1", "has 1 value but the study has 2"},
      {"--y itae=1,tv=2,overshoot=0 --trial 7", "--trial 7 is not pending"},
  };
  for (const Case& c : cases) {
    r = Run("observe --log s.jsonl --x 0.75 " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
    EXPECT_EQ(ReadAll(dir_ + "/s.jsonl"), before) << c.args;
  }
  // Restating the declaration is accepted.
  r = Run(std::string("observe --log s.jsonl ") + kDeclaration +
          " --x 0.75 --y itae=1,tv=2,overshoot=0");
  EXPECT_EQ(r.status, 0) << r.err;

  const std::vector<Case> first_calls = {
      {"--objective itae:least", "the sense 'least' is unknown; known: min, max"},
      {"--objective itae:min --constraint 'overshoot<0.1'", "must be NAME<=BOUND or NAME>=BOUND"},
      {"--objective itae:min --constraint 'overshoot<=abc'", "the bound 'abc' is not a finite"},
      {"--objective 'it ae:min'", "the name 'it ae' must be non-empty"},
      {"--objective a:min --constraint 'a<=1'", "the outcome name 'a' is declared twice"},
      {"--objective a:min --objective b:max --reference-point 1",
       "has 1 value but the study has 2"},
      {"--sense minimize --objective a:min", "with --objective each objective has its own sense"},
      {"--objective a:min --feasibility-confidence 1.5", "must be in (0, 1)"},
      {"--objective a:min --scalarization random", "--scalarization 'random' is unknown"},
  };
  for (const Case& c : first_calls) {
    r = Run("observe --log new.jsonl --bounds 0:1 --x 0.5 --y a=1 " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
    EXPECT_FALSE(std::ifstream(dir_ + "/new.jsonl").good()) << c.args;
  }
  r = Run("suggest --log new.jsonl --bounds 0:1 --objective itae:least");
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(std::ifstream(dir_ + "/new.jsonl").good());

  // Under --failures skip a NaN outcome is a failed evaluation, recorded as such.
  r =
      Run("observe --log skip.jsonl --bounds 0:1 --failures skip --objective a:min "
          "--objective b:min --x 0.5 --y a=1,b=nan");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Optimizer::Resume(dir_ + "/skip.jsonl")->num_failed(), 1);
}

struct FrontRow {
  std::string x;  // "x1,x2" as printed
  std::vector<double> values;
};

// `pareto` prints the observed points whose posterior means are non-dominated, and the
// hypervolume of their told values; both computed here independently: the dominance from the
// means of a resumed copy of the study (Optimizer::PredictOutcome), the 2-D hypervolume as a
// staircase sum.
TEST_F(CliTest, ParetoPrintsTheNonDominatedPointsAndTheirHypervolume) {
  // f1 is minimized, f2 maximized: five points trade one for the other (the front of the told
  // values), five are beaten by one of them; hand-computed hypervolume from (1.2, -0.1), in
  // (-f1, f2): 1.1 * 0.3 + 0.9 * 0.3 + 0.7 * 0.2 + 0.5 * 0.05 + 0.4 * 0.15 = 0.825.
  const std::vector<std::vector<double>> tells = {
      {0.05, 0.10, 0.10, 0.20}, {0.20, 0.85, 0.40, 0.30}, {0.35, 0.30, 0.30, 0.50},
      {0.50, 0.70, 0.60, 0.60}, {0.65, 0.45, 0.50, 0.70}, {0.80, 0.90, 0.90, 0.50},
      {0.95, 0.15, 0.70, 0.75}, {0.10, 0.60, 0.35, 0.10}, {0.60, 0.05, 0.80, 0.90},
      {0.40, 0.95, 0.95, 0.85}};
  const std::set<std::string> told_front = {"0.05,0.1", "0.35,0.3", "0.65,0.45", "0.95,0.15",
                                            "0.6,0.05"};
  for (std::size_t i = 0; i < tells.size(); ++i) {
    const std::vector<double>& t = tells[i];
    std::ostringstream args;
    args << "observe --log p.jsonl --x " << t[0] << "," << t[1] << " --y f1=" << t[2]
         << ",f2=" << t[3];
    if (i == 0)
      args << " --bounds 0:1,0:1 --objective f1:min --objective f2:max --reference-point 1.2,-0.1";
    const Result r = Run(args.str());
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const Result r = Run("pareto --log p.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = Split(r.out, '\n');
  ASSERT_GE(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0], "x1\tx2\tf1\tf2\tmean_f1\tmean_f2\tp_feasible");
  std::vector<FrontRow> printed;
  double printed_hv = std::nan("");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].rfind("# hypervolume ", 0) == 0) {
      printed_hv = std::stod(lines[i].substr(14));
      EXPECT_THAT(lines[i], HasSubstr("reference point f1=1.2 f2=-0.1 (--reference-point)"));
      continue;
    }
    const std::vector<std::string> cells = Split(lines[i], '\t');
    ASSERT_EQ(cells.size(), 7u) << lines[i];
    FrontRow row{cells[0] + "," + cells[1], {}};
    for (std::size_t c = 2; c < cells.size(); ++c) row.values.push_back(std::stod(cells[c]));
    EXPECT_EQ(row.values[4], 1.0) << "no constraints: feasible for sure";
    printed.push_back(row);
  }
  ASSERT_FALSE(printed.empty());

  // Independently: the non-dominated points in posterior mean (f1 down, f2 up).
  const auto study = Optimizer::Resume(dir_ + "/p.jsonl");
  std::vector<Eigen::VectorXd> xs;
  std::vector<double> m1, m2;
  for (const Observation& o : study->observations()) {
    xs.push_back(o.x);
    m1.push_back(study->PredictOutcome(0, o.x).mean);
    m2.push_back(study->PredictOutcome(1, o.x).mean);
  }
  std::set<std::string> expected;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    bool dominated = false;
    for (std::size_t j = 0; j < xs.size(); ++j)
      dominated |= j != i && m1[j] <= m1[i] && m2[j] >= m2[i] && (m1[j] < m1[i] || m2[j] > m2[i]);
    std::ostringstream x;
    x << tells[i][0] << "," << tells[i][1];
    if (!dominated) expected.insert(x.str());
    for (const FrontRow& row : printed) {
      if (row.x != x.str()) continue;
      EXPECT_NEAR(row.values[2], m1[i], 1e-9) << row.x;
      EXPECT_NEAR(row.values[3], m2[i], 1e-9) << row.x;
      EXPECT_EQ(row.values[0], tells[i][2]) << row.x;
      EXPECT_EQ(row.values[1], tells[i][3]) << row.x;
    }
  }
  std::set<std::string> got;
  for (const FrontRow& row : printed) got.insert(row.x);
  EXPECT_EQ(got, expected);
  // The model's means are close enough to the told values here to keep their front.
  EXPECT_EQ(got, told_front);
  EXPECT_NEAR(printed_hv, 0.825, 1e-12);

  // The hypervolume of the front's told values from (1.2, -0.1): maximize -f1 and f2.
  std::vector<std::pair<double, double>> points;  // (-f1, f2), inside the reference box
  for (const FrontRow& row : printed)
    if (row.values[0] < 1.2 && row.values[1] > -0.1)
      points.emplace_back(-row.values[0], row.values[1]);
  std::sort(points.rbegin(), points.rend());  // -f1 descending
  double hv = 0, covered = -0.1;
  for (const auto& [a, b] : points) {
    if (b <= covered) continue;
    hv += (a - -1.2) * (b - covered);
    covered = b;
  }
  EXPECT_NEAR(printed_hv, hv, 1e-12 * std::max(1.0, hv));

  // predict --outcome NAME: that outcome's posterior, as PredictOutcome gives it.
  const Result predicted = Run("predict --log p.jsonl --x 0.05,0.1 --outcome f2");
  ASSERT_EQ(predicted.status, 0) << predicted.err;
  EXPECT_NEAR(Numbers(FirstLine(predicted.out))[0], m2[0], 1e-9);
  EXPECT_EQ(Run("predict --log p.jsonl --x 0.05,0.1 --outcome f3").status, 2);

  // best has no single answer for several objectives and says where to look.
  const Result best = Run("best --log p.jsonl");
  EXPECT_EQ(best.status, 2);
  EXPECT_THAT(best.err, HasSubstr("gpbandit pareto"));
  const Result show = Run("study show --storage p.jsonl");
  ASSERT_EQ(show.status, 0) << show.err;
  const nlohmann::json j = nlohmann::json::parse(show.out);
  EXPECT_EQ(j.at("pareto_front").at("points"), printed.size());
  EXPECT_NEAR(j.at("pareto_front").at("hypervolume").get<double>(), hv, 1e-12 * std::max(1.0, hv));
  EXPECT_EQ(j.at("outcomes").at("objectives").size(), 2u);
  // The report (the dashboard's views) draws a study of several objectives too.
  // (its slices through the front's first point: Best has no single answer here).
  ASSERT_EQ(Run("report --storage p.jsonl --out r.html").status, 0);
  EXPECT_THAT(ReadAll(dir_ + "/r.html"), HasSubstr("\"recommendation\":{"));
}

// An outcome study resumes from its log: suggest after observe, round after round, each
// suggestion answered as printed (its pending point released), the declaration kept.
TEST_F(CliTest, AnOutcomeStudyResumesFromItsLog) {
  Result r =
      Run(std::string("suggest --log r.jsonl --bounds 0:1,0:1 --strategy ehvi ") + kDeclaration);
  ASSERT_EQ(r.status, 0) << r.err;
  for (int round = 0; round < 5; ++round) {
    const std::string x = FirstLine(r.out);
    const std::vector<double> v = Numbers(x);
    ASSERT_EQ(v.size(), 2u) << x;
    for (double c : v) {
      EXPECT_GE(c, 0.0);
      EXPECT_LE(c, 1.0);
    }
    std::ostringstream y;
    y << "itae=" << (v[0] - 0.3) * (v[0] - 0.3) + v[1] << ",tv=" << 1 - v[1] + 0.1 * v[0]
      << ",overshoot=" << 0.2 * v[0];
    r = Run("observe --log r.jsonl --x '" + x + "' --y " + y.str());
    ASSERT_EQ(r.status, 0) << r.err;
    r = Run("suggest --log r.jsonl");
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const auto study = Optimizer::Resume(dir_ + "/r.jsonl");
  EXPECT_EQ(study->observations().size(), 5u);
  EXPECT_EQ(study->pending_points().size(), 1u);  // the last suggestion only
  EXPECT_EQ(study->options().outcomes.num_outcomes(), 3);
  EXPECT_EQ(study->strategy_name(), "ehvi");
  r = Run("pareto --log r.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("x1\tx2\titae\ttv\tovershoot\tmean_itae\tmean_tv\tp_feasible"));
}

// One objective under a constraint: no recommendation before a point is feasible with the
// study's confidence (best, plot and pareto say so), then the feasible point only.
TEST_F(CliTest, AConstrainedStudyRecommendsOnlyAFeasiblePoint) {
  Result r =
      Run("observe --log c.jsonl --bounds 0:1 --sense minimize --constraint 'c<=0' "
          "--x 0.2 --y y=1,c=5");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(Run("observe --log c.jsonl --x 0.8 --y y=2,c=4").status, 0);
  r = Run("best --log c.jsonl");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("feasible"));
  r = Run("pareto --log c.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# no observed point is feasible with probability >= 0.95 yet"));
  EXPECT_EQ(nlohmann::json::parse(Run("study show --storage c.jsonl").out).at("best"), nullptr);
  ASSERT_EQ(Run("observe --log c.jsonl --x 0.5 --y y=3,c=-2").status, 0);
  r = Run("best --log c.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(FirstLine(r.out), "0.5");  // the only feasible point, though the costliest
  r = Run("pareto --log c.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = Split(r.out, '\n');
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0], "x1\ty\tc\tmean_y\tp_feasible");
  EXPECT_EQ(lines[1].substr(0, 9), "0.5\t3\t-2\t");
}

// A shared study in a file (flock) carries its outcomes: study create declares them, workers
// read them from their command's last line (by name, or in tell order), observe tells them by
// name, and the front is printed from the same storage.
TEST_F(CliTest, SharedStudyAndWorkersCarryOutcomes) {
  Result r =
      Run("study create --storage s.jsonl --bounds 0:1,0:1 --objective a:min "
          "--objective b:min --constraint 'c<=1.5'");
  ASSERT_EQ(r.status, 0) << r.err;
  Write("named.sh",
        "#!/bin/sh\nawk -v x=$1 -v y=$2 'BEGIN { printf \"a=%.17g b=%.17g c=%.17g\\n\", "
        "x*x+y*y, (x-1)*(x-1)+(y-1)*(y-1), x+y }'\n");
  Write("ordered.sh",
        "#!/bin/sh\necho progress...\nawk -v x=$1 -v y=$2 'BEGIN { printf \"%.17g, %.17g, "
        "%.17g\\n\", x*x+y*y, (x-1)*(x-1)+(y-1)*(y-1), x+y }'\n");
  Write("broken.sh", "#!/bin/sh\necho a=1 b=2\n");
  ASSERT_EQ(std::system(("chmod +x '" + dir_ + "'/*.sh").c_str()), 0);
  r = Run("worker --storage s.jsonl --evaluations 3 -- ./named.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Split(r.out, '\n').size(), 3u) << r.out;
  EXPECT_EQ(Split(FirstLine(r.out), ',').size(), 5u) << r.out;  // x1,x2,a,b,c
  r = Run("worker --storage s.jsonl --evaluations 2 -- ./ordered.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  r = Run("worker --storage s.jsonl --evaluations 1 -- ./broken.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the outcome 'c' is missing"));
  EXPECT_THAT(r.err, HasSubstr("recorded as failed"));
  r = Run("observe --storage s.jsonl --x 0.5,0.5 --y a=0.5,b=0.5,c=1");
  ASSERT_EQ(r.status, 0) << r.err;

  const auto study = Optimizer::Resume(dir_ + "/s.jsonl");
  const std::vector<Observation> obs = study->observations();
  ASSERT_EQ(obs.size(), 7u);
  EXPECT_EQ(study->num_failed(), 1);
  int checked = 0;
  for (const Observation& o : obs) {
    if (!o.accepted) continue;
    const double x = o.x(0), y = o.x(1);
    EXPECT_NEAR(o.y, x * x + y * y, 1e-12);
    ASSERT_EQ(o.constraints.size(), 2);
    EXPECT_NEAR(o.constraints(0), (x - 1) * (x - 1) + (y - 1) * (y - 1), 1e-12);
    EXPECT_NEAR(o.constraints(1), x + y, 1e-12);
    ++checked;
  }
  EXPECT_EQ(checked, 6);
  EXPECT_TRUE(study->pending_points().empty());
  r = Run("pareto --storage s.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("x1\tx2\ta\tb\tc\tmean_a\tmean_b\tp_feasible"));
  const Result show = Run("study show --storage s.jsonl");
  ASSERT_EQ(show.status, 0) << show.err;
  EXPECT_EQ(nlohmann::json::parse(show.out).at("outcomes").at("constraints")[0].at("bound"), 1.5);

  // Named parameters: the command gets kp=V, and the worker prints the pairs and the outcomes.
  r =
      Run("study create --storage n.jsonl --param kp=log:0.1:10 --objective a:min "
          "--objective b:max");
  ASSERT_EQ(r.status, 0) << r.err;
  Write("kp.sh",
        "#!/bin/sh\nk=${1#kp=}\nawk -v k=$k 'BEGIN { printf \"%.17g %.17g\\n\", k, -k*k }'\n");
  ASSERT_EQ(std::system(("chmod +x '" + dir_ + "/kp.sh'").c_str()), 0);
  r = Run("worker --storage n.jsonl --evaluations 2 -- ./kp.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const std::string& line : Split(r.out, '\n')) {
    EXPECT_THAT(line, ::testing::MatchesRegex("kp=[0-9.e+-]+ a=[0-9.e+-]+ b=-[0-9.e+-]+")) << r.out;
  }
  const auto named = Optimizer::Resume(dir_ + "/n.jsonl");
  ASSERT_EQ(named->observations().size(), 2u);
  for (const Observation& o : named->observations()) {
    EXPECT_NEAR(o.y, o.x(0), 1e-12);
    EXPECT_NEAR(o.constraints(0), -o.x(0) * o.x(0), 1e-12);
  }
}

// plot draws a study of several objectives as its front; the model-slice flags are refused.
TEST_F(CliTest, PlotDrawsTheFrontOfSeveralObjectives) {
  if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  const std::vector<std::string> tells = {"0.1 --y a=1,b=5", "0.4 --y a=2,b=2", "0.7 --y a=4,b=1",
                                          "0.9 --y a=5,b=5"};
  for (std::size_t i = 0; i < tells.size(); ++i) {
    const Result r = Run("observe --log f.jsonl --x " + tells[i] +
                         (i == 0 ? " --bounds 0:1 --objective a:min --objective b:min" : ""));
    ASSERT_EQ(r.status, 0) << r.err;
  }
  Result r = Run("plot --log f.jsonl --out front.png --keep-plot-files");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::ifstream(dir_ + "/front.png").good());
  const std::string data = ReadAll(dir_ + "/front.png.dat");
  const std::vector<std::string> blocks = [&] {
    std::vector<std::string> b;
    std::size_t start = 0, at;
    while ((at = data.find("\n\n\n", start)) != std::string::npos) {
      b.push_back(data.substr(start, at + 1 - start));
      start = at + 3;
    }
    b.push_back(data.substr(start));
    return b;
  }();
  // gnuplot's blocks, each after a comment line: the points, the infeasible ones, the front.
  ASSERT_EQ(blocks.size(), 4u) << data;
  const auto data_lines = [](const std::string& block) {
    long n = 0;
    for (const std::string& line : Split(block, '\n')) n += !line.empty() && line[0] != '#';
    return n;
  };
  EXPECT_EQ(data_lines(blocks[0]), 4) << blocks[0];
  EXPECT_EQ(data_lines(blocks[1]), 0) << blocks[1];
  const Result front = Run("pareto --log f.jsonl");
  ASSERT_EQ(front.status, 0);
  const long rows = std::count(front.out.begin(), front.out.end(), '\n') - 2;  // header, HV
  EXPECT_EQ(data_lines(blocks[2]), rows) << blocks[2];
  EXPECT_EQ(data_lines(blocks[3]), 1) << blocks[3];  // the inferred reference point
  EXPECT_THAT(ReadAll(dir_ + "/front.png.gp"), HasSubstr("Pareto front"));
  r = Run("plot --log f.jsonl --out front.png --dims 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("drawn as its Pareto front"));
  r = Run("plot --log f.jsonl --out front.png --objectives a,c");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("'c' is not an objective of this study"));
}

}  // namespace
}  // namespace gpbandit
