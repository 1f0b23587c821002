// Logs of format version 1 (flat strategy options, log_header.h) resume exactly.
//
// fixtures/v1_*.jsonl were written by the code of format version 1, and fixtures/
// v1_*.expected.txt hold the suggestions that the optimizer which wrote each log made next, by
// the continuation protocol of Continue() below. The generator was
// tests/plugin/fixtures/make_v1_logs.cc at commit 2c4f08d ("Version-1 observation-log
// fixtures"), built against that commit (`git show 2c4f08d:tests/plugin/fixtures/make_v1_logs.cc`);
// it also checked that the code of that time, resuming the fixture, made the same suggestions.
//
// The expected suggestions pin the numerics of that commit as well (maximizer, kernels, fits):
// a deliberate change of those changes them too. Then the state checks of this test must still
// pass unchanged (they are independent of the numerics), and the suggestions are re-recorded by
// running this test once with GPBANDIT_RERECORD_V1_SUGGESTIONS=1 (it then rewrites the
// suggestion lines of fixtures/v1_*.expected.txt, keeping their comments, and fails on purpose
// so that a re-recording never passes unnoticed). The suggestions depend on the dense kernels
// too (gp/dense_kernels.h: OpenBLAS chooses its kernels for the CPU), so the file records which
// ones made them ("kernels ..."), and the comparison is skipped under others.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "examples/problems/synthetic_functions.h"
#include "gp/dense_kernels.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/plugin/log_header.h"
#include "gpbandit/plugin/optimizer.h"
#include "tests/plugin/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

constexpr int kRounds = 3;

std::string FixturePath(const std::string& name) {
  const std::string here = __FILE__;
  return here.substr(0, here.find_last_of('/')) + "/fixtures/" + name;
}

// The fixture copied to a temporary path: resuming appends to the log.
std::string CopyOfFixture(const std::string& name) {
  const std::string path = testing::TempLogPath(name);
  std::ofstream(path, std::ios::binary) << testing::ReadFile(FixturePath(name + ".jsonl"));
  return path;
}

// The suggestions of fixtures/<name>.expected.txt, and the dense kernels that made them in
// *kernels.
std::vector<Eigen::VectorXd> ExpectedSuggestions(const std::string& name, std::string* kernels) {
  std::ifstream in(FixturePath(name + ".expected.txt"));
  std::vector<Eigen::VectorXd> expected;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "kernels") std::getline(words >> std::ws, *kernels);
    if (tag != "suggestion") continue;
    std::vector<double> x;
    std::string number;
    while (words >> number) x.push_back(std::strtod(number.c_str(), nullptr));
    expected.push_back(Eigen::Map<Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())));
  }
  return expected;
}

double BraninReward(const Eigen::VectorXd& x, const Eigen::VectorXd&) {
  return -problems::Branin(x);
}
double ContextReward(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  return -problems::Branin(x) / 50.0 + std::sin(3.0 * z(0) + x(0));
}
Eigen::VectorXd ContextOfRound(int k) { return Eigen::VectorXd::Constant(1, 0.1 + 0.17 * k); }

using Reward = double (*)(const Eigen::VectorXd&, const Eigen::VectorXd&);

// The continuation protocol of the generator: tell every pending point its reward, then
// kRounds times ask and tell.
std::vector<Eigen::VectorXd> Continue(Optimizer& opt, Reward reward, bool contextual) {
  const Eigen::MatrixXd X = opt.pending_actions();
  const Eigen::MatrixXd Z = opt.pending_contexts();
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    opt.Tell(X.col(j), Z.col(j), reward(X.col(j), Z.col(j)));
  std::vector<Eigen::VectorXd> asked;
  for (int k = 0; k < kRounds; ++k) {
    const Eigen::VectorXd z = contextual ? ContextOfRound(100 + k) : Eigen::VectorXd();
    const Eigen::VectorXd x = opt.Ask(z);
    opt.Tell(x, z, reward(x, z));
    asked.push_back(x);
  }
  return asked;
}

// Rewrites the suggestion lines of fixtures/<name>.expected.txt (17 significant digits, which
// round-trip doubles), keeping its comment lines.
void RerecordSuggestions(const std::string& name, const std::vector<Eigen::VectorXd>& asked) {
  std::ifstream in(FixturePath(name + ".expected.txt"));
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("suggestion", 0) != 0 && line.rfind("kernels", 0) != 0) out << line << "\n";
  out << "kernels " << DenseKernelsDescription() << "\n";
  out.precision(17);
  for (const Eigen::VectorXd& x : asked) {
    out << "suggestion";
    for (Eigen::Index i = 0; i < x.size(); ++i) out << " " << x(i);
    out << "\n";
  }
  in.close();
  std::ofstream(FixturePath(name + ".expected.txt"), std::ios::binary) << out.str();
}

