// The fidelity gate on the model (model/fidelity_gate.h): which fitted relations close it, and
// the decoupled refit, whose target posterior must equal the posterior of the target's own
// observations (computed here from the kernel's values by a direct solve).
#include "model/fidelity_gate.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <memory>
#include <vector>

#include "gpbandit/kernel/fidelity_kernels.h"
#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

// Inputs: x in coordinate 0, the fidelity in coordinate 1.
constexpr int kFidelityDim = 1;

FidelityOptions TwoLevels(double min_correlation = 0.3) {
  FidelityOptions f;
  f.levels = {{"sim", 1.0}, {"robot", 10.0}};
  f.min_correlation = min_correlation;
  return f;
}

std::unique_ptr<Kernel> Chain(double rho) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeMatern52({0}, true, 1.0, 0.3));
  parts.push_back(MakeMatern52({0}, true, 0.2, 0.3));
  return std::make_unique<AutoregressiveKernel>(std::move(parts), kFidelityDim,
                                                std::vector<double>{rho});
}

double Target(double x) { return std::sin(6.0 * x) + x; }

// A GP over (x, fidelity) told n points at each level: the target's function at the target,
// `sim_sign` times it at the simulator.
GaussianProcess Study(double rho, double sim_sign, int n) {
  GaussianProcessOptions options;
  options.standardize_outputs = false;  // so that the direct solve below needs no offset
  options.noise_variance = 1e-4;
  GaussianProcess gp(Chain(rho), 2, options);
  for (int i = 0; i < n; ++i) {
    const double x = (i + 0.5) / n, xs = (i + 0.25) / n;
    gp.AddObservation(Eigen::Vector2d(xs, 0.0), sim_sign * Target(xs));
    gp.AddObservation(Eigen::Vector2d(x, 1.0), Target(x));
  }
  return gp;
}

TEST(FidelityGateTest, ANegativeOrWeakRelationClosesTheGateAndAStrongOneDoesNot) {
  EXPECT_TRUE(LowerLevelsGatedOut(TwoLevels(), Study(-1.0, -1.0, 4), kFidelityDim));
  EXPECT_TRUE(LowerLevelsGatedOut(TwoLevels(), Study(0.05, 1.0, 4), kFidelityDim));
  EXPECT_FALSE(LowerLevelsGatedOut(TwoLevels(), Study(1.0, 1.0, 4), kFidelityDim));
  // min_correlation -1 turns the gate off; the correlation is at least -1.
  EXPECT_FALSE(LowerLevelsGatedOut(TwoLevels(-1.0), Study(-1.0, -1.0, 4), kFidelityDim));
}

TEST(FidelityGateTest, TheGateStaysOpenWithoutATargetObservationOrACouplingKernel) {
  GaussianProcess sim_only(Chain(-1.0), 2);
  sim_only.AddObservation(Eigen::Vector2d(0.5, 0.0), 1.0);
  EXPECT_FALSE(LowerLevelsGatedOut(TwoLevels(), sim_only, kFidelityDim));
  GaussianProcess plain(MakeMatern52({0}), 2);
  plain.AddObservation(Eigen::Vector2d(0.5, 1.0), 1.0);
  EXPECT_FALSE(LowerLevelsGatedOut(TwoLevels(), plain, kFidelityDim));
  EXPECT_FALSE(LowerLevelsGatedOut(FidelityOptions(), Study(-1.0, -1.0, 4), kFidelityDim));
}

TEST(FidelityGateTest, TheDecoupledFitPredictsTheTargetFromTheTargetsObservationsAlone) {
  GaussianProcess gp = Study(-1.0, -1.0, 6);
  HyperparameterFitOptions fit;
  fit.num_restarts = 2;
  fit.fit_noise = false;
  Rng rng(7);
  HyperparameterFitReport report;
  ASSERT_TRUE(FitDecoupledIfGatedOut(TwoLevels(), kFidelityDim, fit, rng, &gp, &report));
  EXPECT_TRUE(report.success) << report.message;
  const auto& chain = dynamic_cast<const AutoregressiveKernel&>(gp.kernel());
  EXPECT_EQ(chain.rho()[0], 0.0);

  // The posterior mean at the target from the target rows only: k_T^T (K_TT + noise I)^-1 y_T.
  const Eigen::MatrixXd X = gp.inputs();
  const Eigen::VectorXd y = gp.outputs();
  std::vector<int> rows;
  for (int j = 0; j < X.cols(); ++j)
    if (X(kFidelityDim, j) == 1.0) rows.push_back(j);
  const int n = static_cast<int>(rows.size());
  Eigen::MatrixXd K(n, n);
  Eigen::VectorXd yt(n);
  for (int a = 0; a < n; ++a) {
    yt(a) = y(rows[a]);
    for (int b = 0; b < n; ++b) K(a, b) = gp.kernel().Value(X.col(rows[a]), X.col(rows[b]));
  }
  K.diagonal().array() += gp.noise_variance() + gp.jitter();
  const Eigen::VectorXd weights = K.llt().solve(yt);
  for (const double x : {0.05, 0.37, 0.81}) {
    const Eigen::Vector2d u(x, 1.0);
    Eigen::VectorXd k(n);
    for (int a = 0; a < n; ++a) k(a) = gp.kernel().Value(u, X.col(rows[a]));
    EXPECT_NEAR(gp.Mean(u), k.dot(weights), 1e-9) << x;
  }
}

TEST(FidelityGateTest, AnOpenGateLeavesTheJointFitAsItWas) {
  GaussianProcess gp = Study(1.0, 1.0, 6);
  const Eigen::VectorXd before = gp.kernel_log_params();
  HyperparameterFitOptions fit;
  Rng rng(7);
  HyperparameterFitReport report;
  EXPECT_FALSE(FitDecoupledIfGatedOut(TwoLevels(), kFidelityDim, fit, rng, &gp, &report));
  EXPECT_EQ(gp.kernel_log_params(), before);
}

}  // namespace
}  // namespace gpbandit
