// How each refit of an Optimizer's models is run: OptimizerOptions::fit, with the restarts
// dropped past fit_restarts_until, the optimizer's thread count, the default kernel's priors,
// bounds on log(epsilon) for a fitted forgetting kernel, and for safe strategies bounds that
// keep every fit at least as cautious as the kernel given. Internal to model/.
#ifndef GPBANDIT_MODEL_REFIT_POLICY_H_
#define GPBANDIT_MODEL_REFIT_POLICY_H_

#include <Eigen/Core>

#include "gpbandit/acquisition/time_model.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

class RefitPolicy {
 public:
  // initial_log_params: the model kernel's log-params as given (the cautious bounds' anchor).
  RefitPolicy(const OptimizerOptions& options, const TimeModel& time, bool default_kernel,
              bool cautious, const Eigen::VectorXd& initial_log_params);
  // Throws std::invalid_argument when explicit fit bounds let a fitted forgetting kernel's
  // epsilon reach 1 (the bound on log(epsilon), the last log-param, must be <= 0).
  void CheckTimeFitBounds() const;
  // The fit options of a refit of `gp` holding `observed` observations.
  HyperparameterFitOptions OptionsFor(const GaussianProcess& gp, int observed) const;
  // OptimizerOptions::fit with the restarts dropped past fit_restarts_until, the optimizer's
  // thread count and, with fidelities, their fit_function_tolerance if tighter: what every
  // model's refit starts from (the safety signals' models add their own bounds and priors,
  // model/signal_model.h).
  HyperparameterFitOptions BaseOptions(int observed) const;

 private:
  // Unless the caller gave explicit bounds, no fit may be more optimistic than the kernel
  // given: signal variances stay >= their initial values and lengthscales <= theirs (a longer
  // lengthscale or a smaller amplitude would extend the safe set on the strength of the fit
  // alone).
  HyperparameterFitOptions Cautious(HyperparameterFitOptions fit,
                                    const std::vector<ParamKind>& kinds) const;

  const OptimizerOptions& options_;
  TimeModel time_;
  bool default_kernel_;
  bool cautious_;
  Eigen::VectorXd initial_log_params_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_REFIT_POLICY_H_
