// safe-opt's context lengthscales through the Optimizer (acquisition/safety_signal.h,
// context_lengthscale_cap): refits lengthen a signal model's context lengthscale beyond 0.3 when
// the data say so, never its actions', and a study written by log format 6 (whose models held
// them at most 0.3) or 7 (whose models' prior standard deviation had no floor from the
// measurements, stddev_covers_measured) resumes exactly as it ran.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// One action and one context in [0, 1]: the constraint g = 1 - 4 (x - 0.5)^2 + 0.2 z must stay
// >= 0; it changes slowly with the context. The reward has no threshold.
double ContextConstraint(double x, double z) { return 1.0 - 4.0 * (x - 0.5) * (x - 0.5) + 0.2 * z; }
double ContextReward(double x, double z) { return std::sin(3.0 * x) + 0.5 * z; }

Domain UnitContextDomain() {
  return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1))
      .WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
}

// signal_models: "" for the defaults, else its JSON.
StrategyParams LengthscaleParams(const std::string& signal_models = "") {
  StrategyParams p =
      StrategyParams().WithText("constraint_thresholds", "[0]").WithText("seeds", "[[0.5]]");
  return signal_models.empty() ? p : p.WithText("signal_models", signal_models);
}

// rounds asks and tells at contexts drawn from seed, starting after `skip` draws.
void RunEpisodes(Optimizer* opt, int skip, int rounds, std::uint64_t seed) {
  Rng rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int t = 0; t < skip; ++t) u01(rng);
  for (int t = 0; t < rounds; ++t) {
    const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, u01(rng));
    const Eigen::VectorXd x = opt->Ask(z);
    opt->Tell(x, z, ContextReward(x(0), z(0)),
              Eigen::VectorXd::Constant(1, ContextConstraint(x(0), z(0))));
  }
}

// The constraint model's lengthscales (unit cube), the action's then the context's.
std::vector<double> Lengthscales(const Optimizer& opt) {
  const GaussianProcess& gp = opt.constraint_model(0);
  const std::vector<ParamKind> kinds = gp.kernel().ParamKinds();
  std::vector<double> lengthscales;
  for (std::size_t j = 0; j < kinds.size(); ++j)
    if (kinds[j] == ParamKind::kLengthscale)
      lengthscales.push_back(std::exp(gp.kernel_log_params()(static_cast<Eigen::Index>(j))));
  return lengthscales;
}

TEST(SafeOptContextLengthscaleTest, RefitsLengthenTheContextsNeverTheActions) {
  Optimizer grown(UnitContextDomain(), nullptr, "safe-opt", LengthscaleParams(),
                  testing::CheapOptions(3));
  Optimizer held(UnitContextDomain(), nullptr, "safe-opt",
                 LengthscaleParams(R"([{}, {"context_lengthscale_cap": 0}])"),
                 testing::CheapOptions(3));
  RunEpisodes(&grown, 0, 25, 7);
  RunEpisodes(&held, 0, 25, 7);
  const std::vector<double> g = Lengthscales(grown), h = Lengthscales(held);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_LE(g[0], 0.3 * (1 + 1e-9));
  EXPECT_GT(g[1], 0.35);  // the slow context, fitted beyond 0.3
  EXPECT_LE(g[1], 1.0 * (1 + 1e-9));
  EXPECT_LE(h[0], 0.3 * (1 + 1e-9));
  EXPECT_LE(h[1], 0.3 * (1 + 1e-9));
}

