#include "gpbandit/study/optimizer_options.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kInf;
using testing::kNaN;

// The error IsValid reports for the options that `change` makes of the defaults ("" if valid).
template <typename Options>
std::string ErrorOf(const std::function<void(Options&)>& change) {
  Options options;
  change(options);
  std::string error;
  if (options.IsValid(&error)) return "";
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(options.IsValid(nullptr));  // no error string needed
  return error;
}

std::string OptimizerError(const std::function<void(OptimizerOptions&)>& change) {
  return ErrorOf<OptimizerOptions>(change);
}
std::string WorkerError(const std::function<void(WorkerOptions&)>& change) {
  return ErrorOf<WorkerOptions>(change);
}
std::string LocalError(const std::function<void(LocalModelOptions&)>& change) {
  return ErrorOf<LocalModelOptions>(change);
}

TEST(ObjectiveSenseName, NamesBothSenses) {
  EXPECT_EQ(ObjectiveSenseName(ObjectiveSense::kMaximize), "maximize");
  EXPECT_EQ(ObjectiveSenseName(ObjectiveSense::kMinimize), "minimize");
}

TEST(DefaultOptimizerFitOptions, ChangesOnlyTheFourDocumentedFields) {
  const HyperparameterFitOptions fit = DefaultOptimizerFitOptions();
  EXPECT_EQ(fit.num_restarts, 1);
  EXPECT_EQ(fit.max_iterations, 50);
  EXPECT_EQ(fit.function_tolerance, 1e-4);
  EXPECT_EQ(fit.min_noise_variance, 1e-10);
  const HyperparameterFitOptions plain;
  EXPECT_EQ(fit.gradient_tolerance, plain.gradient_tolerance);
  EXPECT_EQ(fit.num_threads, plain.num_threads);
  EXPECT_EQ(fit.kernel_priors.size(), plain.kernel_priors.size());
  EXPECT_EQ(fit.lower_log_bounds, plain.lower_log_bounds);
  EXPECT_EQ(fit.upper_log_bounds, plain.upper_log_bounds);
  EXPECT_TRUE(fit.IsValid(nullptr));
}

TEST(OptimizerOptions, DefaultsAreTheDocumentedOnesAndValid) {
  const OptimizerOptions o;
  EXPECT_EQ(o.seed, 0u);
  EXPECT_EQ(o.initial_design_size, -1);
  EXPECT_TRUE(o.refit.enabled);
  EXPECT_EQ(o.fit.num_restarts, 1);
  EXPECT_EQ(o.fit_restarts_until, 50);
  EXPECT_EQ(o.fit_max_observations, 500);
  EXPECT_EQ(o.non_finite_rewards, NonFiniteRewardPolicy::kThrow);
  EXPECT_EQ(o.sense, ObjectiveSense::kMaximize);
  EXPECT_EQ(o.maximizer_raw_samples, 32);
  EXPECT_EQ(o.maximizer_raw_sample_design, RawSampleDesign::kLatinHypercube);
  EXPECT_EQ(o.maximizer_starts, 2);
  EXPECT_EQ(o.maximizer_observed_starts, 1);
  EXPECT_EQ(o.maximizer_iterations, 50);
  EXPECT_EQ(o.maximizer_function_tolerance, 1e-6);
  EXPECT_EQ(o.maximizer_integer_search, IntegerSearch::kRelaxThenSearch);
  EXPECT_EQ(o.num_threads, 0);
  EXPECT_TRUE(o.finite_set_rank_one_updates);
  EXPECT_TRUE(o.log_path.empty());
  EXPECT_TRUE(o.storage.empty());
  EXPECT_TRUE(o.study.empty());
  EXPECT_TRUE(o.sync_log);
  std::string error = "untouched";
  EXPECT_TRUE(o.IsValid(&error));
  EXPECT_EQ(error, "untouched");
}

