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
#include "gpbandit/gp/kernel_factory.h"
#include "gp/math.h"
#include "gpbandit/hyperparams/fit.h"
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
