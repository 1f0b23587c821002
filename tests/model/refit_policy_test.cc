#include "model/refit_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "model/default_model.h"

namespace gpbandit {
namespace {

// A GP on [0, 1] with an ARD Matern-5/2 (log-params [log s2, log l]), times the forgetting
// kernel (one more, log eps) when `forgetting`.
GaussianProcess Gp(bool forgetting, bool standardize = true) {
  std::unique_ptr<Kernel> kernel = MakeMatern52({0}, true, 1.0, 0.5);
  int dim = 1;
  if (forgetting) {
    TimeModel time;
    time.kind = TimeModelKind::kForgetting;
    time.fit_epsilon = true;
    kernel = WithTimeKernel(std::move(kernel), time, 1);
    dim = 2;
  }
  GaussianProcessOptions options;
  options.standardize_outputs = standardize;
  return GaussianProcess(std::move(kernel), dim, options);
}

TimeModel FittedForgetting() {
  TimeModel time;
  time.kind = TimeModelKind::kForgetting;
  time.fit_epsilon = true;
  time.min_epsilon = 0.001;
  time.max_epsilon = 0.25;
  return time;
}

TEST(RefitPolicy, BaseOptionsDropTheRestartsPastFitRestartsUntil) {
  OptimizerOptions options;
  options.fit.num_restarts = 4;
  options.fit_restarts_until = 10;
  const RefitPolicy policy(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(policy.BaseOptions(0).num_restarts, 4);
  EXPECT_EQ(policy.BaseOptions(9).num_restarts, 4);
  EXPECT_EQ(policy.BaseOptions(10).num_restarts, 0);
  EXPECT_EQ(policy.BaseOptions(1000).num_restarts, 0);
  EXPECT_EQ(policy.BaseOptions(0).max_iterations, options.fit.max_iterations);
}

TEST(RefitPolicy, FitRestartsUntilZeroNeverRestarts) {
  OptimizerOptions options;
  options.fit_restarts_until = 0;
  const RefitPolicy policy(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(policy.BaseOptions(0).num_restarts, 0);
}

TEST(RefitPolicy, TheOptimizersThreadCountReplacesTheFitsWhenSet) {
  OptimizerOptions options;
  options.fit.num_threads = 2;
  const RefitPolicy unset(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(unset.BaseOptions(0).num_threads, 2);
  options.num_threads = 3;
  const RefitPolicy set(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(set.BaseOptions(0).num_threads, 3);
}

// With fidelities the fits stop at the tighter of the two tolerances; without, fit's alone.
TEST(RefitPolicy, AStudyWithFidelitiesFitsToTheTighterTolerance) {
  OptimizerOptions options;
  options.fit.function_tolerance = 1e-4;
  options.fidelities.fit_function_tolerance = 1e-7;
  const RefitPolicy plain(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(plain.BaseOptions(0).function_tolerance, 1e-4);
  options.fidelities.levels = {{"sim", 1.0}, {"robot", 10.0}};
  const RefitPolicy tighter(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(tighter.BaseOptions(0).function_tolerance, 1e-7);
  EXPECT_EQ(tighter.OptionsFor(Gp(false), 3).function_tolerance, 1e-7);
  options.fit.function_tolerance = 1e-9;
  const RefitPolicy fits_own(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(fits_own.BaseOptions(0).function_tolerance, 1e-9);
  options.fidelities.fit_function_tolerance = HUGE_VAL;  // a header from before the field
  const RefitPolicy legacy(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_EQ(legacy.BaseOptions(0).function_tolerance, 1e-9);
}

TEST(RefitPolicy, TheDefaultKernelGetsItsPriorsUnlessTheCallerGaveSome) {
  OptimizerOptions options;
  const GaussianProcess gp = Gp(false);
  const RefitPolicy policy(options, TimeModel(), true, false, Eigen::VectorXd());
  const HyperparameterFitOptions fit = policy.OptionsFor(gp, 3);
  ASSERT_EQ(fit.kernel_priors.size(), 2u);
  EXPECT_EQ(fit.kernel_priors[0].stddev_log, 1.5);  // signal variance, standardized outputs
  EXPECT_DOUBLE_EQ(fit.kernel_priors[1].mean_log, std::log(0.3));
  EXPECT_EQ(fit.kernel_priors[1].stddev_log, 1.0);
  EXPECT_TRUE(fit.lower_log_bounds.empty());

  // Raw outputs: no prior on the signal variance.
  const HyperparameterFitOptions raw = policy.OptionsFor(Gp(false, false), 3);
  ASSERT_EQ(raw.kernel_priors.size(), 2u);
  EXPECT_TRUE(std::isinf(raw.kernel_priors[0].stddev_log));

  OptimizerOptions given;
  given.fit.kernel_priors.resize(2);
  given.fit.kernel_priors[1].mean_log = 2.0;
  given.fit.kernel_priors[1].stddev_log = 0.5;
  const RefitPolicy keeps(given, TimeModel(), true, false, Eigen::VectorXd());
  const HyperparameterFitOptions kept = keeps.OptionsFor(gp, 3);
  ASSERT_EQ(kept.kernel_priors.size(), 2u);
  EXPECT_EQ(kept.kernel_priors[1].mean_log, 2.0);
  EXPECT_EQ(kept.kernel_priors[1].stddev_log, 0.5);
}

TEST(RefitPolicy, AUsersKernelGetsNoPriors) {
  OptimizerOptions options;
  const RefitPolicy policy(options, TimeModel(), false, false, Eigen::VectorXd());
  EXPECT_TRUE(policy.OptionsFor(Gp(false), 3).kernel_priors.empty());
}

TEST(RefitPolicy, AFittedForgettingRateIsBoundedByItsRange) {
  OptimizerOptions options;
  const GaussianProcess gp = Gp(true);
  const RefitPolicy policy(options, FittedForgetting(), false, false, Eigen::VectorXd());
  const HyperparameterFitOptions fit = policy.OptionsFor(gp, 3);
  std::vector<double> lower, upper;
  DefaultLogBounds(options.fit, gp.kernel().ParamKinds(), &lower, &upper);
  ASSERT_EQ(fit.lower_log_bounds.size(), 3u);
  ASSERT_EQ(fit.upper_log_bounds.size(), 3u);
  for (int j = 0; j < 2; ++j) {  // the spatial log-params keep their kinds' bounds
    EXPECT_EQ(fit.lower_log_bounds[j], lower[j]);
    EXPECT_EQ(fit.upper_log_bounds[j], upper[j]);
  }
  EXPECT_DOUBLE_EQ(fit.lower_log_bounds[2], std::log(0.001));
  EXPECT_DOUBLE_EQ(fit.upper_log_bounds[2], std::log(0.25));
}

TEST(RefitPolicy, ExplicitBoundsOnAForgettingRateAreKept) {
  OptimizerOptions options;
  options.fit.lower_log_bounds = {-3, -3, -8};
  options.fit.upper_log_bounds = {3, 3, -1};
  const RefitPolicy policy(options, FittedForgetting(), false, false, Eigen::VectorXd());
  const HyperparameterFitOptions fit = policy.OptionsFor(Gp(true), 3);
  EXPECT_EQ(fit.lower_log_bounds, options.fit.lower_log_bounds);
  EXPECT_EQ(fit.upper_log_bounds, options.fit.upper_log_bounds);
}

TEST(RefitPolicy, CautiousFitsMayOnlyShortenLengthscalesAndGrowSignalVariances) {
  OptimizerOptions options;
  const GaussianProcess gp = Gp(false);
  const Eigen::VectorXd initial = gp.kernel().GetLogParams();  // [log 1, log 0.5]
  const RefitPolicy policy(options, TimeModel(), false, true, initial);
  const HyperparameterFitOptions fit = policy.OptionsFor(gp, 3);
  std::vector<double> lower, upper;
  DefaultLogBounds(options.fit, gp.kernel().ParamKinds(), &lower, &upper);
  ASSERT_EQ(fit.lower_log_bounds.size(), 2u);
  // Signal variance: lower bound raised to its initial value, upper as by default.
  EXPECT_DOUBLE_EQ(fit.lower_log_bounds[0], std::max(lower[0], initial(0)));
  EXPECT_EQ(fit.upper_log_bounds[0], upper[0]);
  // Lengthscale: upper bound lowered to its initial value, lower as by default.
  EXPECT_EQ(fit.lower_log_bounds[1], lower[1]);
  EXPECT_DOUBLE_EQ(fit.upper_log_bounds[1], std::min(upper[1], initial(1)));
  EXPECT_DOUBLE_EQ(fit.upper_log_bounds[1], std::log(0.5));
}

TEST(RefitPolicy, CautiousFitsKeepTheCallersBounds) {
  OptimizerOptions options;
  options.fit.lower_log_bounds = {-5, -5};
  options.fit.upper_log_bounds = {5, 5};
  const GaussianProcess gp = Gp(false);
  const RefitPolicy policy(options, TimeModel(), false, true, gp.kernel().GetLogParams());
  const HyperparameterFitOptions fit = policy.OptionsFor(gp, 3);
  EXPECT_EQ(fit.lower_log_bounds, options.fit.lower_log_bounds);
  EXPECT_EQ(fit.upper_log_bounds, options.fit.upper_log_bounds);
}

TEST(RefitPolicy, RefusesExplicitBoundsThatLetEpsilonReachOne) {
  OptimizerOptions options;
  options.fit.lower_log_bounds = {-3, -3, -8};
  options.fit.upper_log_bounds = {3, 3, 0.5};
  const RefitPolicy policy(options, FittedForgetting(), false, false, Eigen::VectorXd());
  try {
    policy.CheckTimeFitBounds();
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("OptimizerOptions.fit.upper_log_bounds[2] = 0.5: ", 0), 0u) << message;
    EXPECT_NE(message.find("<= 0"), std::string::npos) << message;
  }
  options.fit.upper_log_bounds[2] = 0.0;  // epsilon <= 1 at the bound: allowed
  EXPECT_NO_THROW(RefitPolicy(options, FittedForgetting(), false, false, Eigen::VectorXd())
                      .CheckTimeFitBounds());
}

TEST(RefitPolicy, TheEpsilonBoundCheckAppliesOnlyToAFittedForgettingRate) {
  OptimizerOptions options;
  options.fit.lower_log_bounds = {-3, -3, -8};
  options.fit.upper_log_bounds = {3, 3, 0.5};
  TimeModel fixed = FittedForgetting();
  fixed.fit_epsilon = false;
  EXPECT_NO_THROW(
      RefitPolicy(options, fixed, false, false, Eigen::VectorXd()).CheckTimeFitBounds());
  EXPECT_NO_THROW(
      RefitPolicy(options, TimeModel(), false, false, Eigen::VectorXd()).CheckTimeFitBounds());
  options.refit.enabled = false;  // no refits: the bounds are never used
  EXPECT_NO_THROW(RefitPolicy(options, FittedForgetting(), false, false, Eigen::VectorXd())
                      .CheckTimeFitBounds());
  OptimizerOptions defaults;  // no explicit bounds: the policy sets them
  EXPECT_NO_THROW(RefitPolicy(defaults, FittedForgetting(), false, false, Eigen::VectorXd())
                      .CheckTimeFitBounds());
}

}  // namespace
}  // namespace gpbandit