TEST(WorkerOptions, DefaultsAreTheDocumentedOnes) {
  const WorkerOptions w;
  EXPECT_EQ(w.pending_lease_seconds, 3600.0);
  EXPECT_TRUE(w.id.empty());
  EXPECT_EQ(w.reconnect_timeout_seconds, 300.0);
  EXPECT_EQ(w.lock_lease_seconds, 10.0);
  EXPECT_TRUE(w.asks_outside_lock);
  EXPECT_EQ(w.ask_tolerance, 0.05);
  EXPECT_TRUE(w.IsValid(nullptr));
}

TEST(WorkerOptions, NamesEachBadFieldAndItsValue) {
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.pending_lease_seconds = 0; }),
            "pending_lease_seconds must be > 0 (or infinity), got 0");
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.pending_lease_seconds = kNaN; }),
            "pending_lease_seconds must be > 0 (or infinity), got nan");
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.reconnect_timeout_seconds = -1; }),
            "reconnect_timeout_seconds must be finite and >= 0, got -1");
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.reconnect_timeout_seconds = kInf; }),
            "reconnect_timeout_seconds must be finite and >= 0, got inf");
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.lock_lease_seconds = -0.5; }),
            "lock_lease_seconds must be > 0 (or infinity), got -0.5");
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.ask_tolerance = 1.5; }),
            "ask_tolerance must be in [0, 1], got 1.5");
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.ask_tolerance = -0.01; }),
            "ask_tolerance must be in [0, 1], got -0.01");
}

TEST(WorkerOptions, AcceptsTheEdgesOfItsRanges) {
  EXPECT_EQ(WorkerError([](WorkerOptions& w) {
              w.pending_lease_seconds = kInf;
              w.lock_lease_seconds = kInf;
              w.reconnect_timeout_seconds = 0;
              w.ask_tolerance = 0;
            }),
            "");
  EXPECT_EQ(WorkerError([](WorkerOptions& w) { w.ask_tolerance = 1; }), "");
}

TEST(LocalModelOptions, DefaultsAreTheDocumentedOnes) {
  const LocalModelOptions l;
  EXPECT_EQ(l.exact_until, 1000);
  EXPECT_EQ(l.size, 500);
  EXPECT_EQ(l.regions, 3);
  EXPECT_EQ(l.anchor, LocalAnchor::kHighestOutput);
  EXPECT_EQ(l.trust_box_scale, 0.7);
  EXPECT_TRUE(l.IsValid(nullptr));
}

TEST(LocalModelOptions, NamesEachBadFieldAndItsValue) {
  EXPECT_EQ(LocalError([](LocalModelOptions& l) { l.exact_until = 0; }),
            "exact_until must be >= 1, got 0");
  EXPECT_EQ(LocalError([](LocalModelOptions& l) { l.size = -2; }), "size must be >= 1, got -2");
  EXPECT_EQ(LocalError([](LocalModelOptions& l) { l.regions = 0; }),
            "regions must be in [1, size = 500], got 0");
  EXPECT_EQ(LocalError([](LocalModelOptions& l) {
              l.size = 4;
              l.regions = 5;
            }),
            "regions must be in [1, size = 4], got 5");
  EXPECT_EQ(LocalError([](LocalModelOptions& l) { l.anchor = static_cast<LocalAnchor>(7); }),
            "anchor must be kHighestOutput or kHighestMean, got 7");
  EXPECT_EQ(LocalError([](LocalModelOptions& l) { l.trust_box_scale = 0; }),
            "trust_box_scale must be in (0, 1], got 0");
  EXPECT_EQ(LocalError([](LocalModelOptions& l) { l.trust_box_scale = 1.25; }),
            "trust_box_scale must be in (0, 1], got 1.25");
}

TEST(LocalModelOptions, AcceptsTheEdgesOfItsRanges) {
  EXPECT_EQ(LocalError([](LocalModelOptions& l) {
              l.exact_until = std::numeric_limits<int>::max();
              l.size = 1;
              l.regions = 1;
              l.trust_box_scale = 1;
              l.anchor = LocalAnchor::kHighestMean;
            }),
            "");
}

TEST(OptimizerOptions, NamesEachBadFieldAndItsValue) {
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.initial_design_size = -2; }),
            "initial_design_size must be >= -1, got -2");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.maximizer_raw_samples = 0; }),
            "maximizer_raw_samples must be >= 1, got 0");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.maximizer_starts = 0; }),
            "maximizer_starts must be >= 1, got 0");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.fit_restarts_until = -1; }),
            "fit_restarts_until must be >= 0, got -1");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.fit_max_observations = 0; }),
            "fit_max_observations must be >= 1, got 0");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.maximizer_observed_starts = -1; }),
            "maximizer_observed_starts must be >= 0, got -1");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.maximizer_iterations = 0; }),
            "maximizer_iterations must be >= 1, got 0");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.maximizer_function_tolerance = 0; }),
            "maximizer_function_tolerance must be finite and > 0, got 0");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.maximizer_function_tolerance = kInf; }),
            "maximizer_function_tolerance must be finite and > 0, got inf");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.sense = static_cast<ObjectiveSense>(2); }),
            "sense must be kMaximize or kMinimize, got 2");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.num_threads = -1; }),
            "num_threads must be >= 0, got -1");
}

TEST(OptimizerOptions, AcceptsTheEdgesOfItsRanges) {
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) {
              o.initial_design_size = 0;
              o.maximizer_observed_starts = 0;
              o.fit_restarts_until = 0;
              o.maximizer_raw_samples = 1;
              o.maximizer_starts = 1;
              o.maximizer_iterations = 1;
              o.fit_max_observations = 1;
              o.num_threads = 64;
              o.sense = ObjectiveSense::kMinimize;
            }),
            "");
}

TEST(OptimizerOptions, RefusesBothALogPathAndAStorageWithoutShowingAPassword) {
  const std::string error = OptimizerError([](OptimizerOptions& o) {
    o.log_path = "runs.jsonl";
    o.storage = "postgresql://alice:s3cret@db.example/bandits";
  });
  EXPECT_NE(error.find("log_path 'runs.jsonl'"), std::string::npos) << error;
  EXPECT_NE(error.find("are both given; give one"), std::string::npos) << error;
  EXPECT_NE(error.find("db.example"), std::string::npos) << error;
  EXPECT_EQ(error.find("s3cret"), std::string::npos) << error;
}

TEST(OptimizerOptions, RefusesAStudyWithoutAStorage) {
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.study = "runs"; }),
            "study 'runs' is given without a storage");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) {
              o.study = "runs";
              o.storage = "/tmp/studies/";
            }),
            "");
}

TEST(OptimizerOptions, PrefixesTheErrorsOfItsMembers) {
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.worker.lock_lease_seconds = 0; }),
            "worker.lock_lease_seconds must be > 0 (or infinity), got 0");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.gp.noise_variance = -1; }),
            "gp.noise_variance must be finite and >= 0, got -1");
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) { o.local_model.size = 0; }),
            "local_model.size must be >= 1, got 0");
  const std::string fit = OptimizerError([](OptimizerOptions& o) { o.fit.num_restarts = -1; });
  EXPECT_EQ(fit.rfind("fit.", 0), 0u) << fit;
  EXPECT_NE(fit.find("num_restarts"), std::string::npos) << fit;
  EXPECT_NE(fit.find("-1"), std::string::npos) << fit;
}

TEST(OptimizerOptions, IgnoresTheFitOptionsWhenRefitsAreOff) {
  EXPECT_EQ(OptimizerError([](OptimizerOptions& o) {
              o.refit.enabled = false;
              o.fit.num_restarts = -1;
            }),
            "");
}

}  // namespace
}  // namespace gpbandit
