// The fit's default bounds follow each log-param's kind (Kernel::ParamKinds), never its name;
// periods get their own range and are fitted; FitOptionsMatchKernel names the field, both sizes
// and the kernel.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "numerics/math.h"
#include "tests/test_util.h"
#include "tests/user_kernel.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

// A user kernel whose log-params are named "w0", "w1", ... (nothing says "lengthscale"), with
// or without the wrapped kernel's kinds.
class RenamedKernel : public testing::UserKernel {
 public:
  RenamedKernel(std::unique_ptr<Kernel> inner, bool declare_kinds)
      : UserKernel(inner->Clone()), prototype_(std::move(inner)), declare_kinds_(declare_kinds) {}
  std::unique_ptr<Kernel> Clone() const override {
    auto copy = std::make_unique<RenamedKernel>(prototype_->Clone(), declare_kinds_);
    copy->SetLogParams(GetLogParams());
    return copy;
  }
  std::vector<std::string> ParamNames() const override {
    std::vector<std::string> names;
    for (int j = 0; j < NumParams(); ++j) names.push_back("w" + std::to_string(j));
    return names;
  }
  std::vector<ParamKind> ParamKinds() const override {
    return declare_kinds_ ? prototype_->ParamKinds() : Kernel::ParamKinds();
  }

 private:
  std::unique_ptr<Kernel> prototype_;  // of the same structure: its kinds
  bool declare_kinds_;
};

// Fits constant outputs, which push the lengthscales (and periods) to their upper bounds and
// the signal variance to its lower one: the report then shows which bounds each log-param had.
HyperparameterFitReport FitConstantOutputs(std::unique_ptr<Kernel> kernel, int dim,
                                           const HyperparameterFitOptions& options) {
  GaussianProcess gp(std::move(kernel), dim);
  Rng data_rng(testing::TestSeed(81));
  gp.AddObservations(testing::UniformPoints(dim, 8, 0.0, 1.0, data_rng),
                     Eigen::VectorXd::Constant(8, 3.5));
  Rng rng(2);
  return FitHyperparameters(options, rng, &gp);
}

TEST(FitKindsTest, BoundsFollowTheKindsNotTheNames) {
  const HyperparameterFitReport declared = FitConstantOutputs(
      std::make_unique<RenamedKernel>(MakeMatern52({0, 1}), true), 2, HyperparameterFitOptions());
  ASSERT_TRUE(declared.success) << declared.BriefReport();
  // log(max_lengthscale) = log(100) for the two lengthscales, named w1 and w2.
  EXPECT_THAT(declared.params_at_bound,
              ::testing::IsSupersetOf({"w1 at upper bound 4.60517", "w2 at upper bound 4.60517"}));
  // Without kinds (kOther) every log-param gets the signal-variance range: log(1000).
  const HyperparameterFitReport undeclared = FitConstantOutputs(
      std::make_unique<RenamedKernel>(MakeMatern52({0, 1}), false), 2, HyperparameterFitOptions());
  EXPECT_THAT(undeclared.params_at_bound,
              ::testing::IsSupersetOf({"w1 at upper bound 6.90776", "w2 at upper bound 6.90776"}));
}

TEST(FitKindsTest, PeriodsHaveTheirOwnRange) {
  HyperparameterFitOptions options;
  options.max_period = 3.0;
  const HyperparameterFitReport report = FitConstantOutputs(MakePeriodic({0}), 1, options);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_THAT(report.params_at_bound,
              ::testing::Contains("periodic.log_period[0] at upper bound " +
                                  std::string("1.09861")));  // log 3
  GaussianProcess gp(MakePeriodic({0}), 1);
  Rng rng(1);
  HyperparameterFitOptions bad;
  bad.min_period = 0.0;
  testing::ExpectInvalid([&] { FitHyperparameters(bad, rng, &gp); }, "min_period");
  bad = HyperparameterFitOptions();
  bad.start_max_period = bad.start_min_period;
  std::string error;
  EXPECT_FALSE(bad.IsValid(&error));
  EXPECT_THAT(error, HasSubstr("start_max_period"));
}

