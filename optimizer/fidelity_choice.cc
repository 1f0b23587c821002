#include "optimizer/fidelity_choice.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpbandit/acquisition/fidelity_rule.h"
#include "gpbandit/kernel/fidelity_kernels.h"
#include "optimizer/initial_design.h"

namespace gpbandit {
namespace internal {
namespace {

// The information rule's resolution: a value is "known" once its posterior standard deviation
// is a tenth of its prior one (fidelity_choice.h).
constexpr double kResolution = 0.1;

}  // namespace

int ChooseFidelity(const OptimizerOptions& options, const ModelInputs& inputs,
                   const GaussianProcess& gp, const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                   long round, double beta) {
  const FidelityOptions& f = options.fidelities;
  const int all = f.num_fidelities();
  // The rule sees the evaluable levels only: a source (an earlier study) is never evaluated.
  const int first = f.num_sources();
  const int levels = all - first;
  if (levels == 1) return f.target();
  Eigen::MatrixXd X(inputs.dim(), levels);
  for (int i = 0; i < levels; ++i) X.col(i) = inputs.Input(x, z, round, first + i);
  FidelityPosterior posterior;
  Eigen::VectorXd variances;
  gp.Predict(X, &posterior.mean, &variances);
  posterior.covariance = gp.Covariance(X);
  posterior.covariance = 0.5 * (posterior.covariance + posterior.covariance.transpose()).eval();
  for (int i = 0; i < levels; ++i)
    posterior.covariance(i, i) = std::max(0.0, posterior.covariance(i, i));
  // The kernel's prior, in standardized units; the posterior is in the model's output units.
  const Eigen::MatrixXd prior =
      FidelityPriorCovariance(gp.kernel(), X.col(levels - 1), inputs.fidelity_dim(), all)
          .bottomRightCorner(levels, levels);
  posterior.prior_correlation = CorrelationWithTarget(prior);
  const double scale2 = gp.output_scale() * gp.output_scale();
  const std::vector<double> all_costs = f.costs();
  const std::vector<double> costs(all_costs.begin() + first, all_costs.end());
  if (f.rule == FidelityRule::kThreshold) {
    ThresholdRuleOptions rule;
    if (std::isfinite(beta) && beta > 0.0) rule.beta = beta;
    rule.min_correlation = f.min_correlation;
    for (int m = 0; m + 1 < levels; ++m) {
      const double bias = prior(levels - 1, levels - 1) + prior(m, m) - 2.0 * prior(m, levels - 1);
      rule.zeta.push_back(std::sqrt(std::max(0.0, bias) * scale2));
    }
    return first + ThresholdRuleFidelity(posterior, costs, rule).fidelity;
  }
  InformationRuleOptions rule;
  rule.min_correlation = f.min_correlation;
  // One noise for every fidelity: the GP's, but at least (kResolution sigma_T)^2 for the
  // target's prior sigma_T at x (see the header).
  const double floor = kResolution * kResolution * prior(levels - 1, levels - 1) * scale2;
  const double noise = std::max((gp.noise_variance() + gp.jitter()) * scale2, floor);
  rule.noise.assign(static_cast<std::size_t>(levels), noise);
  return first + InformationRuleFidelity(posterior, costs, rule).fidelity;
}

int UnprobedFidelity(const std::vector<int>& counts, int probes) {
  for (std::size_t m = 0; m + 1 < counts.size(); ++m)
    if (counts[m] < probes) return static_cast<int>(m);
  return -1;
}

int UnprobedFidelity(const std::vector<int>& counts, int probes, const FidelityOptions& f) {
  for (std::size_t m = 0; m + 1 < counts.size(); ++m)
    if (!f.IsSource(static_cast<int>(m)) && counts[m] < probes) return static_cast<int>(m);
  return -1;
}

int FidelityProbes(const Domain& domain, const OptimizerOptions& options) {
  return std::max(2, InitialDesign::Size(domain, options.initial_design_size, false));
}

}  // namespace internal
}  // namespace gpbandit
