// A safety signal's model (model/signal_model.h): its outcome chain against hand-computed
// values, the hyperparameters a user gives, the fit rule's bounds and priors, cautious refits,
// its invariance to the signal's units, and the kernels it is built with.
#include "model/signal_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kNaN;

SignalModel GatedModel(double threshold, const SignalModelOptions& options = SignalModelOptions()) {
  return SignalModel(threshold, options, MakeSignalKernel(options, 2, 0), 2, 0,
                     GaussianProcessOptions());
}

Eigen::VectorXd Point2(double a, double b) { return Eigen::Vector2d(a, b); }

// g told against threshold h = -0.05 (an overshoot of at most 5 cm written as g = -overshoot):
// c = h, the unit is the first observation's distance to it, 0.17.
TEST(SignalModelTest, ChainMapsToldValuesAgainstTheThreshold) {
  SignalModel m = GatedModel(-0.05);
  EXPECT_EQ(m.unit(), 1.0);  // before any observation
  m.Add(Point2(0.5, 0.5), 0.12);
  EXPECT_DOUBLE_EQ(m.unit(), 0.17);
  EXPECT_EQ(m.threshold(), 0.0);
  m.Add(Point2(0.6, 0.5), -0.01);
  const Eigen::VectorXd v = m.gp().outputs();
  EXPECT_EQ(v(0), 1.0);  // (g - c) / |g - c|, exactly
  EXPECT_DOUBLE_EQ(v(1), (-0.01 + 0.05) / 0.17);
  EXPECT_DOUBLE_EQ(m.MeanToTold(v(1)), -0.01);
  EXPECT_DOUBLE_EQ(m.StddevToTold(2.0), 0.34);
  EXPECT_EQ(m.max_observed(), 1.0);
  // With a prior mean the threshold moves into model units with the chain.
  SignalModelOptions centred;
  centred.prior_mean = 0.1;
  SignalModel p = GatedModel(-0.05, centred);
  p.Add(Point2(0.5, 0.5), 0.5);  // unit 0.4
  EXPECT_DOUBLE_EQ(p.threshold(), (-0.05 - 0.1) / 0.4);
}

// A first value exactly at the prior mean leaves the unit unset (its output 0 means the same in
// any unit); the first one away from it fixes the unit.
TEST(SignalModelTest, UnitIsSetByTheFirstValueAwayFromThePriorMean) {
  SignalModel m = GatedModel(2.0);
  m.Add(Point2(0.1, 0.1), 2.0);
  EXPECT_EQ(m.unit(), 1.0);
  m.Add(Point2(0.2, 0.1), 2.5);
  EXPECT_EQ(m.unit(), 0.5);
  EXPECT_EQ(m.gp().outputs(), Eigen::Vector2d(0.0, 1.0));
  // The default amplitude is 1 in model units: the prior standard deviation is the unit.
  EXPECT_DOUBLE_EQ(m.prior_stddev(), 1.0);
}

// Given values are in the told units and become model units with the chain.
TEST(SignalModelTest, GivenStddevAndNoiseAreConvertedToModelUnits) {
  SignalModelOptions given;
  given.stddev = 0.5;
  given.noise_stddev = 0.01;
  given.lengthscales = {0.2, 0.4};
  SignalModel m = GatedModel(0.0, given);
  m.Add(Point2(0.5, 0.5), 0.25);                                  // unit 0.25
  const Eigen::VectorXd log_params = m.gp().kernel_log_params();  // [log s2, log l1, log l2]
  EXPECT_NEAR(log_params(0), 2.0 * std::log(0.5 / 0.25), 1e-12);
  EXPECT_NEAR(log_params(1), std::log(0.2), 1e-12);
  EXPECT_NEAR(log_params(2), std::log(0.4), 1e-12);
  EXPECT_NEAR(m.gp().noise_variance(),
              std::max(std::pow(0.01 / 0.25, 2), given.noise_floor * given.noise_floor), 1e-15);
  EXPECT_NEAR(m.prior_stddev(), 2.0, 1e-12);
}

// The fit rule: lengthscales at most their initial values with a prior about them, the
// amplitude at least its initial value and the largest squared output with a prior about the
// observed mean square, the noise at least the floor relative to the spread (or the given
// noise, if larger).
TEST(SignalModelTest, FitOptionsFollowTheRule) {
  SignalModelOptions options;
  options.noise_stddev = 0.05;
  SignalModel m = GatedModel(0.0, options);
  const double values[] = {0.5, 0.3, -0.2, 0.9};  // unit 0.5: outputs 1, 0.6, -0.4, 1.8
  for (int k = 0; k < 4; ++k) m.Add(Point2(0.1 * k, 0.3), values[k]);
  const double spread = (1.0 + 0.36 + 0.16 + 3.24) / 4.0;  // mean square of the outputs
  const HyperparameterFitOptions fit = m.FitOptions(HyperparameterFitOptions());
  ASSERT_EQ(fit.lower_log_bounds.size(), 3u);
  // amplitude >= max(1 (initial), 1.8^2 (the largest output squared))
  EXPECT_NEAR(fit.lower_log_bounds[0], std::log(1.8 * 1.8), 1e-12);
  EXPECT_NEAR(fit.kernel_priors[0].mean_log, std::log(spread), 1e-12);
  for (int j : {1, 2}) {
    EXPECT_NEAR(fit.upper_log_bounds[j], std::log(0.3), 1e-12);  // lengthscale <= 0.3
    EXPECT_NEAR(fit.kernel_priors[j].mean_log, std::log(0.3), 1e-12);
  }
  const double floor = options.noise_floor * options.noise_floor * spread;
  EXPECT_NEAR(fit.min_noise_variance, std::max(floor, std::pow(0.05 / 0.5, 2)), 1e-15);
  EXPECT_TRUE(fit.fit_noise);
  std::string error;
  EXPECT_TRUE(fit.IsValid(&error)) << error;
  // Not cautious: the lengthscales and the amplitude may move either way.
  options.cautious = false;
  SignalModel free = GatedModel(0.0, options);
  for (int k = 0; k < 4; ++k) free.Add(Point2(0.1 * k, 0.3), values[k]);
  const HyperparameterFitOptions loose = free.FitOptions(HyperparameterFitOptions());
  EXPECT_GT(loose.upper_log_bounds[1], std::log(1.0));
  EXPECT_LT(loose.lower_log_bounds[0], std::log(spread) - 1.0);
}

// The amplitude's floor follows the largest distance from the prior mean measured (in model
// units, so the same for the signal in any units), never below the initial value; without
// stddev_covers_measured (log format <= 7) the initial value alone. A refit keeps to it.
TEST(SignalModelTest, StddevCoversTheLargestDistanceMeasured) {
  const double values[] = {0.5, 0.3, -0.2, 1.5, 0.4};  // unit 0.5: outputs 1, 0.6, -0.4, 3, 0.8
  for (double scale : {1.0, 1000.0, 1.0 / 3.0}) {
    SignalModel m = GatedModel(0.0);
    for (int k = 0; k < 5; ++k) m.Add(Point2(0.2 * k, 0.1 * k), scale * values[k]);
    const HyperparameterFitOptions fit = m.FitOptions(HyperparameterFitOptions());
    EXPECT_NEAR(fit.lower_log_bounds[0], std::log(9.0), 1e-12) << scale;
    Rng fit_rng(4);
    ASSERT_TRUE(m.Refit(HyperparameterFitOptions(), fit_rng));
    EXPECT_GE(m.prior_stddev(), 3.0 * (1.0 - 1e-9)) << scale;
    EXPECT_GE(m.StddevToTold(m.prior_stddev()), scale * 1.5 * (1.0 - 1e-9)) << scale;
  }
  SignalModelOptions old;
  old.stddev_covers_measured = false;
  SignalModel m = GatedModel(0.0, old);
  for (int k = 0; k < 5; ++k) m.Add(Point2(0.2 * k, 0.1 * k), values[k]);
  EXPECT_NEAR(m.FitOptions(HyperparameterFitOptions()).lower_log_bounds[0], 0.0, 1e-12);
  // Outputs within the first one's distance leave the initial floor.
  SignalModel near = GatedModel(0.0);
  for (int k = 0; k < 3; ++k) near.Add(Point2(0.2 * k, 0.5), values[k]);  // outputs 1, 0.6, -0.4
  EXPECT_NEAR(near.FitOptions(HyperparameterFitOptions()).lower_log_bounds[0], 0.0, 1e-12);
  // Not cautious: no floor from the data either.
  SignalModelOptions free;
  free.cautious = false;
  SignalModel loose = GatedModel(0.0, free);
  for (int k = 0; k < 5; ++k) loose.Add(Point2(0.2 * k, 0.1 * k), values[k]);
  EXPECT_LT(loose.FitOptions(HyperparameterFitOptions()).lower_log_bounds[0], 0.0);
}

// Refits keep to the rule (a wiggly signal pulls the lengthscales down; none may grow), and a
// model with fit = false keeps what it was given.
TEST(SignalModelTest, RefitsAreCautiousAndFixedModelsStayFixed) {
  SignalModel m = GatedModel(0.0);
  SignalModelOptions fixed_options;
  fixed_options.fit = false;
  fixed_options.stddev = 2.0;
  SignalModel fixed = GatedModel(0.0, fixed_options);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 30; ++k) {
    const Eigen::Vector2d x(u(rng), u(rng));
    const double g = 1.0 + std::sin(15.0 * x(0)) + 0.3 * x(1);
    m.Add(x, g);
    fixed.Add(x, g);
  }
  const Eigen::VectorXd before = fixed.gp().kernel_log_params();
  Rng fit_rng(1);
  EXPECT_TRUE(m.Refit(HyperparameterFitOptions(), fit_rng));
  EXPECT_FALSE(fixed.Refit(HyperparameterFitOptions(), fit_rng));
  EXPECT_EQ(fixed.gp().kernel_log_params(), before);
  const Eigen::VectorXd p = m.gp().kernel_log_params();
  EXPECT_GE(p(0), -1e-9);
  EXPECT_LE(p(1), std::log(0.3) + 1e-9);
  EXPECT_LE(p(2), std::log(0.3) + 1e-9);
  EXPECT_LT(p(1), std::log(0.3) - 0.1);  // the sine's axis was shortened
  const Eigen::VectorXd v = m.gp().outputs();
  EXPECT_GE(m.gp().noise_variance(), 0.02 * 0.02 * v.squaredNorm() / v.size() * (1 - 1e-9));
}

// The indices of the lengthscales among a kernel's log-params, in the order of the coordinates.
std::vector<int> LengthscaleIndices(const Kernel& kernel) {
  std::vector<int> indices;
  const std::vector<ParamKind> kinds = kernel.ParamKinds();
  for (std::size_t j = 0; j < kinds.size(); ++j)
    if (kinds[j] == ParamKind::kLengthscale) indices.push_back(static_cast<int>(j));
  return indices;
}

// One action and one context: a signal that changes fast with the action and slowly with the
// context, observed over the whole context range.
SignalModel ContextModel(const SignalModelOptions& options) {
  SignalModel m(0.0, options, MakeSignalKernel(options, 1, 1), 2, 1, GaussianProcessOptions());
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 40; ++k) {
    const Eigen::Vector2d x(u(rng), u(rng));
    m.Add(x, 1.0 + std::sin(12.0 * x(0)) + 0.2 * x(1));
  }
  return m;
}

// A context coordinate's lengthscale may grow up to context_lengthscale_cap (default 1, the
// whole range) when the lengthscales are not given; the action's never grows; given
// lengthscales stay caps, and a cap <= 0.3 keeps the context's at most 0.3 (log format <= 6).
TEST(SignalModelTest, ContextLengthscalesMayGrowToTheirCap) {
  const SignalModel m = ContextModel(SignalModelOptions());
  const std::vector<int> ls = LengthscaleIndices(m.gp().kernel());
  ASSERT_EQ(ls.size(), 2u);
  HyperparameterFitOptions fit = m.FitOptions(HyperparameterFitOptions());
  EXPECT_NEAR(fit.upper_log_bounds[ls[0]], std::log(0.3), 1e-12);  // the action's
  EXPECT_NEAR(fit.upper_log_bounds[ls[1]], std::log(1.0), 1e-12);  // the context's
  EXPECT_NEAR(fit.kernel_priors[ls[1]].mean_log, std::log(0.3), 1e-12);
  SignalModelOptions capped;
  capped.context_lengthscale_cap = 0.6;
  fit = ContextModel(capped).FitOptions(HyperparameterFitOptions());
  EXPECT_NEAR(fit.upper_log_bounds[ls[1]], std::log(0.6), 1e-12);
  SignalModelOptions old;
  old.context_lengthscale_cap = 0.0;
  fit = ContextModel(old).FitOptions(HyperparameterFitOptions());
  EXPECT_NEAR(fit.upper_log_bounds[ls[1]], std::log(0.3), 1e-12);
  SignalModelOptions given;
  given.lengthscales = {0.3, 0.5};
  fit = ContextModel(given).FitOptions(HyperparameterFitOptions());
  EXPECT_NEAR(fit.upper_log_bounds[ls[0]], std::log(0.3), 1e-12);
  EXPECT_NEAR(fit.upper_log_bounds[ls[1]], std::log(0.5), 1e-12);

  // Fitted: the slow context lengthens beyond 0.3 but not beyond 1; the action stays <= 0.3.
  Rng fit_rng(2);
  SignalModel fitted = ContextModel(SignalModelOptions());
  ASSERT_TRUE(fitted.Refit(HyperparameterFitOptions(), fit_rng));
  const Eigen::VectorXd p = fitted.gp().kernel_log_params();
  EXPECT_LE(p(ls[0]), std::log(0.3) + 1e-9);
  EXPECT_GT(p(ls[1]), std::log(0.3) + 0.1);
  EXPECT_LE(p(ls[1]), std::log(1.0) + 1e-9);
  SignalModel held = ContextModel(old);
  ASSERT_TRUE(held.Refit(HyperparameterFitOptions(), fit_rng));
  EXPECT_LE(held.gp().kernel_log_params()(ls[1]), std::log(0.3) + 1e-9);
}

// The same signal told in units scaled by a power of two gives the same model outputs, fit
// options and fitted hyperparameters bit for bit; scaled by another factor and shifted, the
// same to round-off.
TEST(SignalModelTest, ScaledAndShiftedSignalsGiveTheSameModel) {
  auto fitted = [](double scale, double shift) {
    SignalModel m = GatedModel(scale * 0.2 + shift);
    std::mt19937_64 rng(8);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int k = 0; k < 12; ++k) {
      const Eigen::Vector2d x(u(rng), u(rng));
      m.Add(x, scale * (0.8 - (x - Eigen::Vector2d(0.4, 0.5)).squaredNorm()) + shift);
    }
    Rng fit_rng(2);
    m.Refit(HyperparameterFitOptions(), fit_rng);
    return m;
  };
  const SignalModel base = fitted(1.0, 0.0);
  for (double scale : {std::ldexp(1.0, -20), 0.25, std::ldexp(1.0, 20)}) {
    const SignalModel scaled = fitted(scale, 0.0);
    EXPECT_EQ(scaled.gp().outputs(), base.gp().outputs()) << scale;
    EXPECT_EQ(scaled.gp().kernel_log_params(), base.gp().kernel_log_params()) << scale;
    EXPECT_EQ(scaled.gp().noise_variance(), base.gp().noise_variance()) << scale;
    EXPECT_EQ(scaled.threshold(), base.threshold());
  }
  for (const auto& [scale, shift] :
       {std::pair<double, double>{1e-6, 0.0}, {1e6, 3.0}, {1.8, -32.0}, {1.0, 273.15}}) {
    const SignalModel moved = fitted(scale, shift);
    EXPECT_LT((moved.gp().outputs() - base.gp().outputs()).norm(), 1e-12) << scale;
    EXPECT_LT((moved.gp().kernel_log_params() - base.gp().kernel_log_params()).norm(), 1e-6)
        << scale;
    EXPECT_NEAR(moved.threshold(), base.threshold(), 1e-12) << scale;
  }
}

TEST(SignalModelTest, RefusedValuesChangeNothing) {
  SignalModel m = GatedModel(0.0);
  EXPECT_THROW(m.Add(Point2(0.5, 0.5), kNaN), std::invalid_argument);
  EXPECT_EQ(m.gp().num_observations(), 0);
  EXPECT_EQ(m.unit(), 1.0);
  EXPECT_THROW(m.Add(Eigen::VectorXd::Constant(3, 0.5), 1.0), std::invalid_argument);
  EXPECT_EQ(m.unit(), 1.0);  // the unit it would have set is undone
  EXPECT_EQ(m.gp().num_observations(), 0);
  EXPECT_THROW(SignalModel(kNaN, SignalModelOptions(), MakeSignalKernel(SignalModelOptions(), 2, 0),
                           2, 0, GaussianProcessOptions()),
               std::invalid_argument);
  // More context coordinates than inputs.
  EXPECT_THROW(SignalModel(0.0, SignalModelOptions(), MakeSignalKernel(SignalModelOptions(), 2, 0),
                           2, 3, GaussianProcessOptions()),
               std::invalid_argument);
}

TEST(SignalModelTest, KernelsFollowTheOptions) {
  SignalModelOptions options;
  EXPECT_EQ(MakeSignalKernel(options, 2, 0)->Describe(),
            MakeMatern52({0, 1}, true, 1.0, 0.3)->Describe());
  options.kernel = "se";
  options.lengthscales = {0.1};
  const auto with_context = MakeSignalKernel(options, 2, 1);
  EXPECT_EQ(with_context->NumParams(), 5);  // [s2, l1, l2] of the actions, [s2, l3] of the context
  for (int j = 0; j < with_context->NumParams(); ++j) {
    if (with_context->ParamKinds()[static_cast<std::size_t>(j)] == ParamKind::kLengthscale) {
      EXPECT_NEAR(with_context->GetLogParams()(j), std::log(0.1), 1e-12);
    }
  }
  options.lengthscales = {0.1, 0.2};
  EXPECT_THROW(MakeSignalKernel(options, 2, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gpbandit
