#include "study/optimizer_options_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace gpbandit {
namespace internal {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

// Every logged field away from its default (and from the other fields' values), so that a field
// the writer or the reader drops comes back as its default and the comparison fails.
OptimizerOptions Unusual() {
  OptimizerOptions o;
  o.seed = 18446744073709551557ull;  // above 2^63: read as unsigned
  o.initial_design_size = 7;
  o.refit = {false, 2, 13, 9};
  o.fit.num_restarts = 4;
  o.fit.max_iterations = 61;
  o.fit.function_tolerance = 1.5e-7;
  o.fit.gradient_tolerance = 2.5e-7;
  o.fit.parameter_tolerance = 3.5e-11;
  o.fit.max_seconds = 4.25;
  o.fit.fit_noise = false;
  o.fit.min_noise_variance = 1e-9;
  o.fit.max_noise_variance = 8.0;
  o.fit.min_lengthscale = 0.002;
  o.fit.max_lengthscale = 90.0;
  o.fit.min_period = 0.02;
  o.fit.max_period = 9.0;
  o.fit.min_signal_variance = 0.003;
  o.fit.max_signal_variance = 900.0;
  o.fit.start_min_lengthscale = 0.04;
  o.fit.start_max_lengthscale = 2.5;
  o.fit.start_min_period = 0.15;
  o.fit.start_max_period = 0.9;
  o.fit.start_min_signal_variance = 0.2;
  o.fit.start_max_signal_variance = 9.0;
  o.fit.start_min_noise_variance = 2e-4;
  o.fit.start_max_noise_variance = 0.25;
  o.fit.kind_ranges["ramp"] = {0.1, 5.0, 0.2, 1.0};
  o.fit.lower_log_bounds = {-3.0, -std::numeric_limits<double>::infinity()};
  o.fit.upper_log_bounds = {2.0, std::numeric_limits<double>::infinity()};
  o.fit.kernel_priors = {{-1.2, 0.5}, {0.3, std::numeric_limits<double>::infinity()}};
  o.fit.noise_prior = {-4.0, 2.0};
  o.fit_restarts_until = 31;
  o.fit_max_observations = 77;
  o.local_model = {123, 45, 4, LocalAnchor::kHighestMean, 0.55};
  o.gp = {2e-3, false, PriorMeanEstimate::kGeneralizedLeastSquares, 0.03};
  o.non_finite_rewards = NonFiniteRewardPolicy::kImputeWorst;
  o.sense = ObjectiveSense::kMinimize;
  o.maximizer_raw_samples = 48;
  o.maximizer_starts = 3;
  o.maximizer_observed_starts = 2;
  o.maximizer_iterations = 33;
  o.maximizer_function_tolerance = 0.1 + 0.2;  // not exact in decimal
  o.maximizer_raw_sample_design = RawSampleDesign::kSobol;
  o.maximizer_integer_search = IntegerSearch::kLocalSearch;
  o.num_threads = 3;
  o.finite_set_rank_one_updates = false;
  o.sync_log = false;
  o.outcomes.objectives = {{"itae", true}, {"effort", false}};
  o.outcomes.constraints = {{"overshoot", ConstraintSense::kLessEqual, 0.1},
                            {"margin", ConstraintSense::kGreaterEqual, -2.5}};
  o.outcomes.reference_point = {3.0, -1.0};
  o.outcomes.feasibility_confidence = 0.9;
  o.outcomes.scalarization = ScalarizationRule::kLinear;
  return o;
}

// The error of reading `object`, or "" if it was read.
std::string JsonErrorOf(const json& object) {
  try {
    OptimizerOptionsFromJson(object, "options");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(OptimizerOptionsJsonTest, EveryLoggedFieldSurvivesARoundTrip) {
  const OptimizerOptions o = Unusual();
  const json written = OptimizerOptionsToJson(o);
  const OptimizerOptions back = OptimizerOptionsFromJson(written, "options");
  // Written again, the read options give the same object: every field came back.
  EXPECT_EQ(OptimizerOptionsToJson(back), written);
  EXPECT_EQ(back.seed, 18446744073709551557ull);
  EXPECT_EQ(back.maximizer_function_tolerance, 0.1 + 0.2);
  EXPECT_EQ(back.fit.lower_log_bounds[1], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(back.fit.kernel_priors[1].stddev_log, std::numeric_limits<double>::infinity());
  EXPECT_EQ(back.local_model.anchor, LocalAnchor::kHighestMean);
  EXPECT_EQ(back.maximizer_integer_search, IntegerSearch::kLocalSearch);
  EXPECT_EQ(back.fit.kind_ranges.at("ramp").start_min, 0.2);
  EXPECT_EQ(back.outcomes.constraints.at(1).sense, ConstraintSense::kGreaterEqual);
  EXPECT_EQ(back.outcomes.constraints.at(1).bound, -2.5);
  EXPECT_TRUE(back.outcomes.objectives.at(0).minimize);
  EXPECT_EQ(written.at("outcomes").at("constraints")[0].at("sense"), "<=");
  // JSON has no infinity: infinite reals are strings.
  EXPECT_EQ(written.at("fit").at("kernel_priors")[1].at("stddev_log"), "inf");
  // The process's own settings are not the study's.
  for (const char* key : {"log_path", "storage", "study", "worker"})
    EXPECT_FALSE(written.contains(key)) << key;
}

TEST(OptimizerOptionsJsonTest, AMissingFieldIsNamedByItsPath) {
  const json written = OptimizerOptionsToJson(OptimizerOptions());
  for (const char* path :
       {"/seed", "/fit/max_seconds", "/local_model/trust_box_scale", "/fit/noise_prior/mean_log",
        "/refit/every", "/outcomes/feasibility_confidence"}) {
    json missing = written;
    const json::json_pointer pointer(path);
    missing[pointer.parent_pointer()].erase(pointer.back());
    std::string dotted = "options" + std::string(path);
    for (char& c : dotted) c = c == '/' ? '.' : c;
    EXPECT_EQ(JsonErrorOf(missing), dotted + " is missing");
  }
}

TEST(OptimizerOptionsJsonTest, UnknownKeysAreRefusedWithTheValidOnes) {
  json top = OptimizerOptionsToJson(OptimizerOptions());
  top["maximizer_startz"] = 2;
  EXPECT_THAT(JsonErrorOf(top),
              HasSubstr("options: unknown key 'maximizer_startz'; valid keys: seed"));
  json nested = OptimizerOptionsToJson(OptimizerOptions());
  nested["local_model"]["radius"] = 0.5;
  EXPECT_THAT(JsonErrorOf(nested), HasSubstr("options.local_model: unknown key 'radius'"));
  EXPECT_THAT(JsonErrorOf(nested), HasSubstr("trust_box_scale"));
}

TEST(OptimizerOptionsJsonTest, MalformedOutcomesAreRefusedNamingTheEntry) {
  json written = OptimizerOptionsToJson(Unusual());
  json bad_sense = written;
  bad_sense["outcomes"]["constraints"][1]["sense"] = "=<";
  EXPECT_THAT(JsonErrorOf(bad_sense),
              HasSubstr("options.outcomes.constraints[1].sense \"=<\" is not"));
  json bad_name = written;
  bad_name["outcomes"]["objectives"][0]["name"] = "it ae";
  EXPECT_THAT(JsonErrorOf(bad_name), HasSubstr("outcomes.objectives[0].name = 'it ae'"));
  json not_array = written;
  not_array["outcomes"]["objectives"] = "itae";
  EXPECT_THAT(JsonErrorOf(not_array),
              HasSubstr("options.outcomes.objectives = \"itae\": expected an array"));
  json extra = written;
  extra["outcomes"]["objectives"][1]["weight"] = 2;
  EXPECT_THAT(JsonErrorOf(extra),
              HasSubstr("options.outcomes.objectives[1]: unknown key 'weight'"));
}

TEST(OptimizerOptionsJsonTest, WrongTypesAreRefusedNamingFieldAndValue) {
  const json written = OptimizerOptionsToJson(OptimizerOptions());
  const struct {
    const char* path;
    json value;
    const char* error;
  } cases[] = {
      {"/maximizer_starts", 2.5,
       "options.maximizer_starts = 2.5: expected an integer in [-2147483648, 2147483647]"},
      {"/maximizer_starts", "2", "options.maximizer_starts = \"2\": expected an integer"},
      {"/sync_log", 1, "options.sync_log = 1: expected true or false"},
      {"/seed", -1, "options.seed = -1: expected an integer in [0, 2^64)"},
      {"/gp/noise_variance", "small",
       "options.gp.noise_variance = \"small\": expected a number, \"inf\" or \"-inf\""},
      {"/fit/lower_log_bounds", json::array({1, "x"}), "options.fit.lower_log_bounds = \"x\""},
      {"/refit", 3, "options.refit = 3: expected a JSON object"},
      {"/sense", "up", "options.sense \"up\" is not maximize or minimize"},
      {"/maximizer_integer_search", "round",
       "options.maximizer_integer_search \"round\" is not relax-then-search, local-search or "
       "relax-and-round"},
  };
  for (const auto& c : cases) {
    json bad = written;
    bad[json::json_pointer(c.path)] = c.value;
    EXPECT_THAT(JsonErrorOf(bad), HasSubstr(c.error)) << c.path;
  }
}

TEST(OptimizerOptionsJsonTest, OutOfRangeValuesAreRefusedNamingFieldAndValue) {
  const json written = OptimizerOptionsToJson(OptimizerOptions());
  const struct {
    const char* path;
    json value;
    const char* error;
  } cases[] = {
      {"/maximizer_starts", 0, "options.maximizer_starts must be >= 1, got 0"},
      {"/fit_max_observations", -3, "options.fit_max_observations must be >= 1, got -3"},
      {"/local_model/trust_box_scale", 1.5,
       "options.local_model.trust_box_scale must be in (0, 1], got 1.5"},
      {"/maximizer_function_tolerance", "inf",
       "options.maximizer_function_tolerance must be "
       "finite and > 0, got inf"},
  };
  for (const auto& c : cases) {
    json bad = written;
    bad[json::json_pointer(c.path)] = c.value;
    EXPECT_EQ(JsonErrorOf(bad), c.error) << c.path;
  }
}

}  // namespace
}  // namespace internal
}  // namespace gpbandit
