// Trial numbers on the command line (Optimizer::TellTrial, ReleaseTrial): suggest reports the
// suggestion's trial, pending lists each pending point's trial, `observe --trial N` releases
// that suggestion's pending point whatever --x is (a rounded x), `pending --release --trial N`
// gives it back, and a trial that is not pending is refused with the log left as it was.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const char kNamedParams[] = "--param kp=log:0.1:100 --param taps=int:1:12";

// The lines of `text`, without their newlines.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream s(text);
  for (std::string line; std::getline(s, line);) lines.push_back(line);
  return lines;
}

// The tab-separated fields of one line.
std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream s(line);
  for (std::string field; std::getline(s, field, '\t');) fields.push_back(field);
  return fields;
}

// "0.123456,1.98765" -> "0.12,1.99": what a person types after reading the suggestion.
std::string RoundedBoxPoint(const std::string& csv) {
  std::string out;
  for (double v : Numbers(csv)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", v);
    out += (out.empty() ? "" : ",") + std::string(text);
  }
  return out;
}

// "kp=34.28854004048662 taps=9" -> "kp=34.29 taps=9".
std::string RoundedNamedPoint(const std::string& pairs) {
  const std::string kp = pairs.substr(3, pairs.find(' ') - 3);
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", std::stod(kp));
  return "kp=" + std::string(text) + pairs.substr(pairs.find(' '));
}

class CliTrialTest : public CliTest {
 protected:
  // The trial column of `gpbandit pending`, one entry per pending point.
  std::vector<long> PendingTrials(const std::string& log) {
    const Result r = Run("pending --log " + log);
    EXPECT_EQ(r.status, 0) << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    EXPECT_FALSE(lines.empty());
    if (lines.empty()) return {};
    EXPECT_EQ(lines[0], "round\tworker\tlease\tx\tz\ttrial");
    std::vector<long> trials;
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const std::vector<std::string> fields = Fields(lines[i]);
      EXPECT_EQ(fields.size(), 6u) << lines[i];
      trials.push_back(std::stol(fields.back()));
    }
    return trials;
  }

  // One suggestion whose rounded x is told first without --trial (it stays pending: the exact
  // match fails), then with --trial (its pending point is released).
  void ExpectTrialReleasesRoundedPoint(const std::string& create_flags,
                                       std::string (*rounded)(const std::string&)) {
    const Result s = Run("suggest --log runs.jsonl --print-trial " + create_flags);
    ASSERT_EQ(s.status, 0) << s.err;
    const std::vector<std::string> lines = Lines(s.out);
    ASSERT_EQ(lines.size(), 2u) << s.out;
    EXPECT_EQ(lines[1], "trial 0");
    const std::string x = rounded(lines[0]);
    ASSERT_NE(x, lines[0]);

    const Result untied = Run("observe --log runs.jsonl --x '" + x + "' --y 0.5");
    ASSERT_EQ(untied.status, 0) << untied.err;
    EXPECT_THAT(PendingTrials("runs.jsonl"), ElementsAre(0));

    const Result tied = Run("observe --log runs.jsonl --x '" + x + "' --y 0.7 --trial 0");
    ASSERT_EQ(tied.status, 0) << tied.err;
    EXPECT_THAT(PendingTrials("runs.jsonl"), IsEmpty());
    const std::vector<std::string> log = Lines(ReadAll(dir_ + "/runs.jsonl"));
    ASSERT_FALSE(log.empty());
    EXPECT_THAT(log.back(), HasSubstr("\"trial\":0"));
    EXPECT_THAT(log.back(), HasSubstr("\"type\":\"tell\""));
  }
};

// suggest's stdout stays the point alone (what scripts read) unless --print-trial adds the line
// "trial N"; stderr names the trial either way; pending lists every pending trial beside its x.
TEST_F(CliTrialTest, SuggestReportsTheTrialAndPendingListsIt) {
  const Result first = Run("suggest --log runs.jsonl --bounds 0:1,0:2 --print-trial");
  ASSERT_EQ(first.status, 0) << first.err;
  const std::vector<std::string> first_lines = Lines(first.out);
  ASSERT_EQ(first_lines.size(), 2u) << first.out;
  EXPECT_EQ(Numbers(first_lines[0]).size(), 2u);
  EXPECT_EQ(first_lines[1], "trial 0");
  EXPECT_THAT(first.err, HasSubstr("[suggest] trial 0, round 1"));

  const Result second = Run("suggest --log runs.jsonl");
  ASSERT_EQ(second.status, 0) << second.err;
  ASSERT_EQ(Lines(second.out).size(), 1u) << second.out;
  EXPECT_EQ(Numbers(second.out).size(), 2u);
  EXPECT_THAT(second.err, HasSubstr("[suggest] trial 1, round 2"));

  EXPECT_THAT(PendingTrials("runs.jsonl"), ElementsAre(0, 1));
  const Result pending = Run("pending --log runs.jsonl");
  EXPECT_THAT(pending.out, HasSubstr("\t" + first_lines[0] + "\t\t0\n"));
  EXPECT_THAT(pending.out, HasSubstr("\t" + Chomp(second.out) + "\t\t1\n"));
}

