// safe-opt through the Optimizer: refusal at construction, the safety contract on a box against
// the optimizer's own models (Optimizer::SafetyMargin), constraint signals with contexts
// (SafeOpt-MC), and a resumed run that continues exactly. The calibrated models themselves:
// safe_opt_calibration_test.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/study/log_header.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// The optimizer's defaults: safe-opt needs no unstandardized outputs.
OptimizerOptions SafeOptions(std::uint64_t seed = 1) { return testing::CheapOptions(seed); }

Domain Box2() { return Domain::Box(Eigen::Vector2d(-1.0, -1.0), Eigen::Vector2d(1.0, 1.0)); }

// A bowl: f >= 0 where |x| <= 0.7.
double Bowl(const Eigen::VectorXd& x) { return 0.49 - x.squaredNorm(); }

StrategyParams SafeParams(const std::string& seeds = "[[0.0, 0.0]]") {
  return StrategyParams().With("threshold", 0.0).WithText("seeds", seeds);
}

std::string ConstructionError(const Domain& domain, const StrategyParams& params,
                              const OptimizerOptions& options) {
  try {
    Optimizer optimizer(domain, nullptr, "safe-opt", params, options);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(SafeOptOptimizerTest, RefusedAtConstructionWithoutThresholdOrSeedOrWithBadSeeds) {
  const OptimizerOptions options = SafeOptions();
  const std::string no_options = ConstructionError(Box2(), StrategyParams(), options);
  EXPECT_NE(no_options.find("threshold"), std::string::npos) << no_options;
  const std::string no_seed =
      ConstructionError(Box2(), StrategyParams().With("threshold", 0.0), options);
  EXPECT_NE(no_seed.find("seeds"), std::string::npos) << no_seed;
  const std::string outside = ConstructionError(Box2(), SafeParams("[[0.0, 3.0]]"), options);
  EXPECT_NE(outside.find("seeds[0]"), std::string::npos) << outside;
  const std::string wrong_size = ConstructionError(Box2(), SafeParams("[[0.0]]"), options);
  EXPECT_NE(wrong_size.find("action dimension is 2"), std::string::npos) << wrong_size;
  Eigen::MatrixXd candidates(1, 3);
  candidates << 0.0, 0.5, 1.0;
  const std::string not_candidate =
      ConstructionError(Domain::FiniteSet(candidates), SafeParams("[[0.25]]"), options);
  EXPECT_NE(not_candidate.find("not one of the 3 candidates"), std::string::npos) << not_candidate;
  OptimizerOptions with_design = options;
  with_design.initial_design_size = 3;
  const std::string design = ConstructionError(Box2(), SafeParams(), with_design);
  EXPECT_NE(design.find("initial_design_size = 3"), std::string::npos) << design;
  // The models of log format <= 4 (every signal in the caller's units) need unstandardized
  // outputs; the calibrated ones (the default) do not.
  const std::string standardized = ConstructionError(
      Box2(), SafeParams().WithText("calibrated", "false"), testing::CheapOptions());
  EXPECT_NE(standardized.find("standardize_outputs = true"), std::string::npos) << standardized;
  EXPECT_EQ(ConstructionError(Box2(), SafeParams(), testing::CheapOptions()), "accepted");
  // A refused construction writes nothing.
  OptimizerOptions logged = options;
  logged.log_path = testing::TempLogPath("safe_refused");
  ConstructionError(Box2(), StrategyParams(), logged);
  EXPECT_EQ(testing::ReadFile(logged.log_path), "");
}

TEST(SafeOptOptimizerTest, RegisteredWithItsDefaultOptions) {
  const StrategyRegistry& registry = StrategyRegistry::Default();
  ASSERT_TRUE(registry.Contains("safe-opt"));
  const std::string defaults = registry.DefaultOptions("safe-opt").json();
  EXPECT_NE(defaults.find("\"threshold\":null"), std::string::npos) << defaults;
  EXPECT_NE(defaults.find("\"beta\":3"), std::string::npos) << defaults;
  EXPECT_NE(defaults.find("\"rule\":\"ucb\""), std::string::npos) << defaults;
  EXPECT_NE(defaults.find("\"calibrated\":true"), std::string::npos) << defaults;
}

// Seeds first, then only points whose lower bounds under the optimizer's models (refitted
// within the ask) clear the threshold; the explored region grows beyond the seed.
TEST(SafeOptOptimizerTest, BoxRunSuggestsSeedsThenOnlySafePoints) {
  Optimizer opt(Box2(), nullptr, "safe-opt", SafeParams("[[0.0, 0.0], [0.1, 0.0]]"),
                SafeOptions(3));
  EXPECT_EQ(opt.Ask(), Eigen::Vector2d(0.0, 0.0));
  opt.Tell(Eigen::Vector2d(0.0, 0.0), Bowl(Eigen::Vector2d(0.0, 0.0)));
  EXPECT_EQ(opt.Ask(), Eigen::Vector2d(0.1, 0.0));
  opt.Tell(Eigen::Vector2d(0.1, 0.0), Bowl(Eigen::Vector2d(0.1, 0.0)));
  double farthest = 0.0;
  int unsafe = 0;
  for (int t = 0; t < 25; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    EXPECT_GE(opt.SafetyMargin(x), 0.0) << "round " << t << " x = " << x.transpose();
    farthest = std::max(farthest, x.norm());
    unsafe += Bowl(x) < 0.0;
    opt.Tell(x, Bowl(x));
  }
  EXPECT_GT(farthest, 0.35);
  EXPECT_EQ(unsafe, 0);
  ASSERT_TRUE(opt.has_fit_report());
}

// A finite set: every suggestion is a candidate, and after the seed one whose lower bound under
// the model clears the threshold.
TEST(SafeOptOptimizerTest, FiniteSetSuggestsSafeCandidates) {
  Eigen::MatrixXd candidates(1, 41);
  for (int j = 0; j < 41; ++j) candidates(0, j) = -1.0 + 0.05 * j;
  const Domain domain = Domain::FiniteSet(candidates);
  Optimizer opt(domain, nullptr, "safe-opt",
                StrategyParams().With("threshold", 0.0).WithText("seeds", "[[0.0]]"),
                SafeOptions(4));
  auto f = [](double x) { return 0.49 - x * x; };
  EXPECT_EQ(opt.Ask()(0), 0.0);
  opt.Tell(Eigen::VectorXd::Zero(1), f(0.0));
  for (int t = 0; t < 15; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    bool candidate = false;
    for (int j = 0; j < 41; ++j) candidate = candidate || candidates(0, j) == x(0);
    EXPECT_TRUE(candidate) << x(0);
    EXPECT_GE(opt.SafetyMargin(x), 0.0) << x(0);
    opt.Tell(x, f(x(0)));
  }
}

// SafeOpt-MC with a context: the reward has no threshold; the constraint g(x, z) = 1 - 4 (x -
// z)^2 must stay >= 0 (|x - z| <= 0.5): the safe actions move with the context.
double SafeConstraint(double x, double z) { return 1.0 - 4.0 * (x - z) * (x - z); }
double Reward(double x, double z) { return std::sin(3.0 * x) + 0.5 * z; }

Domain ContextDomain() {
  return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1))
      .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
}