void ExpectSuggestions(const std::string& name, Optimizer& opt, Reward reward, bool contextual) {
  std::string kernels;
  const std::vector<Eigen::VectorXd> expected = ExpectedSuggestions(name, &kernels);
  ASSERT_EQ(expected.size(), static_cast<std::size_t>(kRounds));
  const std::vector<Eigen::VectorXd> asked = Continue(opt, reward, contextual);
  if (std::getenv("GPBANDIT_RERECORD_V1_SUGGESTIONS") != nullptr) {
    RerecordSuggestions(name, asked);
    FAIL() << name << ": suggestions re-recorded; run again without "
           << "GPBANDIT_RERECORD_V1_SUGGESTIONS";
  }
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  if (kernels != DenseKernelsDescription())
    GTEST_SKIP() << name << ": suggestions recorded with dense kernels '" << kernels
                 << "', this build runs '" << DenseKernelsDescription() << "'";
  for (int k = 0; k < kRounds; ++k) {
    ASSERT_EQ(asked[k].size(), expected[k].size());
    for (Eigen::Index i = 0; i < asked[k].size(); ++i)
      EXPECT_EQ(asked[k](i), expected[k](i)) << name << " suggestion " << k << " coordinate " << i;
  }
}

TEST(LogFormatV1Test, BoxGpUcbResumesExactly) {
  const std::string path = CopyOfFixture("v1_box_gp_ucb");
  EXPECT_EQ(ParseLogHeader(testing::ReadFile(path).substr(0, testing::ReadFile(path).find('\n')))
                .format_version,
            1);
  const auto opt = Optimizer::Resume(path);
  // The flat version-1 fields GP-UCB read, and nothing else (horizon, xi, ... are gone).
  EXPECT_EQ(opt->strategy_name(), "gp-ucb");
  EXPECT_EQ(opt->strategy_options().at("beta_scale"), 0.2);
  EXPECT_EQ(opt->strategy_options().at("delta"), 0.05);
  EXPECT_FALSE(opt->strategy_options().contains("horizon"));
  EXPECT_FALSE(opt->strategy_options().contains("xi"));
  // "auto" on a box meant the compact-set schedule when the log was written (format 3).
  EXPECT_EQ(opt->strategy_options(),
            StrategyRegistry::Default().ResolveOptions(
                "gp-ucb", StrategyParams(R"({"beta_scale": 0.2, "delta": 0.05,
                                             "beta_schedule": "compact"})")));
  EXPECT_EQ(opt->options().seed, 11u);
  EXPECT_EQ(opt->num_accepted(), 6);
  EXPECT_EQ(opt->pending_actions().cols(), 1);  // two cleared, one left
  EXPECT_EQ(opt->rounds(), 8);                  // 6 asks, a batch of 2, one more ask
  EXPECT_TRUE(opt->has_fit_report());
  ExpectSuggestions("v1_box_gp_ucb", *opt, BraninReward, false);
  std::remove(path.c_str());
}

TEST(LogFormatV1Test, ContextualEiWithASkippedRewardResumesExactly) {
  const std::string path = CopyOfFixture("v1_context_ei");
  const auto opt = Optimizer::Resume(path);
  EXPECT_EQ(opt->strategy_name(), "ei");
  EXPECT_EQ(opt->strategy_options(),
            StrategyParams(R"({"xi": 0.01, "incumbent_rule": "posterior-mean"})"));
  EXPECT_EQ(opt->domain().context_dim(), 1);
  EXPECT_EQ(opt->num_accepted(), 6);
  EXPECT_EQ(opt->num_failed(), 1);
  EXPECT_EQ(opt->pending_actions().cols(), 1);
  ExpectSuggestions("v1_context_ei", *opt, ContextReward, true);
  std::remove(path.c_str());
}

// A user strategy of version 1 read the numbers of `extra`: they become its options. Resume
// needs the strategy registered, and says so when it is not.
TEST(LogFormatV1Test, UserStrategyResumesThroughTheRegistryWithExtraAsItsOptions) {
  const std::string path = CopyOfFixture("v1_user_strategy");
  try {
    Optimizer::Resume(path);
    ADD_FAILURE() << "resumed a log of an unregistered strategy";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'test-kappa-ucb', which is not registered"),
              std::string::npos)
        << e.what();
  }
  StrategyRegistry::Default().Register("test-kappa-ucb", [](const StrategyParams& p) {
    GpUcbOptions u;
    u.beta.kind = BetaScheduleKind::kConstant;
    u.beta.constant_beta = p.at("kappa") * p.at("kappa");
    return std::make_unique<GpUcb>(u);
  });
  const auto opt = Optimizer::Resume(path);
  EXPECT_EQ(opt->strategy_options(), StrategyParams(R"({"kappa": 1.5})"));
  EXPECT_EQ(opt->num_accepted(), 6);
  ExpectSuggestions("v1_user_strategy", *opt, BraninReward, false);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpbandit
