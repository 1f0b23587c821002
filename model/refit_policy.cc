#include "model/refit_policy.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"
#include "model/default_model.h"

namespace gpbandit {

RefitPolicy::RefitPolicy(const OptimizerOptions& options, const TimeModel& time,
                         bool default_kernel, bool cautious,
                         const Eigen::VectorXd& initial_log_params)
    : options_(options),
      time_(time),
      default_kernel_(default_kernel),
      cautious_(cautious),
      initial_log_params_(initial_log_params) {}

void RefitPolicy::CheckTimeFitBounds() const {
  if (time_.kind != TimeModelKind::kForgetting || !time_.fit_epsilon) return;
  if (!options_.refit.enabled || options_.fit.upper_log_bounds.empty()) return;
  const std::size_t j = options_.fit.upper_log_bounds.size() - 1;
  if (!(options_.fit.upper_log_bounds[j] <= 0.0))
    throw std::invalid_argument("OptimizerOptions.fit.upper_log_bounds[" + std::to_string(j) +
                                "] = " + FormatDouble(options_.fit.upper_log_bounds[j]) +
                                ": the bound on log(epsilon) of the forgetting kernel must be "
                                "<= 0 (epsilon < 1)");
}

HyperparameterFitOptions RefitPolicy::BaseOptions(int observed) const {
  HyperparameterFitOptions fit = options_.fit;
  if (observed >= options_.fit_restarts_until) fit.num_restarts = 0;
  if (options_.num_threads > 0) fit.num_threads = options_.num_threads;
  if (options_.fidelities.active())
    fit.function_tolerance =
        std::min(fit.function_tolerance, options_.fidelities.fit_function_tolerance);
  return fit;
}

HyperparameterFitOptions RefitPolicy::OptionsFor(const GaussianProcess& gp, int observed) const {
  HyperparameterFitOptions fit = BaseOptions(observed);
  const std::vector<ParamKind> kinds = gp.kernel().ParamKinds();
  if (default_kernel_ && fit.kernel_priors.empty())
    fit.kernel_priors = DefaultKernelPriors(kinds, gp.options().standardize_outputs);
  if (time_.kind == TimeModelKind::kForgetting && time_.fit_epsilon &&
      fit.lower_log_bounds.empty()) {
    // The kind defaults for every log-param but log(epsilon), which must stay below 0.
    DefaultLogBounds(fit, kinds, &fit.lower_log_bounds, &fit.upper_log_bounds);
    fit.lower_log_bounds.back() = std::log(time_.min_epsilon);
    fit.upper_log_bounds.back() = std::log(time_.max_epsilon);
  }
  return cautious_ ? Cautious(std::move(fit), kinds) : fit;
}

HyperparameterFitOptions RefitPolicy::Cautious(HyperparameterFitOptions fit,
                                               const std::vector<ParamKind>& kinds) const {
  if (!fit.lower_log_bounds.empty()) return fit;
  CautiousLogBounds(fit, kinds, initial_log_params_, &fit.lower_log_bounds, &fit.upper_log_bounds);
  return fit;
}

}  // namespace gpbandit
