#include "gpbandit/study/log_header.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "gpbandit/space/parameter_space.h"

namespace gpbandit {
namespace {

// The header as format version 1 wrote it: version 1, and the flat strategy options of the
// version-1 fixture (tests/optimizer/fixtures/v1_box_gp_ucb.jsonl, written by the code of that
// format).
std::string AsVersion1(const std::string& header) {
  const std::string here = __FILE__;
  const std::string tests = here.substr(0, here.find_last_of('/')) + "/..";
  std::ifstream fixture(tests + "/optimizer/fixtures/v1_box_gp_ucb.jsonl");
  std::string v1_line;
  if (!std::getline(fixture, v1_line)) throw std::runtime_error("no version-1 fixture");
  nlohmann::json j = nlohmann::json::parse(header);
  j["version"] = 1;
  j["strategy_options"] = nlohmann::json::parse(v1_line).at("strategy_options");
  return j.dump();
}

// A resumed run must draw its fit restarts from the same ranges as the run that wrote the log,
// so every start_* field survives a header round trip (values unlike the defaults, so a field
// that is dropped comes back as its default and the check fails).
TEST(LogHeaderTest, FitStartRangesSurviveARoundTrip) {
  LogHeader h;
  h.strategy = "gp-ucb";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  HyperparameterFitOptions& f = h.options.fit;
  f.start_min_lengthscale = 0.011;
  f.start_max_lengthscale = 7.5;
  f.start_min_signal_variance = 0.02;
  f.start_max_signal_variance = 33.0;
  f.start_min_noise_variance = 3e-7;
  f.start_max_noise_variance = 0.05;
  const LogHeader back = ParseLogHeader(FormatLogHeader(h));
  const HyperparameterFitOptions& g = back.options.fit;
  EXPECT_EQ(g.start_min_lengthscale, 0.011);
  EXPECT_EQ(g.start_max_lengthscale, 7.5);
  EXPECT_EQ(g.start_min_signal_variance, 0.02);
  EXPECT_EQ(g.start_max_signal_variance, 33.0);
  EXPECT_EQ(g.start_min_noise_variance, 3e-7);
  EXPECT_EQ(g.start_max_noise_variance, 0.05);
}

TEST(LogHeaderTest, RawSampleDesignSurvivesARoundTripAndOldLogsUsedTheLatinHypercube) {
  LogHeader h;
  h.strategy = "ei";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  h.options.maximizer_raw_sample_design = RawSampleDesign::kSobol;
  const std::string text = FormatLogHeader(h);
  EXPECT_EQ(ParseLogHeader(text).options.maximizer_raw_sample_design, RawSampleDesign::kSobol);
  nlohmann::json v2 = nlohmann::json::parse(text);
  v2["version"] = 2;
  v2["options"].erase("maximizer_raw_sample_design");
  EXPECT_EQ(ParseLogHeader(v2.dump()).options.maximizer_raw_sample_design,
            RawSampleDesign::kLatinHypercube);
}

// Logs written before the start ranges were saved still parse, with the default ranges.
TEST(LogHeaderTest, HeadersWithoutStartRangesGetTheDefaults) {
  LogHeader h;
  h.strategy = "gp-ucb";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  h.options.fit.start_max_lengthscale = 9.0;
  std::string text = AsVersion1(FormatLogHeader(h));
  const std::string key = "\"start_max_lengthscale\":9.0,";
  const std::size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text;
  text.erase(at, key.size());
  const LogHeader back = ParseLogHeader(text);
  EXPECT_EQ(back.options.fit.start_max_lengthscale,
            HyperparameterFitOptions().start_max_lengthscale);
}

// The maximizer's observed starts and tolerance and the fit's restart cut-off shape every
// suggestion, so a resumed run must read them back; logs from before the fields existed get the
// behavior those runs had (the best 3 observed points as starts, the box maximizer's tolerance
// 1e-10, restarts at every fit).
TEST(LogHeaderTest, SearchSettingsSurviveARoundTripAndOldLogsKeepTheirBehavior) {
  LogHeader h;
  h.strategy = "gp-ucb";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  h.options.maximizer_observed_starts = 5;
  h.options.fit_restarts_until = 17;
  h.options.maximizer_function_tolerance = 0.1 + 0.2;  // not exact in decimal: round-trip test
  const LogHeader back = ParseLogHeader(FormatLogHeader(h));
  EXPECT_EQ(back.options.maximizer_observed_starts, 5);
  EXPECT_EQ(back.options.fit_restarts_until, 17);
  EXPECT_EQ(back.options.maximizer_function_tolerance, 0.1 + 0.2);

  std::string text = AsVersion1(FormatLogHeader(h));
  for (const std::string key : {"\"maximizer_observed_starts\":5,", "\"fit_restarts_until\":17,",
                                "\"maximizer_function_tolerance\":0.30000000000000004,"}) {
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key << " in " << text;
    text.erase(at, key.size());
  }
  const LogHeader old = ParseLogHeader(text);
  EXPECT_EQ(old.options.maximizer_observed_starts, 3);
  EXPECT_EQ(old.options.fit_restarts_until, std::numeric_limits<int>::max());
  EXPECT_EQ(old.options.maximizer_function_tolerance, 1e-10);
}

// Every non-finite reward policy survives a round trip; an unknown name is refused by name.
TEST(LogHeaderTest, NonFiniteRewardPoliciesSurviveARoundTrip) {
  LogHeader h;
  h.strategy = "gp-ucb";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  for (NonFiniteRewardPolicy p : {NonFiniteRewardPolicy::kThrow, NonFiniteRewardPolicy::kSkip,
                                  NonFiniteRewardPolicy::kImputeWorst}) {
    h.options.non_finite_rewards = p;
    EXPECT_EQ(ParseLogHeader(FormatLogHeader(h)).options.non_finite_rewards, p);
  }
  std::string text = FormatLogHeader(h);
  const std::string key = "\"impute-worst\"";
  const std::size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, key.size(), "\"ignore\"");
  try {
    ParseLogHeader(text);
    ADD_FAILURE() << "an unknown policy was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("\"ignore\" is not throw, skip or impute-worst"),
              std::string::npos)
        << e.what();
  }
}

