// HyperparameterFitOptions' checks, the bounds by kind (FitRange, DefaultLogBounds,
// CautiousLogBounds), the size check against a kernel and the report's text: the parts of fit.h
// that hold no fit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/kernel/param_kind.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

using testing::kInf;
using testing::kNaN;

std::string Error(const HyperparameterFitOptions& options) {
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_FALSE(options.IsValid(nullptr));
  return error;
}

// A kind registered by this test, with a range of its own and no field of the options.
ParamKind Alpha() {
  return ParamKind::Register({"fit_options_test_alpha",
                              "a test kind",
                              {0.05, 50.0, 0.3, 3.0},
                              OriginalUnits::kNone,
                              CautiousDirection::kFree});
}

TEST(FitOptionsTest, DefaultsAreValid) {
  std::string error;
  EXPECT_TRUE(HyperparameterFitOptions().IsValid(&error)) << error;
}

TEST(FitOptionsTest, ScalarFieldsOutOfRangeAreRefusedByNameAndValue) {
  HyperparameterFitOptions o;
  o.num_restarts = -1;
  EXPECT_EQ(Error(o), "HyperparameterFitOptions.num_restarts must be >= 0, got -1");
  o = HyperparameterFitOptions();
  o.max_iterations = 0;
  EXPECT_EQ(Error(o), "HyperparameterFitOptions.max_iterations must be >= 1, got 0");
  o = HyperparameterFitOptions();
  o.num_threads = -2;
  EXPECT_THAT(Error(o), HasSubstr("num_threads must be >= 0, got -2"));
  o = HyperparameterFitOptions();
  o.gradient_tolerance = kNaN;
  EXPECT_THAT(Error(o), HasSubstr("gradient_tolerance must be finite and > 0, got nan"));
  o = HyperparameterFitOptions();
  o.parameter_tolerance = kInf;
  EXPECT_THAT(Error(o), HasSubstr("parameter_tolerance must be finite and > 0, got inf"));
  o = HyperparameterFitOptions();
  o.max_seconds = 0.0;
  EXPECT_THAT(Error(o), HasSubstr("max_seconds must be > 0, got 0"));
  o = HyperparameterFitOptions();
  o.num_restarts = 0;  // the edges
  o.max_iterations = 1;
  o.max_seconds = 1e-9;
  EXPECT_TRUE(o.IsValid(nullptr));
}

TEST(FitOptionsTest, RangesMustBePositiveAndOrdered) {
  HyperparameterFitOptions o;
  o.min_lengthscale = 0.0;
  EXPECT_THAT(Error(o), HasSubstr("min_lengthscale must be finite and > 0, got 0"));
  o = HyperparameterFitOptions();
  o.max_period = o.min_period;  // equal is refused: min < max
  EXPECT_THAT(Error(o), HasSubstr("max_period must be finite and > min_period"));
  o = HyperparameterFitOptions();
  o.max_noise_variance = kInf;
  EXPECT_THAT(Error(o), HasSubstr("max_noise_variance must be finite"));
  o = HyperparameterFitOptions();
  o.start_min_noise_variance = 1.0;  // above start_max_noise_variance = 0.3
  EXPECT_THAT(Error(o), HasSubstr("start_max_noise_variance must be finite and > "
                                  "start_min_noise_variance"));
  o = HyperparameterFitOptions();
  o.start_max_signal_variance = -1.0;
  EXPECT_THAT(Error(o), HasSubstr("start_max_signal_variance"));
}

TEST(FitOptionsTest, ExplicitBoundsArePairedFiniteOrBothInfinite) {
  HyperparameterFitOptions o;
  o.lower_log_bounds = {-1.0, -kInf};
  o.upper_log_bounds = {1.0, kInf};  // the second log-param unbounded
  std::string error;
  EXPECT_TRUE(o.IsValid(&error)) << error;
  o.upper_log_bounds = {1.0};
  EXPECT_EQ(Error(o),
            "HyperparameterFitOptions.lower_log_bounds has 2 entries but upper_log_bounds has 1");
  o.lower_log_bounds = {kNaN};
  EXPECT_THAT(Error(o), HasSubstr("lower_log_bounds[0] must be not NaN, got nan"));
  o.lower_log_bounds = {0.0};
  o.upper_log_bounds = {kInf};
  EXPECT_THAT(Error(o), HasSubstr("lower_log_bounds[0] = 0 and upper_log_bounds[0] = inf must be "
                                  "both finite or both infinite"));
  o.lower_log_bounds = {2.0};
  o.upper_log_bounds = {2.0};
  EXPECT_THAT(Error(o), HasSubstr("lower_log_bounds[0] = 2 must be below upper_log_bounds[0] = 2"));
  o.lower_log_bounds = {kInf};  // reversed infinities
  o.upper_log_bounds = {-kInf};
  EXPECT_THAT(Error(o), HasSubstr("must be below"));
}

