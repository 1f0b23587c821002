#include "gpbandit/plugin/strategy_registry.h"

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gpbandit/acquisition/gp_ucb.h"

namespace gpbandit {
namespace {

// A user strategy defined outside the library: scores mean + extra["weight"] * variance.
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

 private:
  double weight_;
};

TEST(StrategyRegistryTest, DefaultHoldsTheBuiltInsSorted) {
  const std::vector<std::string> expected = {"cgp-ucb", "ei",  "gp-ts",   "gp-ucb",
                                             "igp-ucb", "mean", "pi", "variance"};
  const std::vector<std::string> names = StrategyRegistry::Default().Names();
  for (const std::string& name : expected) {
    EXPECT_TRUE(StrategyRegistry::Default().Contains(name)) << name;
    const auto strategy = StrategyRegistry::Default().Create(name);
    ASSERT_NE(strategy, nullptr);
    EXPECT_EQ(strategy->name(), name);
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(StrategyRegistryTest, OptionsReachTheStrategy) {
  StrategyOptions options;
  options.beta_schedule = BetaScheduleKind::kConstant;
  options.constant_beta = 10.0;
  options.beta_scale = 0.2;
  auto strategy = StrategyRegistry::Default().Create("gp-ucb", options);
  strategy->BeginRound(RoundState());
  EXPECT_DOUBLE_EQ(strategy->figure(), 2.0);
  options.xi = 0.25;
  auto ei = StrategyRegistry::Default().Create("ei", options);
  EXPECT_EQ(ei->figure(), 0.25);
  options.ts_fixed_scale = 3.0;
  auto ts = StrategyRegistry::Default().Create("gp-ts", options);
  ts->BeginRound(RoundState());
  EXPECT_EQ(ts->figure(), 3.0);
}

TEST(StrategyRegistryTest, UserStrategyRegisteredAtRunTime) {
  StrategyRegistry registry;
  registry.Register("weighted-variance", [](const StrategyOptions& options) {
    const auto it = options.extra.find("weight");
    return std::make_unique<WeightedVariance>(it == options.extra.end() ? 1.0 : it->second);
  });
  StrategyOptions options;
  options.extra["weight"] = 7.5;
  auto strategy = registry.Create("weighted-variance", options);
  EXPECT_EQ(strategy->name(), "weighted-variance");
  EXPECT_EQ(strategy->figure(), 7.5);
  EXPECT_EQ(registry.Names(), std::vector<std::string>{"weighted-variance"});
  EXPECT_THROW(registry.Register("weighted-variance",
                                 [](const StrategyOptions&) { return std::make_unique<GpUcb>(); }),
               std::invalid_argument);
  EXPECT_THROW(registry.Register("", [](const StrategyOptions&) { return std::make_unique<GpUcb>(); }),
               std::invalid_argument);
  EXPECT_THROW(registry.Register("x", nullptr), std::invalid_argument);
  // Also in the process-wide registry, next to the built-ins.
  StrategyRegistry::Default().Register("test-weighted-variance", [](const StrategyOptions&) {
    return std::make_unique<WeightedVariance>(2.0);
  });
  EXPECT_EQ(StrategyRegistry::Default().Create("test-weighted-variance")->figure(), 2.0);
}

TEST(StrategyRegistryTest, UnknownNameListsTheKnownOnes) {
  try {
    StrategyRegistry::Default().Create("gp-ucbb");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("gp-ucbb"), std::string::npos) << message;
    for (const char* name : {"cgp-ucb", "ei", "gp-ts", "gp-ucb", "igp-ucb", "mean", "pi", "variance"})
      EXPECT_NE(message.find(name), std::string::npos) << name << " missing in: " << message;
  }
  EXPECT_FALSE(StrategyRegistry::Default().Contains("gp-ucbb"));
}

TEST(StrategyRegistryTest, InvalidOptionsAreRejectedWithTheField) {
  StrategyOptions options;
  options.delta = 2.0;
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_NE(error.find("delta"), std::string::npos) << error;
  EXPECT_THROW(StrategyRegistry::Default().Create("gp-ucb", options), std::invalid_argument);
  options = StrategyOptions();
  options.extra["w"] = std::nan("");
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_NE(error.find("extra[w]"), std::string::npos) << error;
  StrategyRegistry registry;
  registry.Register("null", [](const StrategyOptions&) { return std::unique_ptr<Strategy>(); });
  EXPECT_THROW(registry.Create("null"), std::invalid_argument);
}

TEST(StrategyRegistryTest, ConcurrentRegisterAndCreate) {
  StrategyRegistry registry;
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&registry, k] {
      for (int i = 0; i < 50; ++i) {
        registry.Register("s" + std::to_string(k) + "_" + std::to_string(i),
                          [](const StrategyOptions&) { return std::make_unique<GpUcb>(); });
        registry.Create("s" + std::to_string(k) + "_" + std::to_string(i));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(registry.Names().size(), 200u);
}

}  // namespace
}  // namespace gpbandit
