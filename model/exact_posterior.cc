#include "model/exact_posterior.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "gpbandit/gp/local_gaussian_process.h"

namespace gpbandit {
namespace {

// The kernel lives in standardized units; the standardized outputs' unit variance stands in
// for a diagonal that is not finite and > 0 (a linear kernel at the origin). Clamped so that
// RoundState validates for output scales near the limits.
double SignalVariance(const GaussianProcess& gp) {
  const double scale2 = gp.output_scale() * gp.output_scale();
  double variance = scale2;
  if (gp.num_observations() > 0) {
    const double diagonal = gp.kernel().Diagonal(gp.inputs()).mean();
    if (std::isfinite(diagonal) && diagonal > 0.0) variance = diagonal * scale2;
  }
  return std::clamp(variance, std::numeric_limits<double>::min(),
                    std::numeric_limits<double>::max());
}

}  // namespace

void GaussianProcessRoundStatistics(const GaussianProcess& gp, bool sequential, RoundState* state) {
  const double scale2 = gp.output_scale() * gp.output_scale();
  state->information_gain = gp.InformationGain();
  if (sequential) state->sequential_variances = gp.SequentialVariances() * scale2;
  state->one_step_residuals = gp.OneStepResiduals();
  state->noise_variance = (gp.noise_variance() + gp.jitter()) * scale2;
  state->signal_variance = SignalVariance(gp);
  state->best_observed = gp.num_observations() > 0 ? gp.outputs().maxCoeff()
                                                   : -std::numeric_limits<double>::infinity();
}

ExactPosterior::ExactPosterior(std::unique_ptr<Kernel> kernel, int input_dim,
                               const GaussianProcessOptions& options)
    : gp_(std::move(kernel), input_dim, options) {}

std::unique_ptr<PosteriorModel> ExactPosterior::Clone() const {
  return std::make_unique<ExactPosterior>(gp_);
}

void ExactPosterior::Posterior(const Eigen::MatrixXd& inputs, Eigen::VectorXd* means,
                               Eigen::VectorXd* variances) const {
  Eigen::VectorXd m(inputs.cols()), v(inputs.cols());
  for (Eigen::Index j = 0; j < inputs.cols(); ++j) gp_.MeanAndVariance(inputs.col(j), &m(j), &v(j));
  *means = std::move(m);
  *variances = std::move(v);
}

void ExactPosterior::RoundStatistics(bool sequential, RoundState* state) const {
  GaussianProcessRoundStatistics(gp_, sequential, state);
}

void ExactPosterior::AddObservation(const Eigen::VectorXd& u, double y, bool /*accepted*/) {
  gp_.AddObservation(u, y);
}

void ExactPosterior::SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                        double noise_variance) {
  gp_.SetHyperparameters(kernel_log_params, noise_variance);
}

// The sample spans the whole study (its space-filling start and its later concentration
// alike). The copy of the observations costs O(t d), the fit O(max^3) per evaluation.
GaussianProcess ExactPosterior::FitData(int max_observations) const {
  if (gp_.num_observations() <= max_observations) return gp_;
  const LocalGaussianProcess observations(gp_, /*size=*/1);
  return observations.ModelOn(EvenlySpacedRows(observations.num_observations(), max_observations));
}

}  // namespace gpbandit
