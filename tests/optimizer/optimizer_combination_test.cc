// Every registered strategy with every kernel gpbandit ships (and a user kernel without the
// optional hooks), on a box and on a finite set, without and with a context, through the
// Optimizer: each combination is either refused when the Optimizer is built, with a message
// naming the strategy and the kernel, or runs its rounds (design and model-driven ones, with
// refits) on a noiseless and on a noisy objective, returning points of the domain. Which
// combinations are refused is stated here, so a combination refused by mistake fails as much as one
// that throws later.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/optimizer/strategy_cells.h"
#include "tests/test_util.h"
#include "tests/user_kernel.h"

namespace gpbandit {
namespace {

constexpr int kActionDim = 2;
constexpr int kCombinationRounds = 16;
constexpr double kNoiseSd = 0.05;  // of the noisy objective
constexpr int kNumContexts = 3;    // contexts 0, 1, 2: an unbounded context the index kernel reads

struct KernelCase {
  std::string name;
  // The kernel over [action; context] (input_dim coordinates), or nullptr for the default.
  std::function<std::unique_ptr<Kernel>(int input_dim)> make;
  bool needs_context = false;  // the index kernel reads the context's integer value
  bool has_features = true;    // random features of its prior (GP-TS on a box needs them)
};

std::vector<std::unique_ptr<Kernel>> Parts(std::unique_ptr<Kernel> a, std::unique_ptr<Kernel> b) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(a));
  parts.push_back(std::move(b));
  return parts;
}

// The context kernel of the composite cases: over the context when there is one, else over the
// second action coordinate.
std::vector<int> SecondPartDims(int input_dim) {
  return input_dim > kActionDim ? DimRange(kActionDim, input_dim - kActionDim)
                                : std::vector<int>{kActionDim - 1};
}

std::vector<KernelCase> KernelCases() {
  std::vector<KernelCase> cases;
  cases.push_back({"default", [](int) { return nullptr; }});
  // Every registered name: the shipped kernels and any a test of this program registered
  // before (one without random features, such as the rational quadratic, is refused by gp-ts on
  // a box). kernel_hooks_test checks which shipped kernels have features.
  for (const std::string& name : KernelNames()) {
    KernelCase named{name,
                     [name](int input_dim) { return MakeKernel(name, FirstDims(input_dim)); }};
    named.has_features = MakeKernel(name, FirstDims(kActionDim))->HasFeatures();
    cases.push_back(named);
  }
  cases.push_back({"product", [](int input_dim) {
                     return MakeProduct(Parts(MakeMatern52(FirstDims(kActionDim)),
                                              MakeSquaredExponential(SecondPartDims(input_dim))));
                   }});
  cases.push_back({"sum", [](int input_dim) {
                     return MakeSum(Parts(MakeMatern32(FirstDims(kActionDim)),
                                          MakeLinear(FirstDims(input_dim))));
                   }});
  cases.push_back({"periodic-context", [](int input_dim) {
                     return MakeProduct(
                         Parts(MakeSquaredExponential(FirstDims(kActionDim)),
                               MakePeriodic(SecondPartDims(input_dim), true, 1.0, 1.0, 3.0)));
                   }});
  KernelCase index{
      "index", [](int) {
        Eigen::MatrixXd tasks(kNumContexts, kNumContexts);
        tasks << 1.0, 0.6, 0.2, 0.6, 1.0, 0.5, 0.2, 0.5, 1.0;
        return MakeProduct(Parts(MakeMatern52(FirstDims(kActionDim)), MakeIndexKernel(2, tasks)));
      }};
  index.needs_context = true;
  cases.push_back(index);
  KernelCase user{
      "user", [](int input_dim) {
        return std::make_unique<testing::UserKernel>(MakeMatern52(FirstDims(input_dim)));
      }};
  user.has_features = false;
  cases.push_back(user);
  return cases;
}

// A smooth reward whose maximizer moves with the context.
double CombinationReward(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  const double shift = z.size() > 0 ? 0.2 * z(0) : 0.0;
  return -std::pow(x(0) - 0.3 - shift, 2) - 0.5 * std::pow(x(1) - 0.6, 2) +
         0.1 * std::sin(5 * x(0));
}

Domain MakeDomain(bool finite_set, bool context) {
  Rng rng(5);
  Domain d = finite_set ? Domain::FiniteSet(testing::UniformPoints(kActionDim, 25, 0.0, 1.0, rng))
                        : Domain::Box(Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 1.0));
  return context ? d.WithContext(1) : d;
}

