// A study whose header was written before an option existed resumes with the value of the
// legacy table (study/options_json_legacy.h), and behaves as a study that recorded that value:
// the same options, the same next suggestions.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "tests/optimizer/plugin_test_util.h"

namespace gpbandit {
namespace {

using nlohmann::json;

double LegacyReward(const Eigen::VectorXd& x) {
  return -(x.array() - 0.3).square().sum() + 0.2 * std::sin(9.0 * x(0));
}

// A study of `rounds` asks and tells, in a log at the returned path.
std::string Study(const std::string& name, const std::string& strategy,
                  const OptimizerOptions& base, int rounds) {
  OptimizerOptions o = base;
  o.log_path = testing::TempLogPath(name);
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(2), Eigen::VectorXd::Ones(2)), nullptr, strategy,
                StrategyParams(), o);
  for (int k = 0; k < rounds; ++k) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, LegacyReward(x));
  }
  return o.log_path;
}

// A copy of the log at `path` with its header changed by `edit`.
std::string WithHeader(const std::string& path, const std::string& name,
                       const std::function<void(json*)>& edit) {
  const std::string text = testing::ReadFile(path);
  const std::size_t end = text.find('\n');
  json header = json::parse(text.substr(0, end));
  edit(&header);
  const std::string copy = testing::TempLogPath(name);
  std::ofstream(copy, std::ios::binary) << header.dump() << text.substr(end);
  return copy;
}

std::vector<Eigen::VectorXd> NextAsks(Optimizer* opt, int rounds) {
  std::vector<Eigen::VectorXd> asked;
  for (int k = 0; k < rounds; ++k) {
    asked.push_back(opt->Ask());
    opt->Tell(asked.back(), LegacyReward(asked.back()));
  }
  return asked;
}

// local_model.trust_box_scale was added without a format version: a version-9 header without
// it ran with the whole trust box, and resumes with it.
TEST(LogLegacyValuesTest, ACurrentHeaderWithoutANewOptionResumesWithItsLegacyValue) {
  OptimizerOptions o = testing::CheapOptions(7);
  o.local_model.exact_until = 6;  // the local model, whose trust box the option scales
  o.local_model.size = 5;
  o.local_model.regions = 2;
  ASSERT_EQ(o.local_model.trust_box_scale, 0.7);
  const std::string log = Study("legacy_scale", "gp-ucb", o, 10);
  const std::string without = WithHeader(log, "legacy_scale_without", [](json* h) {
    ASSERT_EQ(h->at("version"), kLogFormatVersion);
    h->at("options").at("local_model").erase("trust_box_scale");
  });
  const std::string explicit_legacy = WithHeader(log, "legacy_scale_explicit", [](json* h) {
    h->at("options").at("local_model")["trust_box_scale"] = 1.0;
  });
  const auto resumed = Optimizer::Resume(without);
  EXPECT_EQ(resumed->options().local_model.trust_box_scale, 1.0);
  const auto recorded = Optimizer::Resume(explicit_legacy);
  const auto as_written = Optimizer::Resume(log);
  const std::vector<Eigen::VectorXd> asks = NextAsks(resumed.get(), 3);
  EXPECT_EQ(asks, NextAsks(recorded.get(), 3));
  // The option matters here: the study as written (0.7) goes elsewhere.
  EXPECT_NE(asks, NextAsks(as_written.get(), 3));
}

// PI's relative_xi_per_dim came with version 9: a version-8 PI header (which wrote every other
// option, relative_xi 0.01) ran without the per-dimension margin, and resumes without it.
TEST(LogLegacyValuesTest, AnOlderHeaderWithoutAStrategyOptionResumesWithItsLegacyValue) {
  const std::string log = Study("legacy_pi", "pi", testing::CheapOptions(5), 8);
  const std::string v8 = WithHeader(log, "legacy_pi_v8", [](json* h) {
    (*h)["version"] = 8;
    ASSERT_EQ(h->at("strategy_options").at("relative_xi_per_dim"), 0.005);
    h->at("strategy_options").erase("relative_xi_per_dim");
  });
  const std::string explicit_legacy = WithHeader(log, "legacy_pi_explicit", [](json* h) {
    h->at("strategy_options")["relative_xi_per_dim"] = 0.0;
  });
  const auto resumed = Optimizer::Resume(v8);
  EXPECT_EQ(resumed->strategy_options().at("relative_xi_per_dim"), 0.0);
  const auto recorded = Optimizer::Resume(explicit_legacy);
  EXPECT_EQ(resumed->strategy_options(), recorded->strategy_options());
  EXPECT_EQ(NextAsks(resumed.get(), 3), NextAsks(recorded.get(), 3));
}

}  // namespace
}  // namespace gpbandit