// A sine of period 0.3 observed at 30 noisy points of [0, 1]: the fitted period is a multiple
// of 0.3 (the likelihood has a mode at every multiple: a longer period with a second harmonic
// fits the same data), within 1%.
TEST(FitKindsTest, FitFindsThePeriodOfPeriodicData) {
  Rng data_rng(testing::TestSeed(82));
  GaussianProcess gp(MakePeriodic({0}), 1);
  const Eigen::MatrixXd X = testing::UniformPoints(1, 30, 0.0, 1.0, data_rng);
  Eigen::VectorXd y(30);
  std::normal_distribution<double> noise(0.0, 0.05);
  for (int j = 0; j < 30; ++j) y(j) = std::sin(2.0 * kPi * X(0, j) / 0.3) + noise(data_rng);
  gp.AddObservations(X, y);
  Rng rng(2);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  const double periods = std::exp(gp.kernel_log_params()(2)) / 0.3;
  EXPECT_GE(std::round(periods), 1.0);
  EXPECT_NEAR(periods, std::round(periods), 0.01 * periods) << report.BriefReport();
}

// With default options every kind's fit range is its registered default range: the fields of
// the options for the built-in kinds default to those ranges.
TEST(FitKindsTest, DefaultOptionsGiveEveryKindItsRegisteredRange) {
  const HyperparameterFitOptions options;
  for (ParamKind kind : ParamKind::All()) {
    const ParamRange fit = FitRange(options, kind);
    const ParamRange& registered = kind.info().default_range;
    EXPECT_EQ(fit.min, registered.min) << kind;
    EXPECT_EQ(fit.max, registered.max) << kind;
    EXPECT_EQ(fit.start_min, registered.start_min) << kind;
    EXPECT_EQ(fit.start_max, registered.start_max) << kind;
  }
}

// kind_ranges over the built-in kinds' fields over the registered default; DefaultLogBounds
// gives the logs of the chosen bounds.
TEST(FitKindsTest, KindRangesOverrideFieldsWhichOverrideRegisteredDefaults) {
  const ParamKind shape = ParamKind::Register({"fit_test_shape",
                                               "a shape",
                                               {0.2, 5.0, 0.5, 2.0},
                                               OriginalUnits::kNone,
                                               CautiousDirection::kFree});
  HyperparameterFitOptions options;
  options.min_lengthscale = 0.01;
  options.start_max_period = 0.5;
  EXPECT_EQ(FitRange(options, ParamKind::kLengthscale).min, 0.01);
  EXPECT_EQ(FitRange(options, ParamKind::kPeriod).start_max, 0.5);
  EXPECT_EQ(FitRange(options, shape).max, 5.0);
  options.kind_ranges["lengthscale"] = {0.05, 2.0, 0.1, 1.0};
  options.kind_ranges["fit_test_shape"] = {1.0, 3.0, 1.5, 2.5};
  EXPECT_EQ(FitRange(options, ParamKind::kLengthscale).min, 0.05);
  EXPECT_EQ(FitRange(options, shape).start_min, 1.5);
  std::string error;
  EXPECT_TRUE(options.IsValid(&error)) << error;
  std::vector<double> lower, upper;
  DefaultLogBounds(options, {ParamKind::kSignalVariance, ParamKind::kLengthscale, shape}, &lower,
                   &upper);
  EXPECT_EQ(lower, (std::vector<double>{std::log(1e-3), std::log(0.05), std::log(1.0)}));
  EXPECT_EQ(upper, (std::vector<double>{std::log(1e3), std::log(2.0), std::log(3.0)}));
}