TEST_F(CliTrialTest, ObserveWithTrialReleasesARoundedBoxPoint) {
  ExpectTrialReleasesRoundedPoint("--bounds 0:1,0:2", RoundedBoxPoint);
}

TEST_F(CliTrialTest, ObserveWithTrialReleasesARoundedNamedPoint) {
  ExpectTrialReleasesRoundedPoint(kNamedParams, RoundedNamedPoint);
}

// A trial never handed out, one already told, one released, and a negative one: each refused
// with status 2 and a message naming --trial and the number, the log byte for byte as it was.
TEST_F(CliTrialTest, TrialsNotPendingAreRefusedWithTheLogUnchanged) {
  ASSERT_EQ(Run("suggest --log runs.jsonl --bounds 0:1,0:2").status, 0);
  const Result s = Run("suggest --log runs.jsonl");
  ASSERT_EQ(s.status, 0);
  ASSERT_EQ(Run("observe --log runs.jsonl --x " + Chomp(s.out) + " --y 1 --trial 1").status, 0);
  ASSERT_EQ(Run("suggest --log runs.jsonl").status, 0);
  ASSERT_EQ(Run("pending --log runs.jsonl --release --trial 2").status, 0);
  ASSERT_THAT(PendingTrials("runs.jsonl"), ElementsAre(0));
  const std::string before = ReadAll(dir_ + "/runs.jsonl");

  for (const std::string trial : {"7", "1", "2"}) {
    for (const std::string command : {"observe --log runs.jsonl --x 0.5,0.5 --y 1 --trial ",
                                      "pending --log runs.jsonl --release --trial "}) {
      const Result r = Run(command + trial);
      EXPECT_EQ(r.status, 2) << command << trial;
      EXPECT_THAT(r.err, HasSubstr("--trial " + trial + " is not pending in runs.jsonl"));
      EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), before) << command << trial;
    }
  }
  const Result negative = Run("observe --log runs.jsonl --x 0.5,0.5 --y 1 --trial -1");
  EXPECT_EQ(negative.status, 2);
  EXPECT_THAT(negative.err, HasSubstr("--trial -1 must be >= 0"));
  EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), before);
  EXPECT_THAT(PendingTrials("runs.jsonl"), ElementsAre(0));
}

// pending --release --trial N gives back that trial's point only (logged with its trial);
// --trial without a bare --release, or beside a point, is refused and writes nothing.
TEST_F(CliTrialTest, PendingReleasesByTrial) {
  ASSERT_EQ(Run(std::string("suggest --log runs.jsonl ") + kNamedParams).status, 0);
  ASSERT_EQ(Run("suggest --log runs.jsonl").status, 0);
  ASSERT_THAT(PendingTrials("runs.jsonl"), ElementsAre(0, 1));
  const std::string before = ReadAll(dir_ + "/runs.jsonl");
  const std::pair<std::string, std::string> misuses[] = {
      {"pending --log runs.jsonl --trial 0", "--trial goes with --release"},
      {"pending --log runs.jsonl --release", "--release needs a point x1,x2 or --trial N"},
      {"pending --log runs.jsonl --release 'kp=1 taps=2' --trial 0", "not both"},
      {"pending --log runs.jsonl --release --trial 0 --context 1", "--context"}};
  for (const auto& [args, message] : misuses) {
    const Result r = Run(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_THAT(r.err, HasSubstr(message)) << args;
    EXPECT_EQ(ReadAll(dir_ + "/runs.jsonl"), before) << args;
  }

  const Result released = Run("pending --log runs.jsonl --release --trial 0");
  ASSERT_EQ(released.status, 0) << released.err;
  EXPECT_THAT(released.err, HasSubstr("released trial 0"));
  EXPECT_THAT(released.err, HasSubstr("1 pending"));
  EXPECT_THAT(PendingTrials("runs.jsonl"), ElementsAre(1));
  const std::vector<std::string> log = Lines(ReadAll(dir_ + "/runs.jsonl"));
  EXPECT_THAT(log.back(), HasSubstr("\"trial\":0"));
  EXPECT_THAT(log.back(), HasSubstr("\"type\":\"release\""));
}

}  // namespace
}  // namespace gpbandit