// The current version holds every field: a missing one is a corrupt header (named), not a
// default.
TEST(LogHeaderTest, CurrentVersionNeedsEveryFieldAndUnknownVersionsAreRefused) {
  LogHeader h;
  h.strategy = "gp-ucb";
  h.strategy_options = StrategyParams(R"({"beta_scale": 0.2})");
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  const std::string text = FormatLogHeader(h);
  const std::string version = "\"version\":" + std::to_string(kLogFormatVersion);
  EXPECT_NE(text.find(version), std::string::npos) << text;
  const LogHeader back = ParseLogHeader(text);
  EXPECT_EQ(back.format_version, kLogFormatVersion);
  EXPECT_EQ(back.strategy_options, h.strategy_options);
  for (const std::string key : {"\"fit_restarts_until\":50,", "\"start_min_lengthscale\":0.03,"}) {
    std::string missing = text;
    const std::size_t at = missing.find(key);
    ASSERT_NE(at, std::string::npos) << key << " in " << text;
    missing.erase(at, key.size());
    try {
      ParseLogHeader(missing);
      ADD_FAILURE() << "parsed without " << key;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(key.substr(1, key.find(':') - 2)), std::string::npos)
          << e.what();
    }
  }
  std::string future = text;
  const std::string next = std::to_string(kLogFormatVersion + 1);
  future.replace(future.find(version), version.size(), "\"version\":" + next);
  try {
    ParseLogHeader(future);
    ADD_FAILURE() << "parsed version " << next;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported version " + next), std::string::npos)
        << e.what();
  }
  // A version-4 header (before trial numbers and parameter spaces) means the same now.
  std::string v4 = text;
  v4.replace(v4.find(version), version.size(), "\"version\":4");
  const LogHeader old = ParseLogHeader(v4);
  EXPECT_EQ(old.format_version, 4);
  EXPECT_EQ(FormatLogHeader(old), text);
}