// The study logged at original's log path, rewritten as log format `version` wrote it (that
// version, the default signal models), resumed: it matches original's fingerprint, and both
// continue with refits (every observation while t < 20) and agree bit for bit.
void ExpectOlderLogResumesAsItRan(Optimizer* original, int version) {
  const std::string path = original->options().log_path;
  std::string log = testing::ReadFile(path);
  const std::size_t end = log.find('\n');
  nlohmann::json header = nlohmann::json::parse(log.substr(0, end));
  ASSERT_EQ(header.at("version"), kLogFormatVersion);
  header["version"] = version;
  header["strategy_options"]["signal_models"] = nlohmann::json::array();
  const std::string copy = path + ".v" + std::to_string(version);
  std::ofstream(copy, std::ios::binary) << header.dump() << log.substr(end);
  std::unique_ptr<Optimizer> resumed = Optimizer::Resume(copy);
  EXPECT_EQ(resumed->Fingerprint(), original->Fingerprint());
  RunEpisodes(original, 12, 10, 5);
  RunEpisodes(resumed.get(), 12, 10, 5);
  EXPECT_EQ(resumed->constraint_model(0).kernel_log_params(),
            original->constraint_model(0).kernel_log_params());
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, 0.7);
  EXPECT_EQ(resumed->Ask(z), original->Ask(z));
  std::remove(copy.c_str());
}

// A log of format 6 holds safe-opt's options without context_lengthscale_cap; resumed, the study
// keeps the models it ran with (cap 0) and continues exactly as one given cap 0 explicitly.
TEST(SafeOptContextLengthscaleTest, Version6LogsResumeWithTheLengthscalesTheyRanWith) {
  OptimizerOptions options = testing::CheapOptions(9);
  options.log_path = testing::TempLogPath("safe_context_v6");
  const std::string cap0 =
      R"([{"context_lengthscale_cap": 0, "stddev_covers_measured": false},
          {"context_lengthscale_cap": 0, "stddev_covers_measured": false}])";
  Optimizer original(UnitContextDomain(), nullptr, "safe-opt", LengthscaleParams(cap0), options);
  RunEpisodes(&original, 0, 12, 5);
  ExpectOlderLogResumesAsItRan(&original, 6);
  // Under the new default the same study would have fitted another context lengthscale.
  Optimizer current(UnitContextDomain(), nullptr, "safe-opt", LengthscaleParams(),
                    testing::CheapOptions(9));
  RunEpisodes(&current, 0, 22, 5);
  EXPECT_NE(Lengthscales(current)[1], Lengthscales(original)[1]);
  std::remove(options.log_path.c_str());
}

// A log of format 7 holds safe-opt's options without stddev_covers_measured; resumed, the study
// keeps the models it ran with (no floor from the measurements) and continues exactly as one
// given it false explicitly, while the default's refits keep the prior standard deviation at
// least the largest distance measured.
TEST(SafeOptContextLengthscaleTest, Version7LogsResumeWithTheStddevFloorTheyRanWith) {
  OptimizerOptions options = testing::CheapOptions(9);
  options.log_path = testing::TempLogPath("safe_stddev_v7");
  const std::string off =
      R"([{"stddev_covers_measured": false}, {"stddev_covers_measured": false}])";
  Optimizer original(UnitContextDomain(), nullptr, "safe-opt", LengthscaleParams(off), options);
  RunEpisodes(&original, 0, 12, 5);
  ExpectOlderLogResumesAsItRan(&original, 7);
  // The default: after its refits the prior variance (model units) is at least the largest
  // squared output; the outputs are the constraint over the first one's distance from 0.
  Optimizer current(UnitContextDomain(), nullptr, "safe-opt", LengthscaleParams(),
                    testing::CheapOptions(9));
  RunEpisodes(&current, 0, 22, 5);
  const Eigen::VectorXd v = current.constraint_model(0).outputs();
  const double largest = v.cwiseAbs2().maxCoeff();
  EXPECT_GT(largest, 1.0);  // a measurement farther from the limit than the first
  const Eigen::VectorXd p = current.constraint_model(0).kernel_log_params();
  EXPECT_GE(p(0), std::log(largest) - 1e-9);
  // Without the floor the same study's fit stayed below it.
  Optimizer without(UnitContextDomain(), nullptr, "safe-opt", LengthscaleParams(off),
                    testing::CheapOptions(9));
  RunEpisodes(&without, 0, 22, 5);
  const Eigen::VectorXd w = without.constraint_model(0).outputs();
  EXPECT_LT(without.constraint_model(0).kernel_log_params()(0), std::log(w.cwiseAbs2().maxCoeff()));
  std::remove(options.log_path.c_str());
}

}  // namespace
}  // namespace gpbandit
