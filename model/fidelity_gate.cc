#include "model/fidelity_gate.h"

#include <vector>

#include "gpbandit/acquisition/fidelity_rule.h"
#include "gpbandit/kernel/fidelity_kernels.h"

namespace gpbandit {
namespace {

// The coupling parameters' half-width in the decoupled fit: the fit needs lower < upper.
constexpr double kPinned = 1e-9;

// The last column of inputs at fidelity `target`, or -1.
Eigen::Index LastAtTarget(const Eigen::MatrixXd& inputs, int fidelity_dim, int target) {
  for (Eigen::Index j = inputs.cols() - 1; j >= 0; --j)
    if (inputs(fidelity_dim, j) == static_cast<double>(target)) return j;
  return -1;
}

}  // namespace

bool LowerLevelsGatedOut(const FidelityOptions& fidelities, const GaussianProcess& gp,
                         int fidelity_dim) {
  if (!fidelities.active() || TargetCouplingParams(gp.kernel()).empty()) return false;
  const Eigen::MatrixXd inputs = gp.inputs();
  const Eigen::Index at = LastAtTarget(inputs, fidelity_dim, fidelities.target());
  if (at < 0) return false;
  const Eigen::VectorXd correlation = CorrelationWithTarget(FidelityPriorCovariance(
      gp.kernel(), inputs.col(at), fidelity_dim, fidelities.num_fidelities()));
  for (int m = 0; m < fidelities.target(); ++m)
    if (!(correlation(m) < fidelities.min_correlation)) return false;
  return true;
}

bool FitDecoupledIfGatedOut(const FidelityOptions& fidelities, int fidelity_dim,
                            const HyperparameterFitOptions& fit, Rng& rng, GaussianProcess* gp,
                            HyperparameterFitReport* report) {
  if (!LowerLevelsGatedOut(fidelities, *gp, fidelity_dim)) return false;
  HyperparameterFitOptions pinned = fit;
  if (pinned.lower_log_bounds.empty())
    DefaultLogBounds(fit, gp->kernel().ParamKinds(), &pinned.lower_log_bounds,
                     &pinned.upper_log_bounds);
  Eigen::VectorXd params = gp->kernel_log_params();
  for (const int i : TargetCouplingParams(gp->kernel())) {
    pinned.lower_log_bounds[static_cast<std::size_t>(i)] = -kPinned;
    pinned.upper_log_bounds[static_cast<std::size_t>(i)] = kPinned;
    params(i) = 0.0;
  }
  gp->SetHyperparameters(params, gp->noise_variance());
  *report = FitHyperparameters(pinned, rng, gp);
  params = gp->kernel_log_params();
  for (const int i : TargetCouplingParams(gp->kernel())) params(i) = 0.0;
  gp->SetHyperparameters(params, gp->noise_variance());
  report->kernel_log_params = params;
  return true;
}

}  // namespace gpbandit