// A header of `strategy` with `options`, written as `version` and read back.
LogHeader HeaderAtVersion(int version, const std::string& strategy, const std::string& options) {
  LogHeader h;
  h.strategy = strategy;
  h.strategy_options = StrategyParams(options);
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  nlohmann::json j = nlohmann::json::parse(FormatLogHeader(h));
  j["version"] = version;
  return ParseLogHeader(j.dump());
}

// Version 5 gave PI a default margin (relative_xi 0.01): an older PI header without the key ran
// with none and keeps none; one that has it, and other strategies, are left alone.
TEST(LogHeaderTest, Version4PiHeadersKeepNoMargin) {
  const LogHeader pi =
      HeaderAtVersion(4, "pi", R"({"xi": 0.5, "incumbent_rule": "posterior-mean"})");
  EXPECT_EQ(pi.format_version, 4);
  EXPECT_EQ(pi.strategy_options,
            StrategyParams(R"({"xi": 0.5, "incumbent_rule": "posterior-mean", "relative_xi": 0,
                               "relative_xi_per_dim": 0})"));
  EXPECT_EQ(HeaderAtVersion(4, "pi", R"({"relative_xi": 0.2})").strategy_options,
            StrategyParams(R"({"relative_xi": 0.2, "relative_xi_per_dim": 0})"));
  EXPECT_EQ(HeaderAtVersion(4, "ei", R"({"xi": 0})").strategy_options,
            StrategyParams(R"({"xi": 0})"));
}

// Version 9 gave PI a margin per action dimension by default: a version-8 (or older) PI header
// without the key ran with none and keeps none (its relative_xi as written); one that has it, the
// other improvement strategies, whose default is 0, and version-9 headers are left alone.
TEST(LogHeaderTest, Version8PiHeadersKeepTheirMargin) {
  for (int version : {5, 8}) {
    const LogHeader pi = HeaderAtVersion(version, "pi", R"({"xi": 0, "relative_xi": 0.01})");
    EXPECT_EQ(pi.format_version, version);
    EXPECT_EQ(pi.strategy_options,
              StrategyParams(R"({"xi": 0, "relative_xi": 0.01, "relative_xi_per_dim": 0})"));
  }
  EXPECT_EQ(HeaderAtVersion(4, "pi", R"({"xi": 0.5})").strategy_options,
            StrategyParams(R"({"xi": 0.5, "relative_xi": 0, "relative_xi_per_dim": 0})"));
  EXPECT_EQ(HeaderAtVersion(8, "pi", R"({"relative_xi_per_dim": 0.2})").strategy_options,
            StrategyParams(R"({"relative_xi_per_dim": 0.2})"));
  EXPECT_EQ(HeaderAtVersion(8, "ei", R"({"xi": 0})").strategy_options,
            StrategyParams(R"({"xi": 0})"));
  EXPECT_EQ(HeaderAtVersion(kLogFormatVersion, "pi", "{}").strategy_options, StrategyParams("{}"));
}

// Versions outside 1 .. kLogFormatVersion are refused with the range this code reads.
TEST(LogHeaderTest, UnknownVersionsAreRefused) {
  for (int version : {0, -1, kLogFormatVersion + 1}) {
    try {
      HeaderAtVersion(version, "gp-ucb", "{}");
      ADD_FAILURE() << "accepted version " << version;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("unsupported version " + std::to_string(version)),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("versions 1 to " + std::to_string(kLogFormatVersion)),
                std::string::npos)
          << e.what();
    }
  }
}

// Version 7 made r-gp-ucb restart on its residual test by default: a version-6 r-gp-ucb header
// without "restart" ran with fixed epochs and keeps them; one that names a rule, and other
// strategies, are left alone.
TEST(LogHeaderTest, Version6RGpUcbHeadersKeepTheFixedEpochs) {
  const LogHeader r = HeaderAtVersion(6, "r-gp-ucb", R"({"reset_period": 75})");
  EXPECT_EQ(r.format_version, 6);
  EXPECT_EQ(r.strategy_options, StrategyParams(R"({"reset_period": 75, "restart": "epochs"})"));
  EXPECT_EQ(HeaderAtVersion(6, "r-gp-ucb", "{}").strategy_options,
            StrategyParams(R"({"restart": "epochs"})"));
  EXPECT_EQ(HeaderAtVersion(6, "r-gp-ucb", R"({"restart": "residuals"})").strategy_options,
            StrategyParams(R"({"restart": "residuals"})"));
  EXPECT_EQ(HeaderAtVersion(6, "gp-ucb", "{}").strategy_options, StrategyParams("{}"));
}

