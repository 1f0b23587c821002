// Logs of format version 1 (flat strategy options, docs/log_format.md) resume exactly.
//
// fixtures/v1_*.jsonl were written by the code of format version 1, and fixtures/
// v1_*.expected.txt hold the suggestions that the optimizer which wrote each log made next, by
// the continuation protocol of Continue() below. The generator was
// tests/plugin/fixtures/make_v1_logs.cc at commit 2c4f08d ("Version-1 observation-log
// fixtures"), built against that commit (`git show 2c4f08d:tests/plugin/fixtures/make_v1_logs.cc`);
// it also checked that the code of that time, resuming the fixture, made the same suggestions.
//
// The expected suggestions pin the numerics of that commit as well; how to re-record them after
// a deliberate change: tests/optimizer/log_fixture_util.h.
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
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "tests/optimizer/log_fixture_util.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

constexpr int kV1Rounds = 3;

using testing::CopyOfFixture;

double BraninReward(const Eigen::VectorXd& x, const Eigen::VectorXd&) {
  return -problems::Branin(x);
}
double ContextReward(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  return -problems::Branin(x) / 50.0 + std::sin(3.0 * z(0) + x(0));
}
Eigen::VectorXd ContextOfRound(int k) { return Eigen::VectorXd::Constant(1, 0.1 + 0.17 * k); }

using V1Reward = double (*)(const Eigen::VectorXd&, const Eigen::VectorXd&);

// The continuation protocol of the generator: tell every pending point its reward, then
// kV1Rounds times ask and tell.
std::vector<Eigen::VectorXd> Continue(Optimizer& opt, V1Reward reward, bool contextual) {
  const Eigen::MatrixXd X = opt.pending_actions();
  const Eigen::MatrixXd Z = opt.pending_contexts();
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    opt.Tell(X.col(j), Z.col(j), reward(X.col(j), Z.col(j)));
  std::vector<Eigen::VectorXd> asked;
  for (int k = 0; k < kV1Rounds; ++k) {
    const Eigen::VectorXd z = contextual ? ContextOfRound(100 + k) : Eigen::VectorXd();
    const Eigen::VectorXd x = opt.Ask(z);
    opt.Tell(x, z, reward(x, z));
    asked.push_back(x);
  }
  return asked;
}

void ExpectSuggestions(const std::string& name, Optimizer& opt, V1Reward reward, bool contextual) {
  testing::ExpectSuggestions(name, [&] { return Continue(opt, reward, contextual); });
}

TEST(LogFormatV1Test, BoxGpUcbResumesExactly) {
  const ScopedPortableDenseKernelsForTesting portable_kernels;  // log_fixture_util.h
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
  const ScopedPortableDenseKernelsForTesting portable_kernels;  // log_fixture_util.h
  const std::string path = CopyOfFixture("v1_context_ei");
  const auto opt = Optimizer::Resume(path);
  EXPECT_EQ(opt->strategy_name(), "ei");
  // (relative_xi and relative_xi_per_dim, added in versions 5 and 9, are 0 here: the margin of a
  // version-1 log is its xi.)
  EXPECT_EQ(opt->strategy_options(), StrategyParams(R"({"xi": 0.01, "relative_xi": 0,
                                                        "relative_xi_per_dim": 0,
                                                        "incumbent_rule": "posterior-mean"})"));
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
  const ScopedPortableDenseKernelsForTesting portable_kernels;  // log_fixture_util.h
  const std::string path = CopyOfFixture("v1_user_strategy");
  try {
    Optimizer::Resume(path);
    ADD_FAILURE() << "resumed a log of an unregistered strategy";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'test-kappa-ucb', which is not registered"),
              std::string::npos)
        << e.what();
  }
  // Registered with a default kappa: the registration outlives this test, and the tests that
  // build every registered strategy (optimizer_combination_test.cc, optimizer_space_test.cc)
  // may run after it in the same process.
  StrategyRegistry::Default().Register(
      "test-kappa-ucb",
      [](const StrategyParams& p) {
        GpUcbOptions u;
        u.beta.kind = BetaScheduleKind::kConstant;
        u.beta.constant_beta = p.at("kappa") * p.at("kappa");
        return std::make_unique<GpUcb>(u);
      },
      StrategyParams(R"({"kappa": 1.0})"));
  const auto opt = Optimizer::Resume(path);
  EXPECT_EQ(opt->strategy_options(), StrategyParams(R"({"kappa": 1.5})"));
  EXPECT_EQ(opt->num_accepted(), 6);
  ExpectSuggestions("v1_user_strategy", *opt, BraninReward, false);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpbandit
