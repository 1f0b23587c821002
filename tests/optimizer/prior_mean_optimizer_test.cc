// OptimizerOptions::prior_mean_function in a study: an exact prior finds the optimum within a
// few evaluations, a useless one costs little, the header records the function and a resumed
// study is the same study, and every refusal leaves the study (log bytes) unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using testing::ReadFile;
using testing::TempLogPath;

// A bump at (0.7, 0.2) on the unit square; maximum 1.
double Target(const Eigen::VectorXd& x, const Eigen::VectorXd&) {
  return std::exp(-8.0 * ((x(0) - 0.7) * (x(0) - 0.7) + (x(1) - 0.2) * (x(1) - 0.2)));
}

using testing::UnitSquare;

PriorMeanFunction Named(const std::string& name,
                        std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&)> m) {
  PriorMeanFunction f;
  f.name = name;
  f.value = std::move(m);
  return f;
}

// The simple regret after `evaluations` tells of Target.
double Regret(const PriorMeanFunction& prior, std::uint64_t seed, int evaluations) {
  OptimizerOptions options = CheapOptions(seed);
  options.initial_design_size = 3;
  options.prior_mean_function = prior;
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
  double best = -1.0;
  for (int i = 0; i < evaluations; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    const double y = Target(x, Eigen::VectorXd());
    best = std::max(best, y);
    opt.Tell(x, y);
  }
  return 1.0 - best;
}

TEST(PriorMeanOptimizerTest, AnExactPriorFindsTheOptimumInAFewEvaluations) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    EXPECT_LT(Regret(Named("exact", Target), seed, 8), 1e-3) << "seed " << seed;
}

TEST(PriorMeanOptimizerTest, AUselessPriorCostsLittle) {
  const PriorMeanFunction useless =
      Named("useless", [](const Eigen::VectorXd& x, const Eigen::VectorXd&) {
        return std::sin(9.0 * x(0)) * std::cos(7.0 * x(1));
      });
  double with = 0.0, without = 0.0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    with += Regret(useless, seed, 20);
    without += Regret(PriorMeanFunction(), seed, 20);
  }
  EXPECT_LT(with / 3.0, without / 3.0 + 0.05);
  EXPECT_LT(with / 3.0, 0.1);
}

struct PriorMeanStudy {
  OptimizerOptions options;
  std::string log;
};

// Six rounds of a study with the exact prior, logged.
PriorMeanStudy Logged(const std::string& name) {
  PriorMeanStudy s;
  s.options = CheapOptions(5);
  s.options.initial_design_size = 3;
  s.options.log_path = TempLogPath(name);
  s.options.prior_mean_function = Named("sim", Target);
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), s.options);
  for (int i = 0; i < 6; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Target(x, Eigen::VectorXd()));
  }
  s.log = ReadFile(s.options.log_path);
  return s;
}

// m, a simulator maybe, is called about as often per round at 45 observations as at 15: its
// values at the observations are kept (kernel/feature_kernel.h), not computed again for every
// acquisition evaluation (which made a round's calls grow by the observations times the
// evaluations, thousands here).
TEST(PriorMeanOptimizerTest, TheCallsOfMPerRoundDoNotGrowWithTheObservations) {
  long calls = 0;
  OptimizerOptions options = CheapOptions(4);
  options.initial_design_size = 5;
  options.prior_mean_function =
      Named("counted", [&calls](const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
        ++calls;
        return Target(x, z) + 0.3 * std::cos(5.0 * x(0));
      });
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
  std::vector<double> per_round;
  for (int t = 0; t < 50; ++t) {
    calls = 0;
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Target(x, Eigen::VectorXd()));
    per_round.push_back(static_cast<double>(calls));
  }
  auto mean_of_rounds = [&](int first) {
    double sum = 0.0;
    for (int t = first; t < first + 5; ++t) sum += per_round[static_cast<std::size_t>(t)];
    return sum / 5.0;
  };
  const double early = mean_of_rounds(15), late = mean_of_rounds(45);
  EXPECT_GT(early, 0.0);
  // 30 observations more: fewer than 3 calls more per round for each (a round's evaluations
  // vary with t), where calling m at every observation for every evaluation adds one per
  // evaluation for each.
  EXPECT_LT(late, early + 3.0 * 30.0)
      << "calls per round at t = 15..19: " << early << ", at t = 45..49: " << late;
}

TEST(PriorMeanOptimizerTest, TheHeaderRecordsTheFunctionAndAContinuedStudyHasTheSameState) {
  OptimizerOptions options = CheapOptions(5);
  options.initial_design_size = 3;
  options.log_path = TempLogPath("prior_mean_resume");
  options.prior_mean_function = Named("sim", Target);
  Optimizer original(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
  for (int i = 0; i < 6; ++i) {
    const Eigen::VectorXd x = original.Ask();
    original.Tell(x, Target(x, Eigen::VectorXd()));
  }
  const std::string log = ReadFile(options.log_path);
  EXPECT_NE(log.find("\"prior_mean_function\":{\"mean\":"), std::string::npos);
  EXPECT_NE(log.find("\"name\":\"sim\""), std::string::npos);
  // A copy of the log continued by another optimizer given the same function.
  OptimizerOptions copy = options;
  copy.log_path = TempLogPath("prior_mean_resume_copy");
  {
    std::ofstream out(copy.log_path, std::ios::binary);
    out << log;
  }
  Optimizer resumed(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), copy);
  EXPECT_EQ(resumed.Fingerprint(), original.Fingerprint());
  EXPECT_EQ(resumed.Best().x, original.Best().x);
  EXPECT_EQ(resumed.Best().posterior_mean, original.Best().posterior_mean);
}

TEST(PriorMeanOptimizerTest, RefusalsLeaveTheStudyUnchanged) {
  const PriorMeanStudy s = Logged("prior_mean_refusals");
  auto expect_refused = [&](OptimizerOptions options, const std::string& message) {
    try {
      Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
      ADD_FAILURE() << "expected a refusal: " << message;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    EXPECT_EQ(ReadFile(s.options.log_path), s.log);
  };
  OptimizerOptions other = s.options;
  other.prior_mean_function = Named(
      "sim", [](const Eigen::VectorXd& x, const Eigen::VectorXd& z) { return 2.0 * Target(x, z); });
  expect_refused(other,
                 "prior_mean_function 'sim' differs from the one the study was created with");
  OptimizerOptions renamed = s.options;
  renamed.prior_mean_function.name = "sim2";
  expect_refused(renamed, "prior_mean_function 'sim2' differs");
  OptimizerOptions none = s.options;
  none.prior_mean_function = PriorMeanFunction();
  expect_refused(none, "it was created with OptimizerOptions.prior_mean_function 'sim'");
  try {
    Optimizer::Resume(s.options.log_path);
    ADD_FAILURE() << "a resume without the function";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("OptimizerOptions.prior_mean_function ('sim') has no "
                                         "function"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ReadFile(s.options.log_path), s.log);
  OptimizerOptions nan = s.options;
  nan.prior_mean_function = Named("sim", [](const Eigen::VectorXd&, const Eigen::VectorXd&) {
    return std::numeric_limits<double>::quiet_NaN();
  });
  expect_refused(nan, "'sim' returned nan at x = [");
}

TEST(PriorMeanOptimizerTest, AStudyWithoutAPriorMeanRefusesOne) {
  OptimizerOptions options = CheapOptions(5);
  options.initial_design_size = 3;
  options.log_path = TempLogPath("prior_mean_without");
  {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Target(x, Eigen::VectorXd()));
  }
  const std::string log = ReadFile(options.log_path);
  EXPECT_EQ(log.find("prior_mean_function"), std::string::npos);
  options.prior_mean_function = Named("sim", Target);
  try {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
    ADD_FAILURE() << "expected a refusal";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("without OptimizerOptions.prior_mean_function"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ReadFile(options.log_path), log);
}

}  // namespace
}  // namespace gpbandit
