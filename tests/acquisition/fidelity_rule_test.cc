// The fidelity rules: MF-GP-UCB's thresholds and choice, the information about the target per
// unit cost, both by hand on small posteriors; the usefulness gate; and the rules on the joint
// posterior of a GP with the autoregressive kernel, whose useless simulator leaves only the
// target. Bad input is refused naming the field and value.
#include "gpbandit/acquisition/fidelity_rule.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/fidelity_kernels.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

// Independent fidelities with standard deviations sd and no gate.
FidelityPosterior Diagonal(const std::vector<double>& sd) {
  FidelityPosterior p;
  const int F = static_cast<int>(sd.size());
  p.mean = Eigen::VectorXd::Zero(F);
  p.covariance = Eigen::MatrixXd::Zero(F, F);
  for (int m = 0; m < F; ++m) p.covariance(m, m) = sd[m] * sd[m];
  return p;
}

const std::vector<double> kCosts = {1.0, 10.0, 100.0};

TEST(FidelityRuleTest, ThresholdsComeFromTheCostsAndTheBiases) {
  const std::vector<double> gamma = ThresholdsFromCosts(kCosts, {0.5, 0.2});
  ASSERT_EQ(gamma.size(), 2u);
  EXPECT_NEAR(gamma[0], std::sqrt(0.1) * 0.5, 1e-15);
  EXPECT_NEAR(gamma[1], std::sqrt(0.1) * 0.2, 1e-15);
}

TEST(FidelityRuleTest, ThresholdRuleTakesTheCheapestFidelityStillUncertainEnough) {
  // beta = 4: the width is 2 sigma; gamma = (0.158, 0.063).
  ThresholdRuleOptions options;
  options.beta = 4.0;
  options.zeta = {0.5, 0.2};
  EXPECT_EQ(ThresholdRuleFidelity(Diagonal({0.1, 0.1, 0.1}), kCosts, options).fidelity, 0);
  EXPECT_EQ(ThresholdRuleFidelity(Diagonal({0.05, 0.05, 0.1}), kCosts, options).fidelity, 1);
  const FidelityChoice target = ThresholdRuleFidelity(Diagonal({0.05, 0.02, 0.1}), kCosts, options);
  EXPECT_EQ(target.fidelity, 2);
  EXPECT_NEAR(target.scores(0), 0.1 - std::sqrt(0.1) * 0.5, 1e-15);
  EXPECT_NEAR(target.scores(1), 0.04 - std::sqrt(0.1) * 0.2, 1e-15);
  EXPECT_NEAR(target.scores(2), 0.2, 1e-15);
  // Explicit thresholds replace the cost-derived ones.
  options.gamma = {1.0, 0.0};
  EXPECT_EQ(ThresholdRuleFidelity(Diagonal({0.1, 0.0, 0.1}), kCosts, options).fidelity, 1);
}

TEST(FidelityRuleTest, MultiFidelityUpperBoundIsTheSmallestOfTheBounds) {
  FidelityPosterior p = Diagonal({0.1, 0.2, 0.5});
  p.mean << 1.0, 0.7, 0.4;
  ThresholdRuleOptions options;
  options.beta = 4.0;
  options.zeta = {0.3, 0.05};
  // 1.0 + 0.2 + 0.3 = 1.5, 0.7 + 0.4 + 0.05 = 1.15, 0.4 + 1.0 + 0 = 1.4.
  EXPECT_NEAR(MultiFidelityUpperBound(p, options), 1.15, 1e-15);
  p.prior_correlation = Eigen::Vector3d(0.9, 0.1, 1.0);  // fidelity 1 gated out
  EXPECT_NEAR(MultiFidelityUpperBound(p, options), 1.4, 1e-15);
}

TEST(FidelityRuleTest, InformationAboutTheTargetByHand) {
  FidelityPosterior p;
  p.mean = Eigen::Vector2d::Zero();
  p.covariance.resize(2, 2);
  p.covariance << 1.0, 0.9,  //
      0.9, 1.0;
  // I = 0.5 log(var_t / (var_t - cov^2 / (var_m + noise))).
  EXPECT_NEAR(InformationAboutTarget(p, 0, 0.01), 0.5 * std::log(1.0 / (1.0 - 0.81 / 1.01)), 1e-14);
  EXPECT_NEAR(InformationAboutTarget(p, 1, 0.01), 0.5 * std::log(1.01 / 0.01), 1e-12);
  p.covariance(0, 1) = p.covariance(1, 0) = 0.0;
  EXPECT_EQ(InformationAboutTarget(p, 0, 0.01), 0.0);
  p.covariance(1, 1) = 0.0;  // the target known at x
  EXPECT_EQ(InformationAboutTarget(p, 1, 0.01), 0.0);
}

