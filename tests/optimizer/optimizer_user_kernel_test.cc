// A kernel with a parameter kind gpbandit does not know, added at run time: the rational
// quadratic kernel with its shape alpha. This file is all that adding it takes: the kernel's own
// code and one registration (its kind and its factory). The tests then fit it through
// FitHyperparameters and run it in an Optimizer, whose fits bound alpha by its kind's range
// (or by OptimizerOptions::fit.kind_ranges, which the log's header keeps for resuming).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/kernel/kernel_registry.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

// ---- The kernel's own code -------------------------------------------------------------------

// k(a, b) = s2 (1 + r^2 / (2 alpha))^-alpha, r^2 = sum_{i in dims} (a_i - b_i)^2 / l^2
// (Rasmussen & Williams 2006, eq. 4.19): a scale mixture of squared exponentials, which it
// approaches as alpha -> infinity. Log-params [log s2, log l, log alpha]. Only the pairwise
// definitions: every fast path uses the Kernel interface's generic defaults.
class RationalQuadratic : public Kernel {
 public:
  RationalQuadratic(std::vector<int> dims, double variance, double lengthscale, double alpha)
      : dims_(std::move(dims)),
        log_params_(Eigen::Vector3d(std::log(variance), std::log(lengthscale), std::log(alpha))) {
    CheckDims("rq", dims_);
  }

  static ParamKind AlphaKind() {
    static const ParamKind kind = ParamKind::Register(
        {"alpha",
         "the shape of a rational-quadratic kernel (large: nearly squared exponential)",
         {0.1, 10.0, 0.3, 3.0},
         OriginalUnits::kNone,
         CautiousDirection::kFree});
    return kind;
  }

  std::unique_ptr<Kernel> Clone() const override {
    return std::make_unique<RationalQuadratic>(*this);
  }
  std::string Describe() const override { return "rq(dims=" + FormatDims(dims_) + ")"; }
  int MinInputDim() const override { return 1 + *std::max_element(dims_.begin(), dims_.end()); }
  int NumParams() const override { return 3; }
  Eigen::VectorXd GetLogParams() const override { return log_params_; }
  void SetLogParams(const ConstVectorRef& log_params) override {
    CheckLogParams(Describe(), 3, log_params);
    log_params_ = log_params;
  }
  std::vector<std::string> ParamNames() const override {
    return {"rq.log_variance", "rq.log_lengthscale", "rq.log_alpha"};
  }
  std::vector<ParamKind> ParamKinds() const override {
    return {ParamKind::kSignalVariance, ParamKind::kLengthscale, AlphaKind()};
  }

  double Value(const ConstVectorRef& a, const ConstVectorRef& b) const override {
    return variance() * std::pow(Base(a, b), -alpha());
  }
  // dk/da_i = -s2 base^(-alpha-1) (a_i - b_i) / l^2.
  void AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b, double scale,
                           VectorRef grad) const override {
    const double l = lengthscale();
    const double slope = -variance() * std::pow(Base(a, b), -alpha() - 1.0) / (l * l);
    for (int i : dims_) grad(i) += scale * slope * (a(i) - b(i));
  }
  // d/dlog s2 = k; d/dlog l = s2 r^2 base^(-alpha-1); d/dlog alpha = k (r^2 / (2 base) -
  // alpha log base).
  void GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                         VectorRef grad) const override {
    const double base = Base(a, b), r2 = 2.0 * alpha() * (base - 1.0);
    const double k = Value(a, b);
    grad(0) = k;
    grad(1) = variance() * r2 * std::pow(base, -alpha() - 1.0);
    grad(2) = k * (r2 / (2.0 * base) - alpha() * std::log(base));
  }

 private:
  double variance() const { return std::exp(log_params_(0)); }
  double lengthscale() const { return std::exp(log_params_(1)); }
  double alpha() const { return std::exp(log_params_(2)); }
  // 1 + r^2 / (2 alpha).
  double Base(const ConstVectorRef& a, const ConstVectorRef& b) const {
    double r2 = 0.0;
    for (int i : dims_) r2 += (a(i) - b(i)) * (a(i) - b(i));
    return 1.0 + r2 / (lengthscale() * lengthscale() * 2.0 * alpha());
  }

  std::vector<int> dims_;
  Eigen::VectorXd log_params_;
};

