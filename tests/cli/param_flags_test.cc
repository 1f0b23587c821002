// Studies of the user's own parameters on the command line (cli/parameter_flags.h): --param and
// --space create them, suggest / best / pending / worker print name=value pairs, observe /
// predict / pending --release read them, and every refused call leaves the log as it was.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/space/parameter_spec.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

// Every kind: a log-scaled real, a linear real, an integer, a log-scaled integer, a
// categorical and a fixed real.
const char kParams[] =
    "--param kp=log:0.1:100 --param gain=real:-1:1 --param taps=int:1:12 "
    "--param size=int-log:1:4096 --param mode=cat:pid,lead-lag --param dt=fixed:0.01";

// The same space as the library's JSON (parameter_spec.h).
const char kSpaceJson[] = R"({"parameters": [
  {"name": "kp", "type": "real", "scale": "log", "lower": 0.1, "upper": 100},
  {"name": "gain", "type": "real", "scale": "linear", "lower": -1, "upper": 1},
  {"name": "taps", "type": "integer", "scale": "linear", "lower": 1, "upper": 12},
  {"name": "size", "type": "integer", "scale": "log", "lower": 1, "upper": 4096},
  {"name": "mode", "type": "categorical", "labels": ["pid", "lead-lag"]},
  {"name": "dt", "type": "real", "scale": "linear", "lower": 0.01, "upper": 0.01}]})";

// "a=1 b=x\n" -> {a: "1", b: "x"}, in order.
std::vector<std::pair<std::string, std::string>> Pairs(const std::string& line) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::stringstream in(line);
  std::string item;
  while (in >> item) {
    const std::size_t eq = item.find('=');
    pairs.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
  }
  return pairs;
}

bool IsIntegerText(const std::string& text) {
  return !text.empty() && text.find_first_not_of("-0123456789") == std::string::npos;
}

// Fails the test unless `line` is a legal point of kParams: the names in order, reals in
// range, integers written as integers in range, labels from the list, the fixed value.
void ExpectLegal(const std::string& line) {
  const auto pairs = Pairs(line);
  ASSERT_EQ(pairs.size(), 6u) << line;
  const std::vector<std::string> names = {"kp", "gain", "taps", "size", "mode", "dt"};
  for (std::size_t i = 0; i < names.size(); ++i) ASSERT_EQ(pairs[i].first, names[i]) << line;
  const double kp = std::stod(pairs[0].second), gain = std::stod(pairs[1].second);
  EXPECT_TRUE(kp >= 0.1 && kp <= 100) << line;
  EXPECT_TRUE(gain >= -1 && gain <= 1) << line;
  ASSERT_TRUE(IsIntegerText(pairs[2].second)) << line;
  ASSERT_TRUE(IsIntegerText(pairs[3].second)) << line;
  const long long taps = std::stoll(pairs[2].second), size = std::stoll(pairs[3].second);
  EXPECT_TRUE(taps >= 1 && taps <= 12) << line;
  EXPECT_TRUE(size >= 1 && size <= 4096) << line;
  EXPECT_TRUE(pairs[4].second == "pid" || pairs[4].second == "lead-lag") << line;
  EXPECT_EQ(pairs[5].second, "0.01") << line;
}

// A reward of the point: best near kp = 3, gain = 0.2, taps = 7, mode = lead-lag.
std::string Reward(const std::string& line) {
  std::map<std::string, std::string> v;
  for (const auto& [name, value] : Pairs(line)) v[name] = value;
  const double r = -std::pow(std::log10(std::stod(v["kp"]) / 3.0), 2) -
                   std::pow(std::stod(v["gain"]) - 0.2, 2) -
                   0.01 * std::pow(std::stod(v["taps"]) - 7, 2) +
                   (v["mode"] == "lead-lag" ? 0.5 : 0.0) - 1e-4 * std::stod(v["size"]);
  std::ostringstream s;
  s.precision(17);
  s << r;
  return s.str();
}