TEST(FitOptionsTest, PriorsNeedFiniteMeansAndPositiveStddevs) {
  HyperparameterFitOptions o;
  o.kernel_priors = {LogNormalPrior{0.0, 1.0}, LogNormalPrior{0.0, 0.0}};
  EXPECT_THAT(Error(o), HasSubstr("kernel_priors[1].stddev_log must be > 0"));
  o.kernel_priors = {LogNormalPrior{}};  // the default: no prior
  EXPECT_TRUE(o.IsValid(nullptr));
  o.noise_prior.mean_log = -kInf;
  EXPECT_THAT(Error(o), HasSubstr("noise_prior.mean_log must be finite, got -inf"));
}

TEST(FitOptionsTest, KindRangesMustNameRegisteredKindsWithValidRanges) {
  HyperparameterFitOptions o;
  o.kind_ranges["no_such_kind"] = {0.1, 1.0, 0.2, 0.5};
  EXPECT_EQ(Error(o),
            "HyperparameterFitOptions.kind_ranges[\"no_such_kind\"] names no registered parameter "
            "kind");
  o.kind_ranges.clear();
  o.kind_ranges["lengthscale"] = {1.0, 0.5, 0.6, 0.7};
  EXPECT_THAT(Error(o), HasSubstr("kind_ranges[\"lengthscale\"]"));
  o.kind_ranges["lengthscale"] = {0.5, 1.0, 0.6, 0.7};
  EXPECT_TRUE(o.IsValid(nullptr));
}

TEST(FitOptionsTest, FitRangeTakesKindRangesThenFieldsThenTheKindsDefault) {
  HyperparameterFitOptions o;
  o.min_lengthscale = 0.01;
  o.max_lengthscale = 20.0;
  const ParamRange lengthscale = FitRange(o, ParamKind::kLengthscale);
  EXPECT_EQ(lengthscale.min, 0.01);
  EXPECT_EQ(lengthscale.max, 20.0);
  EXPECT_EQ(lengthscale.start_min, 0.03);
  EXPECT_EQ(lengthscale.start_max, 3.0);
  const ParamRange period = FitRange(o, ParamKind::kPeriod);
  EXPECT_EQ(period.min, 1e-2);
  EXPECT_EQ(period.max, 10.0);
  // kOther shares the signal variance's fields.
  o.max_signal_variance = 500.0;
  EXPECT_EQ(FitRange(o, ParamKind::kOther).max, 500.0);
  EXPECT_EQ(FitRange(o, ParamKind::kSignalVariance).max, 500.0);
  // A kind without fields: its registered range; kind_ranges overrides any kind.
  const ParamKind alpha = Alpha();
  EXPECT_EQ(FitRange(o, alpha).min, 0.05);
  EXPECT_EQ(FitRange(o, alpha).max, 50.0);
  o.kind_ranges["fit_options_test_alpha"] = {1.0, 2.0, 1.1, 1.9};
  o.kind_ranges["lengthscale"] = {0.2, 0.4, 0.25, 0.35};
  EXPECT_EQ(FitRange(o, alpha).max, 2.0);
  EXPECT_EQ(FitRange(o, ParamKind::kLengthscale).min, 0.2);
  EXPECT_TRUE(o.IsValid(nullptr));
}

TEST(FitOptionsTest, DefaultLogBoundsAreTheLogsOfTheRanges) {
  HyperparameterFitOptions o;
  std::vector<double> lower = {99.0}, upper;  // cleared first
  DefaultLogBounds(o, {ParamKind::kSignalVariance, ParamKind::kLengthscale, ParamKind::kPeriod},
                   &lower, &upper);
  ASSERT_EQ(lower.size(), 3u);
  ASSERT_EQ(upper.size(), 3u);
  EXPECT_DOUBLE_EQ(lower[0], std::log(1e-3));
  EXPECT_DOUBLE_EQ(upper[0], std::log(1e3));
  EXPECT_DOUBLE_EQ(lower[1], std::log(1e-3));
  EXPECT_DOUBLE_EQ(upper[1], std::log(1e2));
  EXPECT_DOUBLE_EQ(lower[2], std::log(1e-2));
  EXPECT_DOUBLE_EQ(upper[2], std::log(10.0));
  DefaultLogBounds(o, {}, &lower, &upper);
  EXPECT_TRUE(lower.empty());
  EXPECT_TRUE(upper.empty());
}

TEST(FitOptionsTest, CautiousBoundsMoveTheCautiousSideToTheInitialValue) {
  const HyperparameterFitOptions o;
  std::vector<double> lower, upper;
  // Signal variance 2 may only grow, lengthscale 0.5 only shrink, period 0.3 is free.
  CautiousLogBounds(o, {ParamKind::kSignalVariance, ParamKind::kLengthscale, ParamKind::kPeriod},
                    Eigen::Vector3d(std::log(2.0), std::log(0.5), std::log(0.3)), &lower, &upper);
  EXPECT_DOUBLE_EQ(lower[0], std::log(2.0));
  EXPECT_DOUBLE_EQ(upper[0], std::log(1e3));
  EXPECT_DOUBLE_EQ(lower[1], std::log(1e-3));
  EXPECT_DOUBLE_EQ(upper[1], std::log(0.5));
  EXPECT_DOUBLE_EQ(lower[2], std::log(1e-2));
  EXPECT_DOUBLE_EQ(upper[2], std::log(10.0));
}