StrategyParams ConstrainedParams() {
  return StrategyParams().WithText("constraint_thresholds", "[0]").WithText("seeds", "[[0.5]]");
}

void RunSafeConstrained(Optimizer* opt, int rounds, std::uint64_t seed) {
  Rng rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int t = 0; t < rounds; ++t) {
    const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, u01(rng));
    const Eigen::VectorXd x = opt->Ask(z);
    if (x(0) != 0.5) {
      EXPECT_GE(opt->SafetyMargin(x, z), 0.0)
          << "round " << t << " x = " << x(0) << " z = " << z(0);
    }
    opt->Tell(x, z, Reward(x(0), z(0)), Eigen::VectorXd::Constant(1, SafeConstraint(x(0), z(0))));
  }
}

TEST(SafeOptOptimizerTest, ConstraintSignalsWithContextsKeepEverySuggestionSafe) {
  Optimizer opt(ContextDomain(), nullptr, "safe-opt", ConstrainedParams(), SafeOptions(5));
  ASSERT_EQ(opt.num_constraints(), 1);
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, 0.3);
  // Refused before anything changes: a tell without its constraint value, and TellMany.
  const std::string before = opt.Fingerprint();
  EXPECT_THROW(opt.Tell(Eigen::VectorXd::Constant(1, 0.5), z, 1.0), std::invalid_argument);
  EXPECT_THROW(opt.Tell(Eigen::VectorXd::Constant(1, 0.5), z, 1.0,
                        Eigen::VectorXd::Constant(1, std::nan(""))),
               std::invalid_argument);
  EXPECT_THROW(opt.TellMany(Eigen::MatrixXd::Constant(1, 1, 0.5),
                            Eigen::MatrixXd::Constant(1, 1, 0.3), Eigen::VectorXd::Ones(1)),
               std::invalid_argument);
  EXPECT_EQ(opt.Fingerprint(), before);
  RunSafeConstrained(&opt, 30, testing::TestSeed(11));
  EXPECT_EQ(opt.constraint_model(0).num_observations(), 30);
  // The suggestions follow the context: at z = 0.95 the constraint's lower bound is checked at
  // (x, 0.95), and a point far from the context (x = 0) is not safe there.
  EXPECT_LT(opt.SafetyMargin(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 0.95)), 0.0);
}