OptimizerOptions MatrixOptions() {
  OptimizerOptions o = testing::CheapOptions(7);
  o.initial_design_size = 4;
  o.maximizer_raw_samples = 32;
  o.maximizer_starts = 1;
  o.maximizer_iterations = 10;
  o.fit.max_iterations = 20;
  o.fit.num_restarts = 0;
  o.refit.every = 4;
  return o;
}

// Rewards lie in [-1, 0.2]: the safe strategy's threshold -10 leaves every point safe once the
// model knows it; its seed is the first candidate or the box's centre.
StrategyParams CellParams(const std::string& strategy, const Domain& domain) {
  const Eigen::VectorXd seed = domain.kind() == DomainKind::kFiniteSet
                                   ? Eigen::VectorXd(domain.candidates().col(0))
                                   : Eigen::VectorXd::Constant(kActionDim, 0.5);
  return testing::CellParams(strategy, -10.0, seed);
}

bool IsCandidate(const Domain& d, const Eigen::VectorXd& x) {
  for (int c = 0; c < d.num_candidates(); ++c)
    if (d.candidates().col(c) == x) return true;
  return false;
}

// Runs the rounds, telling the reward (plus N(0, kNoiseSd^2) noise when noisy); every
// suggestion must lie in the domain.
void RunRounds(Optimizer* optimizer, bool noisy, const std::string& cell) {
  const Domain& d = optimizer->domain();
  Rng noise_rng(11);
  std::normal_distribution<double> noise(0.0, kNoiseSd);  // drawn only when noisy
  for (int round = 0; round < kCombinationRounds; ++round) {
    Eigen::VectorXd z;
    if (d.context_dim() > 0) z = Eigen::VectorXd::Constant(1, round % kNumContexts);
    const Eigen::VectorXd x = optimizer->Ask(z);
    ASSERT_EQ(x.size(), kActionDim) << cell;
    if (d.kind() == DomainKind::kFiniteSet) {
      ASSERT_TRUE(IsCandidate(d, x)) << cell << ": round " << round << " x " << x.transpose();
    } else {
      ASSERT_TRUE(x.allFinite()) << cell;
      ASSERT_TRUE((x.array() >= d.lower().array()).all() && (x.array() <= d.upper().array()).all())
          << cell << ": round " << round << " x " << x.transpose();
    }
    optimizer->Tell(x, z, CombinationReward(x, z) + (noisy ? noise(noise_rng) : 0.0));
  }
  EXPECT_GT(optimizer->num_accepted(), 0) << cell;
}

TEST(OptimizerCombinationTest, EveryStrategyKernelDomainAndContextIsRefusedOrRuns) {
  int ran = 0, refused = 0;
  for (const std::string& strategy : StrategyRegistry::Default().Names()) {
    for (const KernelCase& kernel_case : KernelCases()) {
      for (bool finite_set : {false, true}) {
        for (bool context : {false, true}) {
          if (kernel_case.needs_context && !context) continue;
          const Domain domain = MakeDomain(finite_set, context);
          const std::string cell = strategy + " x " + kernel_case.name + " x " + domain.Describe();
          SCOPED_TRACE(cell);
          std::unique_ptr<Kernel> kernel = kernel_case.make(domain.input_dim());
          const std::string kernel_name = kernel ? kernel->Describe() : "";
          const bool expect_refusal =
              strategy == "gp-ts" && !finite_set && !kernel_case.has_features;
          std::unique_ptr<Optimizer> optimizer;
          try {
            optimizer = std::make_unique<Optimizer>(
                domain, std::move(kernel), strategy, CellParams(strategy, domain),
                testing::CellOptions(strategy, MatrixOptions()));
          } catch (const std::invalid_argument& e) {
            ASSERT_TRUE(expect_refusal) << "refused: " << e.what();
            const std::string message = e.what();
            EXPECT_NE(message.find(strategy), std::string::npos) << message;
            EXPECT_NE(message.find(kernel_name), std::string::npos) << message;
            ++refused;
            continue;
          }
          ASSERT_FALSE(expect_refusal) << "built, but should have been refused";
          for (bool noisy : {false, true}) {
            if (noisy) {
              optimizer = std::make_unique<Optimizer>(
                  domain, kernel_case.make(domain.input_dim()), strategy,
                  CellParams(strategy, domain), testing::CellOptions(strategy, MatrixOptions()));
            }
            RunRounds(optimizer.get(), noisy, cell + (noisy ? ", noisy" : ", noiseless"));
            if (::testing::Test::HasFatalFailure()) return;
            ++ran;
          }
        }
      }
    }
  }
  std::cout << "[ matrix   ] " << ran << " combinations ran, " << refused << " refused\n";
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace gpbandit