TEST(FidelityRuleTest, InformationRuleWeighsInformationAgainstCost) {
  FidelityPosterior p;
  p.mean = Eigen::Vector2d::Zero();
  p.covariance.resize(2, 2);
  p.covariance << 1.0, 0.9,  //
      0.9, 1.0;
  InformationRuleOptions options;
  options.noise = {0.01, 0.01};
  // Simulator: 0.78 nats for 1; target: 2.31 nats for 20: the simulator.
  FidelityChoice choice = InformationRuleFidelity(p, {1.0, 20.0}, options);
  EXPECT_EQ(choice.fidelity, 0);
  EXPECT_NEAR(choice.scores(0), InformationAboutTarget(p, 0, 0.01), 1e-15);
  EXPECT_NEAR(choice.scores(1), InformationAboutTarget(p, 1, 0.01) / 20.0, 1e-15);
  // At cost ratio 2 the target is worth more per unit.
  EXPECT_EQ(InformationRuleFidelity(p, {1.0, 2.0}, options).fidelity, 1);
  // A simulator that tells nothing about the target is never chosen, however cheap.
  p.covariance(0, 1) = p.covariance(1, 0) = 0.0;
  EXPECT_EQ(InformationRuleFidelity(p, {1e-6, 1.0}, options).fidelity, 1);
}

TEST(FidelityRuleTest, TheGateExcludesLowAndNegativeCorrelations) {
  const Eigen::Matrix2d prior = (Eigen::Matrix2d() << 4.0, -1.8, -1.8, 1.0).finished();
  const Eigen::VectorXd corr = CorrelationWithTarget(prior);
  EXPECT_NEAR(corr(0), -0.9, 1e-15);
  EXPECT_EQ(corr(1), 1.0);
  FidelityPosterior p;
  p.mean = Eigen::Vector2d::Zero();
  p.covariance = prior;
  p.prior_correlation = corr;
  EXPECT_EQ(UsableFidelities(p, 0.3), (std::vector<bool>{false, true}));
  InformationRuleOptions info;
  info.noise = {0.01, 0.01};
  EXPECT_EQ(InformationRuleFidelity(p, {1.0, 100.0}, info).fidelity, 1);
  ThresholdRuleOptions threshold;
  threshold.zeta = {0.0};
  EXPECT_EQ(ThresholdRuleFidelity(p, {1.0, 100.0}, threshold).fidelity, 1);
  // Without the gate (min_correlation = -1) both would take the cheap, informative simulator.
  info.min_correlation = -1.0;
  threshold.min_correlation = -1.0;
  EXPECT_EQ(InformationRuleFidelity(p, {1.0, 100.0}, info).fidelity, 0);
  EXPECT_EQ(ThresholdRuleFidelity(p, {1.0, 100.0}, threshold).fidelity, 0);
}

// A GP over (x, fidelity) with the autoregressive kernel at the given rho, simulator runs at 7
// points of [0, 0.4] and target runs at 3 of [0, 1].
GaussianProcess JointModel(double rho) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0}, true, 1.0, 0.2));
  parts.push_back(MakeSquaredExponential({0}, true, 0.05, 0.2));
  GaussianProcessOptions options;
  options.standardize_outputs = false;
  options.noise_variance = 1e-3;
  GaussianProcess gp(
      std::make_unique<AutoregressiveKernel>(std::move(parts), 1, std::vector<double>{rho}), 2,
      options);
  for (int i = 0; i < 7; ++i) {
    const double x = i / 15.0;
    gp.AddObservation(Eigen::Vector2d(x, 0.0), std::sin(6.0 * x));
  }
  for (double x : {0.1, 0.5, 0.9}) gp.AddObservation(Eigen::Vector2d(x, 1.0), std::cos(6.0 * x));
  return gp;
}