// A safe strategy's refits: each kind's cautious direction moves one bound to the initial
// value, a registered kind's as the built-in ones'.
TEST(FitKindsTest, CautiousBoundsFollowEachKindsDirection) {
  const ParamKind grows = ParamKind::Register({"fit_test_grows",
                                               "a scale",
                                               {0.1, 10.0, 0.5, 2.0},
                                               OriginalUnits::kNone,
                                               CautiousDirection::kOnlyGrow});
  const std::vector<ParamKind> kinds{ParamKind::kSignalVariance, ParamKind::kLengthscale,
                                     ParamKind::kPeriod, ParamKind::kOther, grows};
  HyperparameterFitOptions options;
  options.max_period = 5.0;
  Eigen::VectorXd initial(5);
  initial << std::log(2.0), std::log(0.3), std::log(0.5), std::log(4.0), std::log(1.5);
  std::vector<double> lower, upper;
  CautiousLogBounds(options, kinds, initial, &lower, &upper);
  EXPECT_EQ(lower, (std::vector<double>{std::log(2.0), std::log(1e-3), std::log(1e-2),
                                        std::log(1e-3), std::log(1.5)}));
  EXPECT_EQ(upper, (std::vector<double>{std::log(1e3), std::log(0.3), std::log(5.0), std::log(1e3),
                                        std::log(10.0)}));
  // Initial values beyond the range on the cautious side: a range of width 1 reaching them.
  initial << std::log(1e4), std::log(1e-4), 0.0, 0.0, std::log(20.0);
  CautiousLogBounds(options, kinds, initial, &lower, &upper);
  EXPECT_EQ(lower[0], std::log(1e4));
  EXPECT_EQ(upper[0], std::log(1e4) + 1.0);
  EXPECT_EQ(upper[1], std::log(1e-4));
  EXPECT_EQ(lower[1], std::log(1e-4) - 1.0);
  EXPECT_EQ(lower[4], std::log(20.0));
  EXPECT_EQ(upper[4], std::log(20.0) + 1.0);
  testing::ExpectInvalid(
      [&] { CautiousLogBounds(options, kinds, Eigen::VectorXd::Zero(4), &lower, &upper); },
      "initial_log_params has 4 entries but 5 kinds were given");
}

TEST(FitKindsTest, KindRangesAreCheckedNamingTheKind) {
  HyperparameterFitOptions options;
  options.kind_ranges["no_such_kind"] = {1.0, 2.0, 1.0, 2.0};
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_EQ(error,
            "HyperparameterFitOptions.kind_ranges[\"no_such_kind\"] names no registered "
            "parameter kind");
  options.kind_ranges = {{"period", {1.0, 0.5, 0.6, 0.7}}};
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_EQ(error,
            "HyperparameterFitOptions.kind_ranges[\"period\"].max must be finite and > min (1), "
            "got 0.5");
  GaussianProcess gp(MakePeriodic({0}), 1);
  Rng rng(1);
  testing::ExpectInvalid([&] { FitHyperparameters(options, rng, &gp); },
                         "kind_ranges[\"period\"].max");
}

TEST(FitKindsTest, OptionsAreCheckedAgainstTheKernelNamingFieldAndSizes) {
  const std::unique_ptr<Kernel> kernel = MakeMatern52({0, 1, 2});  // 4 log-params
  HyperparameterFitOptions options;
  std::string error;
  EXPECT_TRUE(FitOptionsMatchKernel(options, *kernel, &error));
  options.kernel_priors.resize(4);
  EXPECT_TRUE(FitOptionsMatchKernel(options, *kernel, &error));
  options.kernel_priors.resize(2);
  EXPECT_FALSE(FitOptionsMatchKernel(options, *kernel, &error));
  EXPECT_EQ(error,
            "kernel_priors has 2 entries but the kernel matern52(dims=0,1,2; ard) has 4 "
            "log-params (matern52.log_variance, matern52.log_lengthscale[0], "
            "matern52.log_lengthscale[1], matern52.log_lengthscale[2])");
  options = HyperparameterFitOptions();
  options.upper_log_bounds.assign(5, 1.0);
  EXPECT_FALSE(FitOptionsMatchKernel(options, *kernel, nullptr));
}

}  // namespace
}  // namespace gpbandit