// ---- Its one registration ---------------------------------------------------------------------

// Its kind first (so that specs and fit options may name it), then its factory.
void RegisterRationalQuadratic() {
  static const bool registered = [] {
    RationalQuadratic::AlphaKind();
    KernelRegistry::Default().Register(
        "rq",
        [](const KernelSpec& s) {
          return std::make_unique<RationalQuadratic>(
              s.dims, s.variance, s.lengthscale,
              s.InitialValue(RationalQuadratic::AlphaKind().name(), 1.0));
        },
        "rational quadratic s2 (1 + r^2 / (2 alpha))^-alpha");
    return true;
  }();
  static_cast<void>(registered);
}

// ---- Tests ------------------------------------------------------------------------------------

std::unique_ptr<Kernel> MakeRq(std::vector<int> dims, double alpha = 1.0) {
  RegisterRationalQuadratic();
  KernelSpec spec;
  spec.dims = std::move(dims);
  spec.lengthscale = 0.4;
  spec.initial_values = {{"alpha", alpha}};
  return KernelRegistry::Default().Create("rq", spec);
}

// A smooth test function on [0, 1]^2.
double Bumps(const Eigen::VectorXd& x) {
  return std::sin(3.0 * x(0)) * std::cos(2.0 * x(1)) + 0.5 * x(0) * x(1);
}

TEST(OptimizerUserKernelTest, RegistersWithItsKindAndHasCorrectGradients) {
  EXPECT_FALSE(KernelRegistry::Default().Contains("rq"));
  const std::unique_ptr<Kernel> kernel = MakeRq({0, 1}, 2.0);
  EXPECT_TRUE(KernelRegistry::Default().Contains("rq"));
  EXPECT_EQ(KernelRegistry::Default().Names().back(), "rq");
  EXPECT_EQ(kernel->Describe(), "rq(dims=0,1)");
  EXPECT_NEAR(std::exp(kernel->GetLogParams()(2)), 2.0, 1e-15);
  const std::vector<ParamKind> kinds = kernel->ParamKinds();
  EXPECT_EQ(kinds[2].name(), "alpha");
  EXPECT_EQ(ParamKind::FromName("alpha"), kinds[2]);

  // The gradients the fit and the maximizer rely on, against finite differences.
  const Eigen::Vector2d a(0.3, 0.8), b(0.6, 0.1);
  Eigen::VectorXd grad_params(3);
  kernel->GradientLogParams(a, b, grad_params);
  testing::ExpectGradientNear(
      [&](const Eigen::VectorXd& log_params) {
        std::unique_ptr<Kernel> k = kernel->Clone();
        k->SetLogParams(log_params);
        return k->Value(a, b);
      },
      kernel->GetLogParams(), grad_params, 1e-6, 1e-9, "log-params");
  Eigen::VectorXd grad_a = Eigen::VectorXd::Zero(2);
  kernel->AccumulateGradientA(a, b, 1.0, grad_a);
  testing::ExpectGradientNear([&](const Eigen::VectorXd& x) { return kernel->Value(x, b); }, a,
                              grad_a, 1e-6, 1e-9, "a");
}