class CliParamFlagsTest : public CliTest {
 protected:
  // `rounds` rounds of suggest / observe on `log` (created with `create_flags`); returns the
  // suggestions, each checked legal and checked to be the one pending point before its observe.
  std::vector<std::string> Rounds(const std::string& log, const std::string& create_flags,
                                  int rounds) {
    std::vector<std::string> lines;
    for (int i = 0; i < rounds; ++i) {
      const Result s =
          Run("suggest --log " + log + " --strategy ei " + (i == 0 ? create_flags : ""));
      EXPECT_EQ(s.status, 0) << s.err;
      const std::string line = Chomp(s.out);
      ExpectLegal(line);
      const Result pending = Run("pending --log " + log);
      EXPECT_THAT(pending.out, HasSubstr("\t" + line + "\t"));
      const Result o = Run("observe --log " + log + " --x '" + line + "' --y " + Reward(line));
      EXPECT_EQ(o.status, 0) << o.err;
      lines.push_back(line);
    }
    return lines;
  }

  std::string dir(const std::string& name) const { return dir_ + "/" + name; }
};

// Ten rounds over every kind: every point legal, told back exactly (the told vector is the
// suggested one, so nothing stays pending), and the log, reopened, holds the printed values.
TEST_F(CliParamFlagsTest, SuggestObserveRoundTripOverEveryKind) {
  const std::vector<std::string> lines = Rounds("runs.jsonl", kParams, 10);
  ASSERT_EQ(lines.size(), 10u);
  const Result pending = Run("pending --log runs.jsonl");
  EXPECT_THAT(pending.err, HasSubstr("0 pending"));
  const std::unique_ptr<Optimizer> reopened = Optimizer::Open(dir("runs.jsonl"), "");
  const std::vector<Observation> told = reopened->observations();
  ASSERT_EQ(told.size(), 10u);
  const ParameterSpace& space = *reopened->domain().action_space();
  for (std::size_t i = 0; i < told.size(); ++i) {
    EXPECT_EQ(FormatNamedValues(space, space.ToNamed(told[i].x)), lines[i]);
    EXPECT_EQ(Reward(lines[i]), Reward(FormatNamedValues(space, space.ToNamed(told[i].x))));
  }
  // Both categories and more than one integer were tried: the points are not all alike.
  std::map<std::string, int> modes;
  for (const std::string& line : lines) ++modes[Pairs(line)[4].second];
  EXPECT_EQ(modes.size(), 2u);
}

// Each call rebuilds the optimizer from the log: two logs fed the same calls suggest the same
// points, and a --space file holding the same space makes the same study as --param.
TEST_F(CliParamFlagsTest, ResumedStudiesSuggestTheSamePointsFromParamOrSpaceFile) {
  Write("space.json", kSpaceJson);
  const std::vector<std::string> a = Rounds("a.jsonl", kParams, 6);
  const std::vector<std::string> b = Rounds("b.jsonl", "--space space.json", 6);
  EXPECT_EQ(a, b);
  // Given again, the same space (either way) is accepted.
  const Result again = Run("suggest --log a.jsonl --space space.json");
  EXPECT_EQ(again.status, 0) << again.err;
  const Result same = Run(std::string("suggest --log b.jsonl ") + kParams);
  EXPECT_EQ(same.status, 0) << same.err;
  EXPECT_EQ(again.out, same.out);
}

// best prints the named recommendation, predict and pending --release take named points.
TEST_F(CliParamFlagsTest, BestPredictAndPendingSpeakNames) {
  const std::vector<std::string> lines = Rounds("runs.jsonl", kParams, 8);
  const Result best = Run("best --log runs.jsonl");
  ASSERT_EQ(best.status, 0) << best.err;
  ExpectLegal(Chomp(best.out));
  // best without --context is an observed point.
  EXPECT_NE(std::find(lines.begin(), lines.end(), Chomp(best.out)), lines.end());
  // The pairs in several --x, in any order.
  const auto pairs = Pairs(best.out);
  std::string split;
  for (auto it = pairs.rbegin(); it != pairs.rend(); ++it)
    split += " --x " + it->first + "=" + it->second;
  const Result p1 = Run("predict --log runs.jsonl --x '" + Chomp(best.out) + "'");
  const Result p2 = Run("predict --log runs.jsonl" + split);
  ASSERT_EQ(p1.status, 0) << p1.err;
  EXPECT_EQ(p1.out, p2.out);
  EXPECT_EQ(Numbers(p1.out).size(), 2u);
  const Result s = Run("suggest --log runs.jsonl");
  ASSERT_EQ(s.status, 0);
  const Result released = Run("pending --log runs.jsonl --release '" + Chomp(s.out) + "'");
  EXPECT_EQ(released.status, 0) << released.err;
  EXPECT_THAT(released.err, HasSubstr("released " + Chomp(s.out)));
  EXPECT_THAT(released.err, HasSubstr("0 pending"));
}