TEST(SafeOptOptimizerTest, ResumedRunWithConstraintsContinuesExactly) {
  OptimizerOptions options = SafeOptions(9);
  options.log_path = testing::TempLogPath("safe_resume");
  Optimizer opt(ContextDomain(), nullptr, "safe-opt", ConstrainedParams(), options);
  RunSafeConstrained(&opt, 12, 21);
  const std::string log = testing::ReadFile(options.log_path);
  EXPECT_NE(log.find("\"g\":["), std::string::npos);
  EXPECT_NE(log.find("\"signals\":[{"), std::string::npos);  // a fit record (format 5)
  // Resumed from a copy of the log, so that the two do not share one study.
  const std::string copy_path = testing::TempLogPath("safe_resume_copy");
  std::ofstream(copy_path, std::ios::binary) << log;
  std::unique_ptr<Optimizer> resumed = Optimizer::Resume(copy_path);
  EXPECT_EQ(resumed->Fingerprint(), opt.Fingerprint());
  EXPECT_EQ(resumed->constraint_model(0).kernel_log_params(),
            opt.constraint_model(0).kernel_log_params());
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, 0.7);
  EXPECT_EQ(resumed->Ask(z), opt.Ask(z));
  std::remove(options.log_path.c_str());
  std::remove(copy_path.c_str());
}

// Version-3 logs (before constraint signals) still read, meaning the same.
TEST(SafeOptOptimizerTest, Version3HeadersStillRead) {
  LogHeader h;
  h.strategy = "gp-ucb";
  h.strategy_options = StrategyParams(R"({"beta_scale": 0.2})");
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  std::string text = FormatLogHeader(h);
  const std::string current = "\"version\":" + std::to_string(kLogFormatVersion);
  text.replace(text.find(current), current.size(), "\"version\":3");
  const LogHeader back = ParseLogHeader(text);
  EXPECT_EQ(back.format_version, 3);
  EXPECT_EQ(back.strategy_options, h.strategy_options);
}

}  // namespace
}  // namespace gpbandit