// tv-gp-ucb's variance caps and prior mean (tv_gp_ucb.h) came without a format version: a
// header that lacks them ran with the whole posterior variance, c = c_s = 1, and the sample
// mean; one that names them keeps their values.
TEST(LogHeaderTest, TvGpUcbHeadersWithoutTheVarianceCapKeepTheWholeVariance) {
  EXPECT_EQ(HeaderAtVersion(9, "tv-gp-ucb", R"({"epsilon": 0.02})").strategy_options,
            StrategyParams(R"({"epsilon": 0.02, "variance_cap": 1.0, "prior_mean": "sample-mean",
                          "settled_variance_cap": 1.0})"));
  EXPECT_EQ(HeaderAtVersion(9, "tv-gp-ucb", R"({"variance_cap": 0.5, "prior_mean": "gls"})")
                .strategy_options,
            StrategyParams(R"({"variance_cap": 0.5, "prior_mean": "gls",
                               "settled_variance_cap": 1.0})"));
  EXPECT_EQ(HeaderAtVersion(9, "tv-gp-ucb", R"({"settled_variance_cap": 0.1})").strategy_options,
            StrategyParams(R"({"settled_variance_cap": 0.1, "variance_cap": 1.0,
                               "prior_mean": "sample-mean"})"));
  EXPECT_EQ(HeaderAtVersion(9, "r-gp-ucb", R"({"restart": "residuals"})").strategy_options,
            StrategyParams(R"({"restart": "residuals"})"));
}

// The GP's prior mean (gp/prior_mean_estimate.h) came without a format version: options that
// lack it ran with the sample mean.
TEST(LogHeaderTest, HeadersWithoutTheGpPriorMeanUseTheSampleMean) {
  LogHeader h;
  h.strategy = "gp-ucb";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  h.options.gp.prior_mean = PriorMeanEstimate::kGeneralizedLeastSquares;
  nlohmann::json j = nlohmann::json::parse(FormatLogHeader(h));
  EXPECT_EQ(j["options"]["gp"]["prior_mean"], "gls");
  EXPECT_EQ(ParseLogHeader(j.dump()).options.gp.prior_mean,
            PriorMeanEstimate::kGeneralizedLeastSquares);
  j["options"]["gp"].erase("prior_mean");
  EXPECT_EQ(ParseLogHeader(j.dump()).options.gp.prior_mean, PriorMeanEstimate::kSampleMean);
  j["options"]["gp"]["prior_mean"] = "median";
  try {
    ParseLogHeader(j.dump());
    ADD_FAILURE() << "an unknown prior mean was accepted";
  } catch (const std::exception& e) {
    EXPECT_THAT(e.what(),
                ::testing::HasSubstr("gp.prior_mean \"median\" is not sample-mean or gls"));
  }
}

// Version 6 added parameter spaces and the optimizer's maximizer_integer_search: a version-5
// header, written without it, reads with the default (it had no integers to search).
TEST(LogHeaderTest, Version5HeadersReadWithoutTheIntegerSearch) {
  LogHeader h;
  h.strategy = "ei";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  h.options.maximizer_integer_search = IntegerSearch::kRelaxAndRound;
  ASSERT_NE(h.options.maximizer_integer_search, OptimizerOptions().maximizer_integer_search);
  std::string text = FormatLogHeader(h);
  const std::string field = "\"maximizer_integer_search\":\"relax-and-round\",";
  ASSERT_NE(text.find(field), std::string::npos) << text;
  text.erase(text.find(field), field.size());
  const std::string current = "\"version\":" + std::to_string(kLogFormatVersion);
  text.replace(text.find(current), current.size(), "\"version\":5");
  const LogHeader back = ParseLogHeader(text);
  EXPECT_EQ(back.format_version, 5);
  EXPECT_EQ(back.options.maximizer_integer_search, OptimizerOptions().maximizer_integer_search);
  EXPECT_EQ(back.domain, h.domain);
}