// A worker hands the point to its command as name=value arguments and in GPBANDIT_X1...
TEST_F(CliParamFlagsTest, WorkerPassesNamedArguments) {
  const Result create =
      Run("study create --storage s.jsonl --param kp=log:0.1:100 --param mode=cat:pid,lead-lag");
  ASSERT_EQ(create.status, 0) << create.err;
  // The reward is kp itself, read from the environment; the arguments are written to a file.
  const Result w =
      Run("worker --storage s.jsonl --evaluations 3 -- sh -c 'echo \"$@\" >> args.txt; echo "
          "$GPBANDIT_X1' sh");
  ASSERT_EQ(w.status, 0) << w.err;
  std::stringstream out(w.out), args(ReadAll(dir("args.txt")));
  std::string told, arguments;
  int n = 0;
  while (std::getline(out, told) && std::getline(args, arguments)) {
    ++n;
    const auto pairs = Pairs(told);
    ASSERT_EQ(pairs.size(), 3u) << told;
    EXPECT_EQ(pairs[2].first, "y");
    EXPECT_EQ(pairs[2].second, pairs[0].second);  // y = kp
    EXPECT_EQ(arguments, "kp=" + pairs[0].second + " mode=" + pairs[1].second);
  }
  EXPECT_EQ(n, 3);
  const Result show = Run("study show --storage s.jsonl");
  EXPECT_THAT(show.out, HasSubstr("\"kp="));
}

// A label holding a blank (possible in a --space file) is read back whole from one --x.
TEST_F(CliParamFlagsTest, LabelsWithBlanksAreReadWhole) {
  Write("space.json", R"({"parameters": [
    {"name": "kp", "type": "real", "scale": "log", "lower": 0.1, "upper": 100},
    {"name": "mode", "type": "categorical", "labels": ["pid", "lead lag"]}]})");
  const Result o =
      Run("observe --log runs.jsonl --space space.json --x 'mode=lead lag  kp=2.5' --y 1");
  ASSERT_EQ(o.status, 0) << o.err;
  const std::unique_ptr<Optimizer> reopened = Optimizer::Open(dir("runs.jsonl"), "");
  ASSERT_EQ(reopened->observations().size(), 1u);
  const NamedValues told =
      reopened->domain().action_space()->ToNamed(reopened->observations()[0].x);
  EXPECT_EQ(std::get<std::string>(told.at("mode")), "lead lag");
  EXPECT_EQ(std::get<double>(told.at("kp")), 2.5);
  const Result best = Run("best --log runs.jsonl");
  EXPECT_EQ(best.out, "kp=2.5 mode=lead lag\n");
}

struct Refusal {
  std::string args, expected;  // the call, and words its message must hold
};

