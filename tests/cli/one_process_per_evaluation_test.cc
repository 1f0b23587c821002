// A loop of one process per evaluation (`gpbandit suggest`, then `gpbandit observe`, each a
// process of its own) runs the study exactly as one process doing every evaluation
// (`gpbandit worker`): the same refits (fit records) and the same suggestions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using ::testing::SizeIs;

// The records of `type` in the log at `path`, without what differs between runs that made the
// same choices: the claims' and leases' times, the workers' names, the fits' reports (they
// time the fit).
std::vector<std::string> Records(const std::string& path, const std::string& type) {
  static const std::regex varies(
      R"re(,?"(lease_until|refit_claim)":[-+.0-9eE]+|,?"(worker|report)":"[^"]*")re");
  std::vector<std::string> out;
  std::istringstream log(ReadAll(path));
  for (std::string line; std::getline(log, line);)
    if (line.find("\"type\":\"" + type + "\"") != std::string::npos)
      out.push_back(std::regex_replace(line, varies, ""));
  return out;
}

class OneProcessPerEvaluationTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    // The reward of the point in GPBANDIT_X1, GPBANDIT_X2, as `gpbandit worker` passes it.
    Write("reward.sh",
          "#!/bin/sh\nawk -v a=\"$GPBANDIT_X1\" -v b=\"$GPBANDIT_X2\" "
          "'BEGIN { printf \"%.17g\\n\", -((a - 0.3) ^ 2 + (b - 0.7) ^ 2) }'\n");
    ASSERT_EQ(std::system(("chmod +x '" + dir_ + "/reward.sh'").c_str()), 0);
  }
  // The reward.sh of the CSV point `x`, as printed.
  std::string Reward(const std::string& x) {
    const std::size_t comma = x.find(',');
    const std::string command = "cd '" + dir_ + "' && GPBANDIT_X1='" + x.substr(0, comma) +
                                "' GPBANDIT_X2='" + x.substr(comma + 1) + "' ./reward.sh";
    FILE* pipe = popen(command.c_str(), "r");
    char buffer[128] = {};
    const bool read = pipe != nullptr && fgets(buffer, sizeof buffer, pipe) != nullptr;
    if (pipe != nullptr) pclose(pipe);
    std::string y = read ? buffer : "";
    while (!y.empty() && y.back() == '\n') y.pop_back();
    return y;
  }
};

TEST_F(OneProcessPerEvaluationTest, RefitsAndSuggestsAsOneProcess) {
  constexpr int kEvaluations = 12;
  for (const char* log : {"loop.jsonl", "one.jsonl"})
    ASSERT_EQ(
        Run(std::string("study create --storage ") + log + " --bounds 0:1,0:1 --seed 5").status, 0);
  for (int i = 0; i < kEvaluations; ++i) {
    Result r = Run("suggest --log loop.jsonl");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string x = r.out.substr(0, r.out.find('\n'));
    const std::string y = Reward(x);
    ASSERT_FALSE(y.empty()) << x;
    r = Run("observe --log loop.jsonl --x " + x + " --y " + y);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const Result worker = Run("worker --storage one.jsonl --evaluations " +
                            std::to_string(kEvaluations) + " -- ./reward.sh");
  ASSERT_EQ(worker.status, 0) << worker.err;
  const std::vector<std::string> one_fits = Records(dir_ + "/one.jsonl", "fit");
  // The schedule refits after every tell below 20 observations, from the first on the model
  // picks (after the initial design).
  ASSERT_GE(one_fits.size(), 5u);
  EXPECT_EQ(Records(dir_ + "/loop.jsonl", "fit"), one_fits);
  const std::vector<std::string> one_tells = Records(dir_ + "/one.jsonl", "tell");
  ASSERT_THAT(one_tells, SizeIs(kEvaluations));
  EXPECT_EQ(Records(dir_ + "/loop.jsonl", "tell"), one_tells);
}

}  // namespace
}  // namespace gpbandit