FidelityPosterior PosteriorAt(const GaussianProcess& gp, double x) {
  Eigen::MatrixXd X(2, 2);
  X << x, x,  //
      0.0, 1.0;
  Eigen::VectorXd means, variances;
  gp.Predict(X, &means, &variances);
  FidelityPosterior p;
  p.mean = means;
  p.covariance = gp.Covariance(X);
  p.prior_correlation = CorrelationWithTarget(FidelityPriorCovariance(gp.kernel(), X.col(0), 1, 2));
  return p;
}

TEST(FidelityRuleTest, OnAJointModelAUselessSimulatorLeavesOnlyTheTarget) {
  // At x = 0.7, between the target's runs and beyond the simulator's, with costs 1 and 20.
  const std::vector<double> costs = {1.0, 20.0};
  InformationRuleOptions info;
  info.noise = {1e-3, 1e-3};
  ThresholdRuleOptions threshold;
  threshold.zeta = {0.05};
  for (double rho : {0.0, 0.02, -1.0}) {
    const FidelityPosterior p = PosteriorAt(JointModel(rho), 0.7);
    EXPECT_EQ(InformationRuleFidelity(p, costs, info).fidelity, 1) << "rho " << rho;
    EXPECT_EQ(ThresholdRuleFidelity(p, costs, threshold).fidelity, 1) << "rho " << rho;
  }
  // A related simulator is queried there: it is cheap and tells much about the target.
  const FidelityPosterior related = PosteriorAt(JointModel(0.9), 0.7);
  EXPECT_GT(related.prior_correlation(0), 0.9);
  EXPECT_EQ(InformationRuleFidelity(related, costs, info).fidelity, 0);
  EXPECT_EQ(ThresholdRuleFidelity(related, costs, threshold).fidelity, 0);
}

TEST(FidelityRuleTest, BadInputIsRefusedNamingTheFieldAndValue) {
  const FidelityPosterior p = Diagonal({0.1, 0.1});
  ThresholdRuleOptions threshold;
  threshold.zeta = {0.1};
  InformationRuleOptions info;
  info.noise = {0.01, 0.01};
  ExpectInvalid([&] { ValidateFidelityCosts({}); }, "costs is empty");
  ExpectInvalid([&] { ValidateFidelityCosts({-1.0, 2.0}); }, "costs[0] = -1");
  ExpectInvalid(
      [&] {
        ValidateFidelityCosts({2.0, 1.0});
      },
      "costs[1] = 1 is not above costs[0] = 2");
  ExpectInvalid([&] { ValidateFidelityCosts({1.0, 1.0}); }, "costs[1] = 1 is not above");
  ExpectInvalid([&] { ThresholdRuleFidelity(p, {1.0, -3.0}, threshold); }, "costs[1] = -3");
  ExpectInvalid([&] { InformationRuleFidelity(p, {5.0, 2.0}, info); }, "costs[1] = 2");
  ExpectInvalid(
      [&] {
        ThresholdRuleFidelity(p, {1.0, 2.0, 3.0}, threshold);
      },
      "posterior.mean has 2 entries, expected 3");
  ThresholdRuleOptions bad = threshold;
  bad.zeta = {-0.1};
  ExpectInvalid([&] { ThresholdRuleFidelity(p, {1.0, 2.0}, bad); }, "zeta[0] = -0.1");
  bad = threshold;
  bad.beta = 0.0;
  ExpectInvalid([&] { ThresholdRuleFidelity(p, {1.0, 2.0}, bad); }, "beta = 0");
  bad = threshold;
  bad.min_correlation = 1.5;
  ExpectInvalid([&] { ThresholdRuleFidelity(p, {1.0, 2.0}, bad); }, "min_correlation = 1.5");
  InformationRuleOptions bad_info = info;
  bad_info.noise = {0.01, 0.0};
  ExpectInvalid([&] { InformationRuleFidelity(p, {1.0, 2.0}, bad_info); }, "noise[1] = 0");
  bad_info.noise = {0.01};
  ExpectInvalid([&] { InformationRuleFidelity(p, {1.0, 2.0}, bad_info); }, "noise has 1 entries");
  FidelityPosterior negative = p;
  negative.covariance(1, 1) = -0.5;
  ExpectInvalid(
      [&] {
        InformationRuleFidelity(negative, {1.0, 2.0}, info);
      },
      "posterior.covariance(1, 1) = -0.5");
  ExpectInvalid([&] { InformationAboutTarget(p, 2, 0.01); }, "fidelity m = 2");
}

}  // namespace
}  // namespace gpbandit