// Every refused call exits with status 2, names the flag and the value, and leaves the log
// byte for byte as it was.
TEST_F(CliParamFlagsTest, RefusedCallsNameTheProblemAndLeaveTheLogUnchanged) {
  Rounds("runs.jsonl", kParams, 3);
  Write("bad.json", "{\"parameters\": [{\"name\": \"kp\", \"type\": \"real\"");
  const std::string before = ReadAll(dir("runs.jsonl"));
  const std::string log = "--log runs.jsonl ";
  const std::vector<Refusal> refusals = {
      {"suggest " + log + "--param kp=bogus:1:2", "--param 'kp=bogus:1:2'"},
      {"suggest " + log + "--param kp=real:5:1", "--param 'kp=real:5:1'"},
      {"suggest " + log + "--param kp=log:0:10", "--param 'kp=log:0:10'"},
      {"suggest " + log + "--param kp=log:-1:10", "--param 'kp=log:-1:10'"},
      {"suggest " + log + "--param taps=int:1:12 --param taps=int:1:3", "taps"},
      {"suggest " + log + "--param kp=log:0.1:100 --bounds 0:1", "--bounds 0:1"},
      {"suggest " + log + "--param kp=log:0.1:100 --space bad.json", "--param and --space"},
      {"suggest " + log + "--space bad.json", "--space bad.json"},
      {"suggest " + log + "--space missing.json", "--space missing.json"},
      {"suggest " + log + "--bounds 0:1,0:1", "--bounds 0:1,0:1"},
      // The log's space with taps up to 10: the difference is named.
      {"suggest " + log +
           "--param kp=log:0.1:100 --param gain=real:-1:1 --param taps=int:1:10 "
           "--param size=int-log:1:4096 --param mode=cat:pid,lead-lag --param dt=fixed:0.01",
       "parameter 3 is 'taps: integer [1, 10]' but the study's is 'taps: integer [1, 12]'"},
      {"suggest " + log + "--param kp=log:0.1:100", "it has 1 parameters, the study 6"},
      {"observe " + log + "--x 'kp=1 gain=0 taps=3 size=8 mode=pd dt=0.01' --y 1", "'pd'"},
      {"observe " + log + "--x 'kp=1 gain=0 taps=3 size=8 mode=pid dt=0.01 foo=2' --y 1", "foo"},
      {"observe " + log + "--x 'kp=1 gain=0 size=8 mode=pid dt=0.01' --y 1", "taps"},
      {"observe " + log + "--x 'kp=1 gain=0 taps=3.5 size=8 mode=pid dt=0.01' --y 1", "3.5"},
      {"observe " + log + "--x 'kp=1000 gain=0 taps=3 size=8 mode=pid dt=0.01' --y 1", "1000"},
      {"observe " + log + "--x 'kp=1 gain=0 taps=3 size=8 mode=pid dt=0.02' --y 1", "dt"},
      {"observe " + log + "--x 'kp=1 kp=2 gain=0 taps=3 size=8 mode=pid dt=0.01' --y 1", "twice"},
      {"observe " + log + "--x 0.5,0,3,8,0,0.01 --y 1", "--x"},
      {"predict " + log + "--x 'kp=1 gain=0 taps=13 size=8 mode=pid dt=0.01'", "13"},
      {"pending " + log + "--release 'kp=1 gain=0 taps=3 size=8 mode=pid dt=0.01'",
       "no pending point equals kp=1 gain=0 taps=3 size=8 mode=pid dt=0.01"},
  };
  for (const Refusal& r : refusals) {
    const Result result = Run(r.args);
    EXPECT_EQ(result.status, 2) << r.args << "\n" << result.err;
    EXPECT_THAT(result.err, HasSubstr(r.expected)) << r.args;
    EXPECT_EQ(ReadAll(dir("runs.jsonl")), before) << r.args;
  }
  // Named parameters on a box study.
  ASSERT_EQ(Run("suggest --log box.jsonl --bounds 0:1,0:2").status, 0);
  const std::string box = ReadAll(dir("box.jsonl"));
  const Result named = Run("suggest --log box.jsonl --param kp=log:0.1:100");
  EXPECT_EQ(named.status, 2);
  EXPECT_THAT(named.err, HasSubstr("--param gives named parameters, but the study's actions are"));
  EXPECT_EQ(ReadAll(dir("box.jsonl")), box);
  // A refused first call creates no log.
  for (const std::string& bad :
       std::vector<std::string>{"--param kp=log:0:1", "--param mode=cat:", "--param kp=1",
                                "--param k=fixed:", "--param 9x=real:0:1"}) {
    const Result result = Run("suggest --log new.jsonl " + bad);
    EXPECT_EQ(result.status, 2) << bad;
    EXPECT_THAT(result.err, HasSubstr("--param")) << bad << ": " << result.err;
    EXPECT_FALSE(std::ifstream(dir("new.jsonl")).good()) << bad;
  }
  const Result observed = Run("observe --log new.jsonl --param kp=log:0.1:100 --x kp=1000 --y 1");
  EXPECT_EQ(observed.status, 2);
  EXPECT_THAT(observed.err, HasSubstr("--x 'kp=1000'"));
  EXPECT_FALSE(std::ifstream(dir("new.jsonl")).good());
}

}  // namespace
}  // namespace gpbandit
