// What the optimizer tells a strategy each round (RoundState): the noise and signal variances
// in original units, the sequential variances behind the information gain, the incumbents.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "plugin_test_util.h"

namespace gpbandit {
namespace {

// A UCB that records every RoundState it is given.
class RecordingUcb : public IndexStrategy {
 public:
  explicit RecordingUcb(std::shared_ptr<std::vector<RoundState>> seen) : seen_(std::move(seen)) {}
  std::string name() const override { return "test-recording-ucb"; }
  void BeginRound(const RoundState& state) override { seen_->push_back(state); }
  double figure() const override { return 0.0; }
  std::string figure_name() const override { return "none"; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override {
    const double sigma = std::sqrt(std::max(variance, 0.0));
    if (d_mean != nullptr) *d_mean = 1.0;
    if (d_variance != nullptr) *d_variance = sigma > 0.0 ? 1.0 / (2.0 * sigma) : 0.0;
    return mean + sigma;
  }
  std::unique_ptr<Strategy> Clone() const override { return std::make_unique<RecordingUcb>(*this); }

 private:
  std::shared_ptr<std::vector<RoundState>> seen_;
};

std::shared_ptr<std::vector<RoundState>> RegisterRecorder() {
  static const auto seen = std::make_shared<std::vector<RoundState>>();
  static const bool registered = [] {
    StrategyRegistry::Default().Register("test-recording-ucb", [](const StrategyParams&) {
      return std::make_unique<RecordingUcb>(seen);
    });
    return true;
  }();
  (void)registered;
  return seen;
}

TEST(OptimizerRoundStateTest, VariancesAreInOriginalUnitsAndConsistent) {
  const auto seen = RegisterRecorder();
  seen->clear();
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr,
                "test-recording-ucb", testing::CheapOptions(4));
  double best = -HUGE_VAL;
  for (int i = 0; i < 14; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    if (!seen->empty() && static_cast<int>(seen->size()) == i - 2) {
      // This round was model-driven (3 design points first): its state against the model.
      const RoundState& s = seen->back();
      const GaussianProcess& gp = opt.model();
      const double scale2 = gp.output_scale() * gp.output_scale();
      // Matern-5/2 ARD: k(x, x) = the signal variance, log-param 0, in standardized units.
      EXPECT_NEAR(s.signal_variance, std::exp(gp.kernel_log_params()(0)) * scale2,
                  1e-12 * s.signal_variance);
      EXPECT_NEAR(s.noise_variance, (gp.noise_variance() + gp.jitter()) * scale2, 1e-15 * scale2);
      ASSERT_EQ(s.sequential_variances.size(), gp.num_observations());
      // Both in original units: their ratios give the model's information gain.
      const double gain = 0.5 * (s.sequential_variances.array() / s.noise_variance).log1p().sum();
      EXPECT_NEAR(gain, gp.InformationGain(), 1e-8 * gp.InformationGain());
      EXPECT_EQ(s.best_observed, best);
    }
    const double y = 100.0 + 50.0 * std::sin(3.0 * x(0)) * std::cos(2.0 * x(1));
    opt.Tell(x, y);
    best = std::max(best, y);
  }
  EXPECT_EQ(seen->size(), 11u);
}

}  // namespace
}  // namespace gpbandit