TEST(FitOptionsTest, CautiousBoundsReachAnInitialValueBeyondTheRangeWithWidthOne) {
  const HyperparameterFitOptions o;
  std::vector<double> lower, upper;
  // Lengthscale 1e-4 is below its range [1e-3, 1e2]; signal variance 1e4 above [1e-3, 1e3].
  const double l = std::log(1e-4), s = std::log(1e4);
  CautiousLogBounds(o, {ParamKind::kLengthscale, ParamKind::kSignalVariance}, Eigen::Vector2d(l, s),
                    &lower, &upper);
  EXPECT_DOUBLE_EQ(upper[0], l);
  EXPECT_DOUBLE_EQ(lower[0], l - 1.0);
  EXPECT_DOUBLE_EQ(lower[1], s);
  EXPECT_DOUBLE_EQ(upper[1], s + 1.0);
  try {
    CautiousLogBounds(o, {ParamKind::kLengthscale}, Eigen::Vector2d(l, s), &lower, &upper);
    FAIL() << "a size mismatch was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("initial_log_params has 2 entries but 1 kinds were given"));
  }
}

TEST(FitOptionsTest, FitOptionsMatchKernelChecksTheKernelSizedFields) {
  const std::unique_ptr<Kernel> kernel = MakeSquaredExponential(FirstDims(2));  // 3 log-params
  HyperparameterFitOptions o;
  std::string error;
  EXPECT_TRUE(FitOptionsMatchKernel(o, *kernel, &error)) << error;
  o.lower_log_bounds = {-1, -1, -1};
  o.upper_log_bounds = {1, 1, 1};
  o.kernel_priors.resize(3);
  EXPECT_TRUE(FitOptionsMatchKernel(o, *kernel, &error)) << error;
  o.kernel_priors.resize(2);
  EXPECT_FALSE(FitOptionsMatchKernel(o, *kernel, nullptr));
  ASSERT_FALSE(FitOptionsMatchKernel(o, *kernel, &error));
  const std::vector<std::string> names = kernel->ParamNames();
  EXPECT_EQ(error, "kernel_priors has 2 entries but the kernel " + kernel->Describe() +
                       " has 3 log-params (" + names[0] + ", " + names[1] + ", " + names[2] + ")");
  o.kernel_priors.clear();
  o.upper_log_bounds = {1, 1, 1, 1};
  ASSERT_FALSE(FitOptionsMatchKernel(o, *kernel, &error));
  EXPECT_THAT(error, HasSubstr("upper_log_bounds has 4 entries"));
}

TEST(FitOptionsTest, TerminationNamesAreCeresSpelling) {
  EXPECT_EQ(FitTerminationName(FitTermination::kConvergence), "CONVERGENCE");
  EXPECT_EQ(FitTerminationName(FitTermination::kNoConvergence), "NO_CONVERGENCE");
  EXPECT_EQ(FitTerminationName(FitTermination::kFailure), "FAILURE");
  EXPECT_EQ(FitTerminationName(FitTermination::kNotRun), "NOT_RUN");
}

TEST(FitOptionsTest, BriefReportSaysEveryPartOnOneLine) {
  HyperparameterFitReport report;
  report.success = true;
  report.log_marginal_likelihood = -12.5;
  report.log_posterior = -12.5;
  report.num_starts = 3;
  report.best_start = 1;
  report.failed_starts = {2};
  report.iterations = 42;
  report.termination = FitTermination::kConvergence;
  EXPECT_EQ(report.BriefReport(),
            "fit succeeded: lml = -12.5, starts = 3 (best 1, 1 failed), iterations = 42, "
            "termination = CONVERGENCE");
  report.log_posterior = -11.25;
  report.params_at_bound = {"se.log_lengthscale[0] at upper bound 4.60517"};
  report.message = "note";
  EXPECT_EQ(report.BriefReport(),
            "fit succeeded: lml = -12.5, log posterior = -11.25, starts = 3 (best 1, 1 failed), "
            "iterations = 42, termination = CONVERGENCE, at bound: [se.log_lengthscale[0] at "
            "upper bound 4.60517]. note");
  HyperparameterFitReport failed;
  failed.kept_previous = true;
  EXPECT_EQ(failed.BriefReport(),
            "fit failed (kept previous hyperparameters): lml = -inf, starts = 0 (best -1, 0 "
            "failed), iterations = 0, termination = NOT_RUN");
}

}  // namespace
}  // namespace gpbandit
