// Safe-opt logs of format version 4 (docs/log_format.md) resume exactly: with the models they were
// written with (every signal in its own units, the constraint models copying the reward's
// kernel), whatever the defaults of the current format.
//
// fixtures/v4_safe_*.jsonl were written by the code of format version 4, and fixtures/
// v4_safe_*.expected.txt hold the suggestions that the optimizer which wrote each log made next,
// by the continuation protocol of ContinueV4() below. The generator was
// tests/plugin/fixtures/make_v4_safe_logs.cc at commit c647e47 ("Version-4 safe-opt
// observation-log fixtures ..."), built against that commit's libraries (`git show
// c647e47:tests/plugin/fixtures/make_v4_safe_logs.cc`); the same commit's code resumed the
// fixtures with these suggestions. Re-recording after a deliberate numerical change:
// tests/optimizer/log_fixture_util.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "tests/optimizer/log_fixture_util.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit {
namespace {

constexpr int kV4Rounds = 3;

// The generator's signals.
double V4Constraint(double x, double z) { return 1.0 - 4.0 * (x - z) * (x - z); }
double ContextReward(double x, double z) { return std::sin(3.0 * x) + 0.5 * z; }
double V4Bowl(const Eigen::VectorXd& x) { return 0.49 - x.squaredNorm(); }
Eigen::VectorXd V4ContextOfRound(int k) {
  return Eigen::VectorXd::Constant(1, std::fmod(0.13 + 0.37 * k, 1.0));
}

void Tell(Optimizer& opt, const Eigen::VectorXd& x, const Eigen::VectorXd& z, bool contextual) {
  if (contextual)
    opt.Tell(x, z, ContextReward(x(0), z(0)),
             Eigen::VectorXd::Constant(1, V4Constraint(x(0), z(0))));
  else
    opt.Tell(x, V4Bowl(x));
}

// The generator's continuation: tell every pending point, then kV4Rounds times ask and tell.
std::vector<Eigen::VectorXd> ContinueV4(Optimizer& opt, bool contextual) {
  const Eigen::MatrixXd X = opt.pending_actions();
  const Eigen::MatrixXd Z = opt.pending_contexts();
  for (Eigen::Index j = 0; j < X.cols(); ++j) Tell(opt, X.col(j), Z.col(j), contextual);
  std::vector<Eigen::VectorXd> asked;
  for (int k = 0; k < kV4Rounds; ++k) {
    const Eigen::VectorXd z = contextual ? V4ContextOfRound(100 + k) : Eigen::VectorXd();
    asked.push_back(opt.Ask(z));
    Tell(opt, asked.back(), z, contextual);
  }
  return asked;
}

int HeaderVersion(const std::string& path) {
  const std::string text = testing::ReadFile(path);
  return ParseLogHeader(text.substr(0, text.find('\n'))).format_version;
}

TEST(LogFormatV4Test, SafeOptWithConstraintsAndContextsResumesExactly) {
  const ScopedPortableDenseKernelsForTesting portable_kernels;  // log_fixture_util.h
  const std::string path = testing::CopyOfFixture("v4_safe_constraint_context");
  EXPECT_EQ(HeaderVersion(path), 4);
  const auto opt = Optimizer::Resume(path);
  EXPECT_EQ(opt->strategy_name(), "safe-opt");
  EXPECT_EQ(opt->num_constraints(), 1);
  EXPECT_EQ(opt->num_accepted(), 12);
  EXPECT_EQ(opt->pending_actions().cols(), 1);
  EXPECT_FALSE(opt->options().gp.standardize_outputs);
  testing::ExpectSuggestions("v4_safe_constraint_context", [&] { return ContinueV4(*opt, true); });
  std::remove(path.c_str());
}

TEST(LogFormatV4Test, SafeOptWithARewardThresholdResumesExactly) {
  const ScopedPortableDenseKernelsForTesting portable_kernels;  // log_fixture_util.h
  const std::string path = testing::CopyOfFixture("v4_safe_reward_threshold");
  EXPECT_EQ(HeaderVersion(path), 4);
  const auto opt = Optimizer::Resume(path);
  EXPECT_EQ(opt->num_constraints(), 0);
  EXPECT_EQ(opt->num_accepted(), 16);
  EXPECT_EQ(opt->pending_actions().cols(), 1);
  testing::ExpectSuggestions("v4_safe_reward_threshold", [&] { return ContinueV4(*opt, false); });
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpbandit
