// The Optimizer against its kernel: what cannot work is refused when it is built (fit options
// of the wrong size, GP-TS on a box with a kernel without features), and GP-TS and CGP-UCB run
// on boxes with contexts with the default product kernel and with a periodic context kernel.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "gpbandit/acquisition/mean_only.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"
#include "numerics/math.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"
#include "tests/user_kernel.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

Domain Box3() { return Domain::Box(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()); }

TEST(OptimizerKernelChecksTest, FitPriorsOfTheWrongSizeAreRefusedWhenBuilt) {
  OptimizerOptions options = testing::CheapOptions();
  options.fit.kernel_priors.resize(2);  // the default kernel on a 3-D box has 4 log-params
  EXPECT_THAT([&] { Optimizer(Box3(), nullptr, "gp-ucb", StrategyParams(), options); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  HasSubstr("OptimizerOptions.fit.kernel_priors has 2 entries but the kernel "
                            "matern52(dims=0,1,2; ard) has 4 log-params")));
  options = testing::CheapOptions();
  options.fit.lower_log_bounds.assign(3, -1.0);
  options.fit.upper_log_bounds.assign(3, 1.0);
  EXPECT_THAT(
      [&] {
        Optimizer(Box3(), MakeSquaredExponential({0, 1, 2}), "ei", StrategyParams(), options);
      },
      ::testing::ThrowsMessage<std::invalid_argument>(
          HasSubstr("fit.lower_log_bounds has 3 entries")));
  options.fit.lower_log_bounds.assign(4, -1.0);
  options.fit.upper_log_bounds.assign(4, 1.0);
  EXPECT_NO_THROW(
      Optimizer(Box3(), MakeSquaredExponential({0, 1, 2}), "ei", StrategyParams(), options));
}

TEST(OptimizerKernelChecksTest, GpTsWithoutKernelFeaturesIsRefusedOnABoxOnly) {
  const OptimizerOptions options = testing::CheapOptions();
  EXPECT_THAT(
      [&] {
        Optimizer(Box3(), std::make_unique<testing::UserKernel>(MakeMatern52({0, 1, 2})), "gp-ts",
                  StrategyParams(), options);
      },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("use a finite candidate set")));
  // On a finite set GP-TS samples the posterior jointly: any kernel works.
  const Eigen::MatrixXd candidates = Eigen::RowVectorXd::LinSpaced(7, 0.0, 1.0);
  Optimizer finite(Domain::FiniteSet(candidates),
                   std::make_unique<testing::UserKernel>(MakeMatern52({0})), "gp-ts",
                   StrategyParams(), options);
  for (int round = 0; round < 8; ++round) {
    const Eigen::VectorXd x = finite.Ask();
    finite.Tell(x, std::sin(5.0 * x(0)));
  }
}

// A user strategy that supports no context: the Optimizer must ask it (Strategy::CheckSupports)
// when it is built, whatever its name.
class NoContextMean : public MeanOnly {
 public:
  std::string name() const override { return "no-context-mean"; }
  void CheckSupports(const Kernel& /*kernel*/, const SearchSpace& space) const override {
    if (space.context_dim > 0) throw std::invalid_argument("contexts are not supported");
  }
  std::unique_ptr<Strategy> Clone() const override {
    return std::make_unique<NoContextMean>(*this);
  }
};

TEST(OptimizerKernelChecksTest, StrategyCapabilityCheckRunsWhenBuiltAndNamesTheCombination) {
  const OptimizerOptions options = testing::CheapOptions();
  EXPECT_NO_THROW(Optimizer(Box3(), nullptr, std::make_unique<NoContextMean>(), options));
  const Domain with_context = Box3().WithContext(1);
  EXPECT_THAT(
      [&] {
        Optimizer(with_context, MakeMatern52({0, 1, 2, 3}), std::make_unique<NoContextMean>(),
                  options);
      },
      ::testing::ThrowsMessage<std::invalid_argument>(::testing::AllOf(
          HasSubstr("strategy 'no-context-mean'"), HasSubstr("kernel 'matern52(dims=0,1,2,3"),
          HasSubstr("box(d=3) + context(1)"), HasSubstr("contexts are not supported"))));
}

// Rounds of ask/tell on a box with a context that changes every round; every suggestion must
// lie in the box.
void RunWithContext(Optimizer* optimizer, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    const Eigen::Vector2d z(std::fmod(0.37 * round, 1.0), 0.5 + 0.4 * std::sin(round));
    const Eigen::VectorXd x = optimizer->Ask(z);
    ASSERT_EQ(x.size(), 2);
    for (int i = 0; i < 2; ++i) {
      EXPECT_GE(x(i), 0.0);
      EXPECT_LE(x(i), 1.0);
    }
    const double time_of_day = std::sin(2.0 * kPi * z(0));
    optimizer->Tell(x, z, -(x - Eigen::Vector2d(0.3, 0.6)).squaredNorm() + 0.5 * time_of_day);
  }
}

TEST(OptimizerKernelChecksTest, GpTsRunsOnABoxWithAContextAndTheDefaultKernel) {
  const Domain domain = Domain::Box(Eigen::Vector2d::Zero(), Eigen::Vector2d::Ones())
                            .WithContext(2, Eigen::Vector2d::Zero(), Eigen::Vector2d::Ones());
  Optimizer optimizer(domain, nullptr, "gp-ts", StrategyParams(), testing::CheapOptions(3));
  RunWithContext(&optimizer, 20);
}

// A time-of-day context (periodic, period = the context box) times a Matern kernel over the
// actions, fitted as it goes: CGP-UCB and GP-TS both run.
TEST(OptimizerKernelChecksTest, PeriodicContextKernelRunsWithRefits) {
  const Domain domain = Domain::Box(Eigen::Vector2d::Zero(), Eigen::Vector2d::Ones())
                            .WithContext(2, Eigen::Vector2d::Zero(), Eigen::Vector2d::Ones());
  for (const char* strategy : {"cgp-ucb", "gp-ts"}) {
    std::vector<std::unique_ptr<Kernel>> parts;
    parts.push_back(MakeMatern52({0, 1}));
    parts.push_back(MakePeriodic({2}, true, 1.0, 1.0, 1.0));
    parts.push_back(MakeMatern52({3}));
    Optimizer optimizer(domain, MakeProduct(std::move(parts)), strategy, StrategyParams(),
                        testing::CheapOptions(4));
    RunWithContext(&optimizer, 20);
    EXPECT_TRUE(optimizer.Best().x.allFinite()) << strategy;
  }
}

}  // namespace
}  // namespace gpbandit