// The fit bounds alpha by its kind's registered range [0.1, 10] without being told: data from
// a smooth function push alpha up (towards the squared exponential) until the range stops it.
TEST(OptimizerUserKernelTest, FitHyperparametersBoundsTheNewKindByItsRange) {
  GaussianProcess gp(MakeRq({0, 1}), 2);
  Rng data_rng(testing::TestSeed(91));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 30, 0.0, 1.0, data_rng);
  Eigen::VectorXd y(X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j) y(j) = Bumps(X.col(j));
  gp.AddObservations(X, y);
  const double before = gp.LogMarginalLikelihood();
  Rng rng(3);
  const HyperparameterFitReport report = FitHyperparameters(HyperparameterFitOptions(), rng, &gp);
  ASSERT_TRUE(report.success) << report.BriefReport();
  EXPECT_GT(report.log_marginal_likelihood, before);
  EXPECT_THAT(report.params_at_bound, ::testing::Contains("rq.log_alpha at upper bound 2.30259"))
      << report.BriefReport();  // log 10
  // With the range overridden by name, the same fit stops at the new bound.
  HyperparameterFitOptions narrow;
  narrow.kind_ranges["alpha"] = {0.5, 2.0, 0.6, 1.5};
  GaussianProcess again(MakeRq({0, 1}), 2);
  again.AddObservations(X, y);
  Rng rng_again(3);
  const HyperparameterFitReport narrowed = FitHyperparameters(narrow, rng_again, &again);
  ASSERT_TRUE(narrowed.success) << narrowed.BriefReport();
  EXPECT_THAT(narrowed.params_at_bound,
              ::testing::Contains("rq.log_alpha at upper bound 0.693147"))  // log 2
      << narrowed.BriefReport();
}

// Optimizer rounds on [0, 1]^2 with refits; returns the optimizer.
std::unique_ptr<Optimizer> RunRq(const OptimizerOptions& options, int rounds) {
  auto optimizer =
      std::make_unique<Optimizer>(Domain::Box(Eigen::Vector2d::Zero(), Eigen::Vector2d::Ones()),
                                  MakeRq({0, 1}), "gp-ucb", StrategyParams(), options);
  for (int round = 0; round < rounds; ++round) {
    const Eigen::VectorXd x = optimizer->Ask();
    optimizer->Tell(x, Bumps(x));
  }
  return optimizer;
}

TEST(OptimizerUserKernelTest, OptimizerFitsTheNewKindWithinItsRange) {
  const std::unique_ptr<Optimizer> optimizer = RunRq(testing::CheapOptions(5), 15);
  ASSERT_TRUE(optimizer->has_fit_report());
  const HyperparameterFitReport report = optimizer->last_fit_report();
  EXPECT_TRUE(report.success) << report.BriefReport();
  const double log_alpha = optimizer->model().kernel_log_params()(2);
  EXPECT_GE(log_alpha, std::log(0.1));
  EXPECT_LE(log_alpha, std::log(10.0));
  EXPECT_GT(optimizer->Best().observed_reward, 0.9);  // the maximum of Bumps is about 1.07
}

// fit.kind_ranges reaches the Optimizer's fits and its log's header, so that a run resumed from
// the log refits exactly as the uninterrupted one.
TEST(OptimizerUserKernelTest, KindRangesAreLoggedAndResumeExactly) {
  OptimizerOptions options = testing::CheapOptions(6);
  options.fit.kind_ranges["alpha"] = {3.0, 4.0, 3.2, 3.8};
  const std::string path = testing::TempLogPath("rq_kind_ranges");
  options.log_path = path;
  std::unique_ptr<Optimizer> first = RunRq(options, 8);
  const double log_alpha = first->model().kernel_log_params()(2);
  EXPECT_GE(log_alpha, std::log(3.0));
  EXPECT_LE(log_alpha, std::log(4.0));
  EXPECT_THAT(
      testing::ReadFile(path),
      ::testing::HasSubstr(
          R"("kind_ranges":{"alpha":{"max":4.0,"min":3.0,"start_max":3.8,"start_min":3.2}})"));
  first.reset();
  std::unique_ptr<Optimizer> resumed = Optimizer::Resume(path, MakeRq({0, 1}));
  options.log_path.clear();
  std::unique_ptr<Optimizer> uninterrupted = RunRq(options, 8);
  for (int round = 0; round < 6; ++round) {
    const Eigen::VectorXd x = resumed->Ask();
    resumed->Tell(x, Bumps(x));
    const Eigen::VectorXd y = uninterrupted->Ask();
    uninterrupted->Tell(y, Bumps(y));
  }
  std::remove(path.c_str());
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  EXPECT_EQ(resumed->Fingerprint(), uninterrupted->Fingerprint());
}

}  // namespace
}  // namespace gpbandit