// A parameter space's header round-trips: its parameters, and contexts that are a space.
TEST(LogHeaderTest, ParameterSpacesRoundTrip) {
  LogHeader h;
  h.strategy = "ei";
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  h.domain = Domain::Space(ParameterSpace({Parameter::Real("kp", 0.1, 100, ParameterScale::kLog),
                                           Parameter::Integer("taps", 1, 12),
                                           Parameter::Categorical("mode", {"pid", "lead-lag"})}))
                 .WithContext(ParameterSpace({Parameter::Categorical("terrain", {"a", "b"})}));
  const LogHeader back = ParseLogHeader(FormatLogHeader(h));
  EXPECT_EQ(back.domain, h.domain);
  EXPECT_EQ(back.domain.Describe(), h.domain.Describe());
}

// Version 2 wrote GP-UCB's "auto" when it meant Theorem 2's compact-set schedule on a box: the
// rewrite keeps that schedule there, and leaves finite sets (where "auto" still means "finite"),
// other strategies and explicit schedules alone.
TEST(LogHeaderTest, Version2AutoScheduleOnABoxStaysCompact) {
  auto as_version2 = [](const std::string& strategy, const Domain& domain,
                        const std::string& options) {
    LogHeader h;
    h.domain = domain;
    h.strategy = strategy;
    h.strategy_options = StrategyParams(options);
    h.kernel_description = "k";
    h.kernel_log_params = Eigen::VectorXd::Zero(2);
    nlohmann::json j = nlohmann::json::parse(FormatLogHeader(h));
    j["version"] = 2;
    return ParseLogHeader(j.dump());
  };
  const Domain box = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1));
  const Domain finite = Domain::FiniteSet(Eigen::MatrixXd::Identity(2, 3));
  const LogHeader ucb = as_version2("gp-ucb", box, R"({"beta_schedule": "auto", "delta": 0.05})");
  EXPECT_EQ(ucb.format_version, 2);
  EXPECT_EQ(ucb.strategy_options, StrategyParams(R"({"beta_schedule": "compact", "delta": 0.05})"));
  EXPECT_EQ(as_version2("cgp-ucb", box, R"({"beta_schedule": "auto"})").strategy_options,
            StrategyParams(R"({"beta_schedule": "compact"})"));
  EXPECT_EQ(as_version2("gp-ucb", finite, R"({"beta_schedule": "auto"})").strategy_options,
            StrategyParams(R"({"beta_schedule": "auto"})"));
  EXPECT_EQ(as_version2("gp-ucb", box, R"({"beta_schedule": "rkhs"})").strategy_options,
            StrategyParams(R"({"beta_schedule": "rkhs"})"));
  EXPECT_EQ(as_version2("ei", box, R"({"xi": 0.1})").strategy_options,
            StrategyParams(R"({"xi": 0.1})"));
}

// Version 5 models safe-opt's safety signals in their own units by default: a version-4 (or
// older) safe-opt header is rewritten to the models it ran with, "calibrated": false; other
// strategies and version-5 headers are left alone.
TEST(LogHeaderTest, Version4SafeOptKeepsTheModelsItRanWith) {
  const std::string safe = R"({"threshold": 0, "seeds": [[0.5]]})";
  for (int version : {3, 4}) {
    const LogHeader old = HeaderAtVersion(version, "safe-opt", safe);
    EXPECT_EQ(old.format_version, version);
    EXPECT_EQ(old.strategy_options,
              StrategyParams(R"({"threshold": 0, "seeds": [[0.5]], "calibrated": false,
                                 "rule": "safeopt"})"));
  }
  EXPECT_EQ(HeaderAtVersion(4, "gp-ucb", R"({"beta_scale": 0.2})").strategy_options,
            StrategyParams(R"({"beta_scale": 0.2})"));
}

