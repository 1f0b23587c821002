// A safety signal's joint model over (x, fidelity) (model/signal_model.h, SignalFidelity): the
// decisions' input at the target, the cap at the largest target value, the gate that leaves an
// unrelated fidelity out of the decision model, and the cautious floor of the target's prior
// variance after a fit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpbandit/kernel/fidelity_kernels.h"
#include "gpbandit/numerics/random.h"
#include "model/default_model.h"
#include "model/signal_model.h"

namespace gpbandit {
namespace {

FidelityOptions TwoLevels(FidelityModel model = FidelityModel::kAutoregressive) {
  FidelityOptions f;
  f.levels = {{"sim", 1.0}, {"robot", 10.0}};
  f.model = model;
  return f;
}

// Threshold 0 over a 1-D action, the fidelity at coordinate 1, the target 1.
SignalModel Joint(FidelityModel model = FidelityModel::kAutoregressive) {
  const SignalModelOptions options;
  return SignalModel(0.0, options,
                     WithFidelityKernel(MakeSignalKernel(options, 1, 0), TwoLevels(model), 1), 2, 0,
                     GaussianProcessOptions(), SignalFidelity{1, 1, 0.3});
}

Eigen::VectorXd At(double x, int fidelity) { return Eigen::Vector2d(x, fidelity); }

int IndexOfKind(const Kernel& kernel, ParamKind kind) {
  const std::vector<ParamKind> kinds = kernel.ParamKinds();
  for (std::size_t j = 0; j < kinds.size(); ++j)
    if (kinds[j] == kind) return static_cast<int>(j);
  return -1;
}

TEST(SignalModelFidelityTest, DecisionsReadTheTargetAndTheCapIsTheTargetsLargestValue) {
  SignalModel m = Joint();
  EXPECT_EQ(m.AtTarget(Eigen::VectorXd::Constant(1, 0.25)), At(0.25, 1));
  m.Add(At(0.5, 0), 2.0);                                // the unit: 2
  EXPECT_NEAR(m.prior_stddev(), std::sqrt(2.0), 1e-12);  // v = 1: below the initial floor
  m.Add(At(0.4, 0), 3.0);
  // Before any target measurement the cap is the largest over every fidelity.
  EXPECT_EQ(m.max_observed(), 1.5);
  m.Add(At(0.5, 1), 1.0);
  EXPECT_EQ(m.max_observed(), 0.5);  // 1.0 / 2, the simulator's 1.5 does not count
  // The initial autoregressive relation: rho = 1, both parts of amplitude 1, so the target's
  // prior variance is 2 and its correlation with the simulator 1 / sqrt(2); the cautious floor
  // then raises the variance to the largest v^2 measured, 1.5^2, scaling both parts alike (the
  // correlation stays).
  EXPECT_NEAR(m.prior_stddev(), 1.5, 1e-12);
  ASSERT_EQ(m.TargetCorrelations().size(), 1u);
  EXPECT_NEAR(m.TargetCorrelations()[0], 1.0 / std::sqrt(2.0), 1e-12);
  EXPECT_EQ(&m.decision_gp(), &m.gp());  // above min_correlation: every row decides
}

TEST(SignalModelFidelityTest, AFidelityBelowMinCorrelationIsLeftOutOfTheDecisions) {
  SignalModel m = Joint();
  m.Add(At(0.5, 1), 1.0);
  m.Add(At(0.3, 0), -0.5);
  m.Add(At(0.7, 0), 2.0);
  m.Add(At(0.6, 1), 0.8);
  Eigen::VectorXd log_params = m.gp().kernel_log_params();
  const int rho = IndexOfKind(m.gp().kernel(), FidelityFactorKind());
  ASSERT_GE(rho, 0);
  log_params(rho) = 0.1;  // stored as it is: correlation 0.1 / sqrt(0.01 + 1) < 0.3
  m.SetHyperparameters(log_params, m.gp().noise_variance());
  EXPECT_NEAR(m.TargetCorrelations()[0], 0.1 / std::sqrt(1.01), 1e-12);
  ASSERT_NE(&m.decision_gp(), &m.gp());
  EXPECT_EQ(m.decision_gp().num_observations(), 2);
  // The decision model is the same kernel on the target's rows alone, built independently here.
  GaussianProcess target(m.gp().kernel().Clone(), 2, m.gp().options());
  target.SetHyperparameters(log_params, m.gp().noise_variance());
  target.AddObservation(At(0.5, 1), 1.0);
  target.AddObservation(At(0.6, 1), 0.8);
  for (double x : {0.1, 0.55, 0.9}) {
    double mean = 0, variance = 0, expected_mean = 0, expected_variance = 0;
    m.decision_gp().MeanAndVariance(At(x, 1), &mean, &variance);
    target.MeanAndVariance(At(x, 1), &expected_mean, &expected_variance);
    EXPECT_NEAR(mean, expected_mean, 1e-12) << x;
    EXPECT_NEAR(variance, expected_variance, 1e-12) << x;
  }
  // A relation above the gate again: every row decides.
  log_params(rho) = 1.0;
  m.SetHyperparameters(log_params, m.gp().noise_variance());
  EXPECT_EQ(&m.decision_gp(), &m.gp());
}

// A simulator unrelated to the target: whatever the fit makes of rho, the target's prior
// variance stays at least the cautious floor, max(1, the largest v^2 measured).
TEST(SignalModelFidelityTest, CautiousFitsKeepTheTargetsPriorVarianceAtTheFloor) {
  for (const FidelityModel model : {FidelityModel::kAutoregressive, FidelityModel::kIcm}) {
    SignalModel m = Joint(model);
    Rng data(3);
    std::normal_distribution<double> normal(0.0, 1.0);
    double largest = 0.0;
    m.Add(At(0.5, 1), 1.0);  // the unit: 1
    for (int i = 0; i < 12; ++i) {
      const double x = (i + 0.5) / 12.0;
      const double sim = 3.0 * normal(data), robot = 1.0 + 0.5 * std::sin(9 * x);
      m.Add(At(x, 0), sim);
      m.Add(At(x, 1), robot);
      largest = std::max({largest, sim * sim, robot * robot});
    }
    Rng rng(5);
    ASSERT_TRUE(m.Refit(HyperparameterFitOptions(), rng));
    EXPECT_GE(m.prior_stddev() * m.prior_stddev(), std::max(1.0, largest) * (1 - 1e-9))
        << FidelityModelName(model);
  }
}

}  // namespace
}  // namespace gpbandit
