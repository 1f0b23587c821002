#include "gpbandit/acquisition/safety_signal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "acquisition/options_json.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kInf;
using testing::kNaN;

std::string Error(const SignalModelOptions& options, const std::string& field = "") {
  std::string error;
  EXPECT_FALSE(options.IsValid(&error, field));
  return error;
}

TEST(SignalModelOptionsTest, DefaultsAreValidAndAdaptToTheData) {
  const SignalModelOptions options;
  std::string error;
  EXPECT_TRUE(options.IsValid(&error)) << error;
  EXPECT_TRUE(options.IsValid(nullptr));
  EXPECT_EQ(options.kernel, "");
  EXPECT_TRUE(options.lengthscales.empty());
  EXPECT_TRUE(std::isnan(options.stddev));
  EXPECT_TRUE(std::isnan(options.noise_stddev));
  EXPECT_TRUE(std::isnan(options.prior_mean));
  EXPECT_EQ(options.noise_floor, 0.02);
  EXPECT_EQ(options.context_lengthscale_cap, 1.0);
  EXPECT_TRUE(options.fit);
  EXPECT_TRUE(options.cautious);
  EXPECT_TRUE(options.stddev_covers_measured);
  // A SafetySignal's default threshold says "no safety signal".
  EXPECT_TRUE(std::isnan(SafetySignal().threshold));
}

TEST(SignalModelOptionsTest, EveryKnownKernelIsAcceptedAndOthersRefused) {
  for (const char* kernel : {"", "se", "matern12", "matern32", "matern52"}) {
    SignalModelOptions options;
    options.kernel = kernel;
    EXPECT_TRUE(options.IsValid(nullptr)) << kernel;
  }
  SignalModelOptions options;
  options.kernel = "rbf";
  EXPECT_EQ(Error(options).rfind("kernel = \"rbf\": must be", 0), 0u) << Error(options);
}

TEST(SignalModelOptionsTest, OutOfRangeFieldsAreRefusedByNameAndValue) {
  SignalModelOptions lengthscale;
  lengthscale.lengthscales = {0.5, 0.0};
  EXPECT_EQ(Error(lengthscale).rfind("lengthscales[1] = 0: ", 0), 0u) << Error(lengthscale);
  SignalModelOptions stddev;
  stddev.stddev = -1.0;
  EXPECT_EQ(Error(stddev).rfind("stddev = -1: ", 0), 0u) << Error(stddev);
  SignalModelOptions noise;
  noise.noise_stddev = kInf;
  EXPECT_EQ(Error(noise).rfind("noise_stddev = inf: ", 0), 0u) << Error(noise);
  SignalModelOptions floor;
  floor.noise_floor = 1.0;  // the open end of [0, 1)
  EXPECT_EQ(Error(floor).rfind("noise_floor = 1: ", 0), 0u) << Error(floor);
  SignalModelOptions mean;
  mean.prior_mean = -kInf;
  EXPECT_EQ(Error(mean).rfind("prior_mean = -inf: ", 0), 0u) << Error(mean);
  SignalModelOptions cap;
  cap.context_lengthscale_cap = kNaN;
  EXPECT_EQ(Error(cap).rfind("context_lengthscale_cap = nan: ", 0), 0u) << Error(cap);
}

TEST(SignalModelOptionsTest, EdgesOfTheRangesAreAccepted) {
  SignalModelOptions options;
  options.noise_floor = 0.0;
  options.context_lengthscale_cap = 0.0;
  options.prior_mean = -1e300;
  options.stddev = std::numeric_limits<double>::denorm_min();
  options.lengthscales = {1e-12};
  std::string error;
  EXPECT_TRUE(options.IsValid(&error)) << error;
}

TEST(SignalModelOptionsTest, FieldPrefixNamesTheSignal) {
  SignalModelOptions options;
  options.noise_floor = -0.5;
  EXPECT_EQ(Error(options, "signal_models[1].").rfind("signal_models[1].noise_floor = -0.5: ", 0),
            0u)
      << Error(options, "signal_models[1].");
}

TEST(SignalModelOptionsTest, JsonRoundTripKeepsEveryFieldAndNaNAsNull) {
  SignalModelOptions options;
  options.kernel = "matern32";
  options.lengthscales = {0.1 + 0.2, 0.25};
  options.stddev = 1.0 / 3.0;
  options.noise_floor = 0.05;
  options.fit = false;
  options.cautious = false;
  options.context_lengthscale_cap = 0.3;
  options.stddev_covers_measured = false;
  const nlohmann::json j = options;
  EXPECT_TRUE(j.at("noise_stddev").is_null());
  EXPECT_TRUE(j.at("prior_mean").is_null());
  EXPECT_EQ(j.size(), 10u);
  const SignalModelOptions back = nlohmann::json::parse(j.dump()).get<SignalModelOptions>();
  EXPECT_EQ(back.kernel, "matern32");
  ASSERT_EQ(back.lengthscales.size(), 2u);
  EXPECT_EQ(back.lengthscales[0], 0.1 + 0.2);
  EXPECT_EQ(back.lengthscales[1], 0.25);
  EXPECT_EQ(back.stddev, 1.0 / 3.0);
  EXPECT_TRUE(std::isnan(back.noise_stddev));
  EXPECT_EQ(back.noise_floor, 0.05);
  EXPECT_TRUE(std::isnan(back.prior_mean));
  EXPECT_FALSE(back.fit);
  EXPECT_FALSE(back.cautious);
  EXPECT_EQ(back.context_lengthscale_cap, 0.3);
  EXPECT_FALSE(back.stddev_covers_measured);
}

TEST(SignalModelOptionsTest, ReadingKeepsMissingKeysAndRefusesUnknownOrMistyped) {
  SignalModelOptions options;
  options.noise_floor = 0.1;
  nlohmann::json::parse(R"({"prior_mean": 2.5, "stddev": null})").get_to(options);
  EXPECT_EQ(options.prior_mean, 2.5);
  EXPECT_TRUE(std::isnan(options.stddev));
  EXPECT_EQ(options.noise_floor, 0.1);  // absent: kept
  SignalModelOptions target;
  EXPECT_THROW(nlohmann::json::parse(R"({"threshold": 1})").get_to(target), std::invalid_argument);
  try {
    nlohmann::json::parse(R"({"stddev": "wide"})").get_to(target);
    FAIL() << "a string stddev was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("stddev"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpbandit
