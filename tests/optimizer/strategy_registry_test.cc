#include "gpbandit/optimizer/strategy_registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpbandit/acquisition/gp_ucb.h"
#include "tests/optimizer/strategy_cells.h"

namespace gpbandit {
namespace {

// A user strategy defined outside the library: scores mean + weight * variance.
class WeightedVariance : public IndexStrategy {
 public:
  explicit WeightedVariance(double weight) : weight_(weight) {}
  std::string name() const override { return "weighted-variance"; }
  void BeginRound(const RoundState& state) override { ValidateRoundState(state); }
  double figure() const override { return weight_; }
  std::string figure_name() const override { return "weight"; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override {
    if (d_mean != nullptr) *d_mean = 1.0;
    if (d_variance != nullptr) *d_variance = weight_;
    return mean + weight_ * variance;
  }
  std::unique_ptr<Strategy> Clone() const override {
    return std::make_unique<WeightedVariance>(*this);
  }
  std::string OptionsJson() const override {
    return StrategyParams().With("weight", weight_).json();
  }

 private:
  double weight_;
};

// What a registered strategy needs beyond its default options to be built (safe-opt: a
// threshold and a safe seed; strategy_cells.h); nothing for the others.
StrategyParams RequiredOptions(const std::string& name) {
  return testing::CellParams(name, 0.0, Eigen::Vector2d(0.5, 0.5));
}

// The registered strategies, those that tests register included.
std::vector<std::string> RegisteredNames() { return StrategyRegistry::Default().Names(); }

TEST(StrategyRegistryTest, EveryRegisteredStrategyIsCreatedUnderItsName) {
  const std::vector<std::string> names = RegisteredNames();
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    EXPECT_TRUE(StrategyRegistry::Default().Contains(name)) << name;
    const auto strategy = StrategyRegistry::Default().Create(name, RequiredOptions(name));
    ASSERT_NE(strategy, nullptr) << name;
    EXPECT_EQ(strategy->name(), name);
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(StrategyRegistryTest, OptionsReachTheStrategy) {
  const StrategyParams options(
      R"({"beta_schedule": "constant", "constant_beta": 10.0, "beta_scale": 0.2})");
  auto strategy = StrategyRegistry::Default().Create("gp-ucb", options);
  strategy->BeginRound(RoundState());
  EXPECT_DOUBLE_EQ(strategy->figure(), 2.0);
  auto ei = StrategyRegistry::Default().Create("ei", StrategyParams().With("xi", 0.25));
  EXPECT_EQ(ei->figure(), 0.25);
  auto ts = StrategyRegistry::Default().Create("gp-ts", StrategyParams().With("fixed_scale", 3.0));
  ts->BeginRound(RoundState());
  EXPECT_EQ(ts->figure(), 3.0);
}

TEST(StrategyRegistryTest, UserStrategyRegisteredAtRunTime) {
  StrategyRegistry registry;
  registry.Register("weighted-variance", [](const StrategyParams& options) {
    return std::make_unique<WeightedVariance>(options.value("weight", 1.0));
  });
  auto strategy = registry.Create("weighted-variance", StrategyParams().With("weight", 7.5));
  EXPECT_EQ(strategy->name(), "weighted-variance");
  EXPECT_EQ(strategy->figure(), 7.5);
  EXPECT_EQ(registry.Names(), std::vector<std::string>{"weighted-variance"});
  EXPECT_THROW(registry.Register("weighted-variance",
                                 [](const StrategyParams&) { return std::make_unique<GpUcb>(); }),
               std::invalid_argument);
  EXPECT_THROW(
      registry.Register("", [](const StrategyParams&) { return std::make_unique<GpUcb>(); }),
      std::invalid_argument);
  EXPECT_THROW(registry.Register("x", nullptr), std::invalid_argument);
  // Also in the process-wide registry, next to the built-ins: from then on the tests that
  // iterate the registered names cover it too.
  StrategyRegistry::Default().Register(
      "weighted-variance",
      [](const StrategyParams& p) { return std::make_unique<WeightedVariance>(p.at("weight")); },
      StrategyParams(R"({"weight": 2.0})"), "mean + weight * variance (a user strategy)");
  EXPECT_EQ(StrategyRegistry::Default().Create("weighted-variance")->figure(), 2.0);
}

TEST(StrategyRegistryTest, UnknownNameListsTheKnownOnes) {
  try {
    StrategyRegistry::Default().Create("gp-ucbb");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("gp-ucbb"), std::string::npos) << message;
    for (const std::string& name : RegisteredNames())
      EXPECT_NE(message.find(name), std::string::npos) << name << " missing in: " << message;
  }
  EXPECT_FALSE(StrategyRegistry::Default().Contains("gp-ucbb"));
}

TEST(StrategyRegistryTest, InvalidOptionsAreRejectedWithTheField) {
  std::string error;
  try {
    StrategyRegistry::Default().Create("gp-ucb", StrategyParams().With("delta", 2.0));
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("delta"), std::string::npos) << error;
  EXPECT_THROW(StrategyRegistry::Default().Create("gp-ucb", StrategyParams().With("delta", 2.0)),
               std::invalid_argument);
  error.clear();
  try {
    StrategyParams().With("w", std::nan(""));
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("w = nan"), std::string::npos) << error;
  StrategyRegistry registry;
  registry.Register("null", [](const StrategyParams&) { return std::unique_ptr<Strategy>(); });
  EXPECT_THROW(registry.Create("null"), std::invalid_argument);
}

TEST(StrategyRegistryTest, ConcurrentRegisterAndCreate) {
  StrategyRegistry registry;
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&registry, k] {
      for (int i = 0; i < 50; ++i) {
        registry.Register("s" + std::to_string(k) + "_" + std::to_string(i),
                          [](const StrategyParams&) { return std::make_unique<GpUcb>(); });
        registry.Create("s" + std::to_string(k) + "_" + std::to_string(i));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(registry.Names().size(), 200u);
}

// Each registered strategy has a description, and its default options are complete: the options
// its factory builds from them (with what it requires, RequiredOptions) are exactly those it was
// given (every field of its options struct).
TEST(StrategyRegistryTest, EveryStrategyHasADescriptionAndCompleteDefaults) {
  const StrategyRegistry& registry = StrategyRegistry::Default();
  for (const std::string& name : RegisteredNames()) {
    EXPECT_FALSE(registry.Description(name).empty()) << name;
    const StrategyParams required = RequiredOptions(name);
    const StrategyParams built(registry.Create(name, required)->OptionsJson());
    // The required options as the strategy reports them (seeds given as text come back as an
    // array); every other key at its default.
    EXPECT_EQ(built, registry.ResolveOptions(name, built.Intersection(required))) << name;
    EXPECT_EQ(registry.ResolveOptions(name), registry.DefaultOptions(name)) << name;
  }
  EXPECT_TRUE(registry.DefaultOptions("gp-ucb").contains("beta_scale"));
  EXPECT_TRUE(registry.DefaultOptions("gp-ts").contains("num_features"));
  EXPECT_EQ(registry.DefaultOptions("ei"),
            StrategyParams(R"({"xi": 0.0, "relative_xi": 0.0, "relative_xi_per_dim": 0.0,
                         "incumbent_rule": "posterior-mean"})"));
  EXPECT_TRUE(registry.DefaultOptions("mean").empty());
  EXPECT_THROW(registry.DefaultOptions("no-such"), std::invalid_argument);
  EXPECT_THROW(registry.Description("no-such"), std::invalid_argument);
}

// A user factory sees its default options under the given ones.
TEST(StrategyRegistryTest, UserDefaultsReachTheFactory) {
  StrategyRegistry registry;
  registry.Register(
      "weighted-variance",
      [](const StrategyParams& p) { return std::make_unique<WeightedVariance>(p.at("weight")); },
      StrategyParams(R"({"weight": 3.0})"), "mean + weight * variance");
  EXPECT_EQ(registry.Create("weighted-variance")->figure(), 3.0);
  EXPECT_EQ(registry.Create("weighted-variance", StrategyParams().With("weight", 0.5))->figure(),
            0.5);
  EXPECT_EQ(registry.ResolveOptions("weighted-variance", StrategyParams().With("other", 1)),
            StrategyParams(R"({"other": 1, "weight": 3.0})"));
  EXPECT_EQ(registry.Description("weighted-variance"), "mean + weight * variance");
}

TEST(StrategyRegistryTest, ReplaceSwapsTheEntryAndRegisterRefusesTwice) {
  StrategyRegistry registry;
  auto factory = [](const StrategyParams& p) {
    return std::make_unique<WeightedVariance>(p.at("weight"));
  };
  registry.Register("weighted-variance", factory, StrategyParams(R"({"weight": 3.0})"), "first");
  EXPECT_THROW(registry.Register("weighted-variance", factory), std::invalid_argument);
  EXPECT_EQ(registry.Description("weighted-variance"), "first");
  registry.Replace("weighted-variance", factory, StrategyParams(R"({"weight": 5.0})"), "second");
  EXPECT_EQ(registry.Create("weighted-variance")->figure(), 5.0);
  EXPECT_EQ(registry.Description("weighted-variance"), "second");
  registry.Replace("new-name", factory, StrategyParams(R"({"weight": 1.0})"));  // or adds
  EXPECT_EQ(registry.Names(), (std::vector<std::string>{"new-name", "weighted-variance"}));
  EXPECT_THROW(registry.Replace("", factory), std::invalid_argument);
  EXPECT_THROW(registry.Replace("x", nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
