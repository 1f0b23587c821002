// The `gpbandit` program as a person runs it: the built binary in a temporary directory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/io/csv.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/version.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

TEST_F(CliTest, HelpOnEveryCommandExitsZero) {
  for (const std::string command : {"run", "fit", "suggest", "observe", "demo", "sensor-data",
                                    "strategies", "pareto", "pid-tradeoff"}) {
    const Result r = Run(command + " --help");
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr("usage: gpbandit " + command)) << command;
  }
  const Result r = Run("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("suggest"));
}

// `gpbandit --version`: the version of the headers the program was built with, on stdout.
TEST_F(CliTest, VersionIsTheHeadersVersion) {
  const Result r = Run("--version");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, std::string("gpbandit ") + GPBANDIT_VERSION_STRING + "\n");
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, ::testing::MatchesRegex("gpbandit [0-9]+\\.[0-9]+\\.[0-9]+\n"));
  EXPECT_THAT(Run("--help").out, HasSubstr("gpbandit --version"));
}

TEST_F(CliTest, BadArgumentsExitTwoWithAMessage) {
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"", "usage: gpbandit <command>"},
      {"frobnicate", "unknown command 'frobnicate'"},
      {"run --no-such-flag", "unknown option --no-such-flag"},
      {"run --rounds abc", "--rounds 'abc' is not an integer"},
      {"run --rounds 0", "--rounds 0 must be >= 1"},
      {"run --problem nope", "--problem 'nope' is unknown"},
      {"run --strategy gp-ucb,nope", "--strategy 'nope' is not registered"},
      {"run --kernel cubic", "--kernel 'cubic' is unknown"},
      {"run --context-mode sideways", "--context-mode 'sideways' is unknown"},
      {"run --problem file", "--problem file needs --candidates and --functions"},
      {"run --beta-schedule constant", "--beta-schedule constant needs its beta: --constant-beta"},
      {"run --option beta_schedule=constant", "needs its beta: --constant-beta"},
      {"run --constant-beta 2", "--constant-beta applies to --beta-schedule constant only"},
      {"run --strategy gp-ucb --incumbent best-observed", "incumbent_rule: no strategy of the"},
      {"run --strategy ei --incumbent median", "expected one of posterior-mean, best-observed"},
      {"run --signal-variance 4", "--signal-variance applies to --problem file"},
      {"suggest", "--log"},
      {"suggest --log l.jsonl", "--bounds is required on the first call"},
      {"suggest --log l.jsonl --bounds 0:1,5:2", "has lower > upper"},
      {"suggest --log l.jsonl --bounds 0:1,x", "is not of the form lower:upper"},
      {"observe --log l.jsonl --bounds 0:1 --x 0.5", "--y"},
      {"observe --log l.jsonl --bounds 0:1 --x 0.5,abc --y 1", "--x: item 2 'abc'"},
      {"fit", "--data"},
      {"demo --rounds 0", "--rounds 0 must be >= 1"},
      {"demo --payloads 0.1,-1", "--payloads: payload -1"},
  };
  for (const Case& c : cases) {
    const Result r = Run(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST_F(CliTest, MalformedFileExitsTwoNamingFileLineColumn) {
  Write("cand.csv", "x1\n0\n0.5\n1\n");
  Write("func.csv", "1,2,oops\n");
  const Result r =
      Run("run --problem file --candidates cand.csv --functions func.csv --rounds 2 --trials 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("func.csv:1:3: 'oops' is not a number"));
  Write("obs.csv", "x1,y\n0.1,1\n0.2\n");
  const Result f = Run("fit --data obs.csv");
  EXPECT_EQ(f.status, 2);
  EXPECT_THAT(f.err, HasSubstr("obs.csv:3:2: expected 2 fields, found 1"));
}

TEST_F(CliTest, SuggestObserveRoundTripThroughTheLog) {
  // First call: the log is created from --bounds and --strategy.
  Result r = Run("suggest --log runs.jsonl --bounds 0:1,0:10 --strategy gp-ucb --seed 3");
  ASSERT_EQ(r.status, 0) << r.err;
  // stdout is exactly one CSV line with two numbers inside the bounds.
  ASSERT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  double a = -1, b = -1;
  char comma = 0;
  std::istringstream line(r.out);
  line >> a >> comma >> b;
  ASSERT_EQ(comma, ',');
  EXPECT_GE(a, 0.0);
  EXPECT_LE(a, 1.0);
  EXPECT_GE(b, 0.0);
  EXPECT_LE(b, 10.0);
  // Later calls need neither bounds nor strategy: the log remembers them.
  const std::string x = r.out.substr(0, r.out.size() - 1);
  for (int i = 0; i < 4; ++i) {
    r = Run("observe --log runs.jsonl --x " + (i == 0 ? x : "0." + std::to_string(i + 1) + ",4.2") +
            " --y " + std::to_string(1.0 + i));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
  }
  r = Run("suggest --log runs.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), ','), 1) << r.out;
  const std::string log_before = ReadAll(dir_ + "/runs.jsonl");
  // The log holds the header, the tells with the rewards as given, and the pending points.
  EXPECT_THAT(log_before, HasSubstr("\"header\""));
  auto count = [&](const std::string& needle) {
    int n = 0;
    for (auto pos = log_before.find(needle); pos != std::string::npos;
         pos = log_before.find(needle, pos + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("\"type\":\"tell\""), 4);
  EXPECT_EQ(count("\"type\":\"pending\""), 2);
  EXPECT_THAT(log_before, HasSubstr("\"y\":4.0"));
  // A conflicting strategy or box is refused, exit 2, and nothing in the log is lost.
  r = Run("suggest --log runs.jsonl --strategy ei");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("differs from the log's strategy gp-ucb"));
  r = Run("observe --log runs.jsonl --bounds 0:2,0:10 --x 0.5,1 --y 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("differ from the log's bounds"));
  r = Run("observe --log runs.jsonl --x 0.5,11 --y 1");  // outside the box
  EXPECT_EQ(r.status, 2);
  r = Run("observe --log runs.jsonl --x 0.5,1 --y nan");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), log_before);
}

TEST_F(CliTest, CorruptLogExitsTwoAndIsLeftAlone) {
  Write("bad.jsonl", "garbage line\n{\"type\":\"tell\"}\n");
  const Result r = Run("suggest --log bad.jsonl");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.jsonl:1"));
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(ReadAll(dir_ + "/bad.jsonl"), "garbage line\n{\"type\":\"tell\"}\n");
}

TEST_F(CliTest, SuggestWithAContext) {
  Result r = Run("suggest --log c.jsonl --bounds 0:1 --context 0.5 --context-bounds 0:1");
  ASSERT_EQ(r.status, 0) << r.err;
  r = Run("observe --log c.jsonl --x 0.25 --context 0.5 --y 2");
  ASSERT_EQ(r.status, 0) << r.err;
  r = Run("observe --log c.jsonl --x 0.25 --y 2");  // the context is missing
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("context"));
}

TEST_F(CliTest, FitPrintsJsonWithTheLogMarginalLikelihood) {
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 12; ++i) {
    const double a = i / 11.0, b = (i * 7 % 12) / 11.0;
    csv += io::FormatDouble(a) + "," + io::FormatDouble(b) + "," +
           io::FormatDouble(std::sin(6 * a) + 0.1 * b) + "\n";
  }
  Write("obs.csv", csv);
  const Result r = Run("fit --data obs.csv --kernel se --restarts 2");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(r.out);
  for (const char* key : {"kernel", "log_params", "noise_variance", "log_marginal_likelihood",
                          "lengthscales_original_units", "fit"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_TRUE(json["log_marginal_likelihood"].is_number());
  EXPECT_EQ(json["num_observations"], 12);
  EXPECT_EQ(json["log_params"].size(), 3u);  // log variance + two ARD lengthscales
}

TEST_F(CliTest, FitReportsTheLikelihoodInBothUnitsAndFitsRawOutputsOnRequest) {
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 12; ++i) {
    const double a = i / 11.0, b = (i * 7 % 12) / 11.0;
    csv += io::FormatDouble(a) + "," + io::FormatDouble(b) + "," +
           io::FormatDouble(50.0 + 20.0 * std::sin(6 * a) + 2.0 * b) + "\n";
  }
  Write("obs.csv", csv);
  const Result r = Run("fit --data obs.csv --kernel se --restarts 1");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["standardized_outputs"], true);
  EXPECT_EQ(json["log_marginal_likelihood_units"], "standardized outputs");
  // log p(y) in original units, computed apart: the unstandardized GP of y - offset with the
  // fitted kernel and noise scaled by output_scale^2 (the same model, in original units).
  const double offset = json["output_offset"], scale = json["output_scale"];
  const Eigen::Vector3d log_params(
      json["log_params"]["se.log_variance"].get<double>() + 2.0 * std::log(scale),
      json["log_params"]["se.log_lengthscale[0]"].get<double>(),
      json["log_params"]["se.log_lengthscale[1]"].get<double>());
  GaussianProcessOptions raw;
  raw.standardize_outputs = false;
  raw.noise_variance = json["noise_variance_original_units"].get<double>();
  GaussianProcess gp(MakeKernel("se", FirstDims(2), true, 1.0, 0.5), 2, raw);
  gp.SetHyperparameters(log_params, raw.noise_variance);
  for (int i = 0; i < 12; ++i) {
    const double a = i / 11.0, b = (i * 7 % 12) / 11.0;  // already the unit cube
    gp.AddObservation(Eigen::Vector2d(a, b), 50.0 + 20.0 * std::sin(6 * a) + 2.0 * b - offset);
  }
  EXPECT_NEAR(json["log_marginal_likelihood_original_units"].get<double>(),
              gp.LogMarginalLikelihood(), 1e-6);
  EXPECT_NEAR(json["log_marginal_likelihood"].get<double>() - 12.0 * std::log(scale),
              gp.LogMarginalLikelihood(), 1e-6);

  const Result u = Run("fit --data obs.csv --kernel se --restarts 1 --no-standardize");
  ASSERT_EQ(u.status, 0) << u.err;
  const nlohmann::json unstandardized = nlohmann::json::parse(u.out);
  EXPECT_EQ(unstandardized["standardized_outputs"], false);
  EXPECT_EQ(unstandardized["log_marginal_likelihood_units"], "original outputs");
  EXPECT_EQ(unstandardized["output_offset"], 0.0);
  EXPECT_EQ(unstandardized["output_scale"], 1.0);
  EXPECT_EQ(unstandardized["log_marginal_likelihood"],
            unstandardized["log_marginal_likelihood_original_units"]);
  // A prior mean of 0 for outputs near 50: the fitted signal variance is of the outputs' mean
  // square (~2600), far above the standardized bounds' upper end 1e3.
  EXPECT_GT(std::exp(unstandardized["log_params"]["se.log_variance"].get<double>()), 1e3);
}

// docs/design.md, "Faults": "huge or tiny rewards ... bounds whose width overflows", from the
// command line.
TEST_F(CliTest, HugeOrTinyRewardsRefusedFirstObserveLeavesNoLog) {
  // A refused first call writes nothing, so the corrected retry (here with other bounds)
  // starts the log instead of being refused for not matching a header it never meant.
  Result r = Run("observe --log a.jsonl --bounds 0:1 --x 0.5,0.5 --y 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("x has size 2"));
  EXPECT_FALSE(std::ifstream(dir_ + "/a.jsonl").good());
  r = Run("observe --log a.jsonl --bounds 0:1,0:1 --x 0.5,0.5 --y 1");
  EXPECT_EQ(r.status, 0) << r.err;
  // A box whose width overflows is refused before any log exists.
  r = Run("observe --log b.jsonl --bounds -1e308:1e308 --x 0 --y 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("the width upper - lower overflows"));
  EXPECT_FALSE(std::ifstream(dir_ + "/b.jsonl").good());
  // Huge rewards keep the log usable: the next suggestion is a point of the box.
  for (const char* y : {"1e300", "-1e300", "1.5e308"}) {
    r = Run(std::string("observe --log c.jsonl --bounds 0:1 --x ") +
            (y[0] == '-'   ? "0.1"
             : y[1] == '.' ? "0.9"
                           : "0.5") +
            " --y " + y);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  r = Run("suggest --log c.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  const double x = std::stod(r.out);
  EXPECT_GE(x, 0.0);
  EXPECT_LE(x, 1.0);
}

TEST_F(CliTest, HugeOrTinyRewardsFitOnTheLargestRewards) {
  // y = +-1e308: the deviation of such outputs overflowed and the fit ran on nonsense; now it
  // is a fit of the standardized data, with the scale in the output.
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 16; ++i) {
    const double a = i / 15.0, b = (i * 7 % 16) / 15.0;
    csv += io::FormatDouble(a) + "," + io::FormatDouble(b) + "," +
           (std::sin(6 * a) + b > 0.5 ? "1e308" : "-1e308") + "\n";
  }
  Write("big.csv", csv);
  const Result r = Run("fit --data big.csv --restarts 2");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(r.out);
  EXPECT_TRUE(json["fit"]["success"].get<bool>());
  ASSERT_TRUE(json["log_marginal_likelihood"].is_number());
  EXPECT_TRUE(std::isfinite(json["log_marginal_likelihood"].get<double>()));
  const double scale = json["output_scale"].get<double>();
  EXPECT_GT(scale, 5e307);
  EXPECT_LE(scale, 1e308);
  EXPECT_LE(std::abs(json["output_offset"].get<double>()), 1e308);
}

TEST_F(CliTest, StrategiesListsDescriptionsAndDefaultOptions) {
  const Result r = Run("strategies");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("gp-ucb     GP-UCB (Srinivas et al. 2010)"));
  EXPECT_THAT(r.out, HasSubstr("\"beta_scale\":1.0"));
  EXPECT_THAT(r.out,
              HasSubstr("options: {\"incumbent_rule\":\"posterior-mean\",\"relative_xi\":0.0,"
                        "\"relative_xi_per_dim\":0.0,\"xi\":0.0}"));  // ei, log-ei
  EXPECT_THAT(r.out, HasSubstr("\"relative_xi_per_dim\":0.005"));     // pi
  EXPECT_THAT(r.out, HasSubstr("options: {}"));                       // mean, variance
  EXPECT_THAT(r.out, HasSubstr("on boxes only with kernels that have random features"));
  EXPECT_THAT(r.out, HasSubstr("Every strategy runs on finite sets and boxes"));
}

// --option: any strategy option on the first call, remembered by the log; a later call may
// repeat it but not change it; an unknown key is named.
TEST_F(CliTest, SuggestTakesStrategyOptions) {
  Result r =
      Run("suggest --log o.jsonl --bounds 0:1 --option beta_scale=0.2 "
          "--option beta_schedule=constant");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json header = nlohmann::json::parse(
      ReadAll(dir_ + "/o.jsonl").substr(0, ReadAll(dir_ + "/o.jsonl").find('\n')));
  EXPECT_EQ(header.at("version"), kLogFormatVersion);
  EXPECT_EQ(header.at("strategy_options").at("beta_scale"), 0.2);
  EXPECT_EQ(header.at("strategy_options").at("beta_schedule"), "constant");
  r = Run("suggest --log o.jsonl --option beta_scale=0.2");
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string log_before = ReadAll(dir_ + "/o.jsonl");
  r = Run("suggest --log o.jsonl --option beta_scale=0.3");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--option values differ from the log's strategy options"));
  EXPECT_EQ(ReadAll(dir_ + "/o.jsonl"), log_before);
  r = Run("suggest --log p.jsonl --bounds 0:1 --strategy ei --option beta_scale=0.2");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("ei options: unknown key 'beta_scale'; valid keys: xi"));
  r = Run("suggest --log p.jsonl --bounds 0:1 --option beta_scale");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--option 'beta_scale': expected key=value"));
}

// safe-opt from the command line: listed, refused without a threshold, its seed first, and
// measured constraint signals told with --g.
TEST_F(CliTest, SafeOptSuggestsItsSeedAndTakesConstraintSignals) {
  EXPECT_THAT(Run("strategies").out, HasSubstr("safe-opt"));
  Result r = Run("suggest --log s.jsonl --bounds -1:1,-1:1 --strategy safe-opt");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("a safety threshold is required"));
  r =
      Run("suggest --log s.jsonl --bounds -1:1,-1:1 --strategy safe-opt --option threshold=0 "
          "--option constraint_thresholds=[-2] --option seeds=[[0.25,-0.5]]");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "0.25,-0.5\n");
  r = Run("observe --log s.jsonl --x 0.25,-0.5 --y 0.4");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("constraints has 0 values"));
  r = Run("observe --log s.jsonl --x 0.25,-0.5 --y 0.4 --g -1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(ReadAll(dir_ + "/s.jsonl"), HasSubstr("\"g\":[-1.0]"));
}

}  // namespace
}  // namespace gpbandit
