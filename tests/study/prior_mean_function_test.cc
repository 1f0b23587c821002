// PriorMeanFunction: when a study has one, and its JSON in the options (the header records the
// name and the centring constants, and nothing without one).
#include "gpbandit/study/prior_mean_function.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "gpbandit/study/optimizer_options.h"
#include "study/optimizer_options_json.h"

namespace gpbandit {
namespace {

using internal::OptimizerOptionsFromJson;
using internal::OptimizerOptionsToJson;

TEST(PriorMeanFunctionTest, ActiveWithAFunctionDeclaredWithANameToo) {
  PriorMeanFunction f;
  EXPECT_FALSE(f.active());
  EXPECT_FALSE(f.declared());
  EXPECT_TRUE(std::isnan(f.mean));
  f.name = "sim";
  EXPECT_FALSE(f.active());
  EXPECT_TRUE(f.declared());
  f.value = [](const Eigen::VectorXd& x, const Eigen::VectorXd&) { return x(0); };
  EXPECT_TRUE(f.active());
}

TEST(PriorMeanFunctionTest, TheOptionsJsonHasTheKeyOnlyWithAFunction) {
  EXPECT_FALSE(OptimizerOptionsToJson(OptimizerOptions()).contains("prior_mean_function"));
  OptimizerOptions o;
  o.prior_mean_function.name = "sim";
  o.prior_mean_function.value = [](const Eigen::VectorXd& x, const Eigen::VectorXd&) {
    return x(0);
  };
  o.prior_mean_function.mean = 0.25;
  o.prior_mean_function.stddev = 1.5;
  const nlohmann::json written = OptimizerOptionsToJson(o);
  EXPECT_EQ(written["prior_mean_function"],
            nlohmann::json({{"name", "sim"}, {"mean", 0.25}, {"stddev", 1.5}}));
  const OptimizerOptions back = OptimizerOptionsFromJson(written, "options");
  EXPECT_EQ(back.prior_mean_function.name, "sim");
  EXPECT_EQ(back.prior_mean_function.mean, 0.25);
  EXPECT_EQ(back.prior_mean_function.stddev, 1.5);
  EXPECT_FALSE(back.prior_mean_function.active());  // a function is not in a log
  nlohmann::json extra = written;
  extra["prior_mean_function"]["shape"] = 1;
  EXPECT_THROW(OptimizerOptionsFromJson(extra, "options"), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