// Version 7 lets refits lengthen the context lengthscales of safe-opt's signal models: a
// version-5 or 6 safe-opt header gets every signal model's cap 0 (the lengthscales it ran with),
// one entry per signal when it gave none; the raw models (calibrated false), other strategies
// and version-7 headers are left alone (version 8's floor is switched off too: next test).
TEST(LogHeaderTest, Version6SafeOptKeepsItsContextLengthscales) {
  const std::string safe = R"({"threshold": 0, "seeds": [[0.5]], "constraint_thresholds": [1, 2]})";
  for (int version : {5, 6}) {
    const LogHeader old = HeaderAtVersion(version, "safe-opt", safe);
    EXPECT_EQ(old.format_version, version);
    EXPECT_EQ(old.strategy_options,
              StrategyParams(R"({"threshold": 0, "seeds": [[0.5]], "constraint_thresholds": [1, 2],
                                 "signal_models": [
                                   {"context_lengthscale_cap": 0, "stddev_covers_measured": false},
                                   {"context_lengthscale_cap": 0, "stddev_covers_measured": false},
                                   {"context_lengthscale_cap": 0,
                                    "stddev_covers_measured": false}]})"));
  }
  EXPECT_EQ(HeaderAtVersion(6, "safe-opt",
                            R"({"seeds": [[0.5]], "signal_models": [{"lengthscales": [0.2]}]})")
                .strategy_options,
            StrategyParams(R"({"seeds": [[0.5]],
                               "signal_models": [{"lengthscales": [0.2],
                                                  "context_lengthscale_cap": 0,
                                                  "stddev_covers_measured": false}]})"));
  const std::string raw = R"({"threshold": 0, "seeds": [[0.5]], "calibrated": false})";
  EXPECT_EQ(HeaderAtVersion(6, "safe-opt", raw).strategy_options, StrategyParams(raw));
  EXPECT_EQ(HeaderAtVersion(kLogFormatVersion, "safe-opt", safe).strategy_options,
            StrategyParams(safe));
  EXPECT_EQ(HeaderAtVersion(6, "gp-ucb", R"({"beta_scale": 0.2})").strategy_options,
            StrategyParams(R"({"beta_scale": 0.2})"));
}

// Version 8 keeps a safe-opt signal model's prior standard deviation at least the largest
// distance measured: a version-7 calibrated safe-opt header gets stddev_covers_measured false in
// every signal model (one entry per signal when it gave none), keeping what it gave; the raw
// models, other strategies and version-8 headers are left alone.
TEST(LogHeaderTest, Version7SafeOptKeepsItsStddevFloor) {
  const std::string safe = R"({"threshold": 0, "seeds": [[0.5]], "constraint_thresholds": [1]})";
  const LogHeader old = HeaderAtVersion(7, "safe-opt", safe);
  EXPECT_EQ(old.format_version, 7);
  EXPECT_EQ(old.strategy_options,
            StrategyParams(R"({"threshold": 0, "seeds": [[0.5]], "constraint_thresholds": [1],
                               "signal_models": [{"stddev_covers_measured": false},
                                                 {"stddev_covers_measured": false}]})"));
  EXPECT_EQ(
      HeaderAtVersion(7, "safe-opt", R"({"seeds": [[0.5]], "signal_models": [{"stddev": 2}]})")
          .strategy_options,
      StrategyParams(R"({"seeds": [[0.5]],
          "signal_models": [{"stddev": 2, "stddev_covers_measured": false}]})"));
  const std::string raw = R"({"threshold": 0, "seeds": [[0.5]], "calibrated": false})";
  EXPECT_EQ(HeaderAtVersion(7, "safe-opt", raw).strategy_options, StrategyParams(raw));
  EXPECT_EQ(HeaderAtVersion(8, "safe-opt", safe).strategy_options, StrategyParams(safe));
  EXPECT_EQ(HeaderAtVersion(7, "gp-ucb", R"({"beta_scale": 0.2})").strategy_options,
            StrategyParams(R"({"beta_scale": 0.2})"));
}

}  // namespace
}  // namespace gpbandit
