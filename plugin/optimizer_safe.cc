// The Optimizer's part for safe strategies (SafeOpt, SafeOpt-MC): the seeds' checks at
// construction and the constraint models' refits.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/plugin/optimizer.h"

namespace gpbandit {
namespace {

// The generator streams of the constraint models' fits: kConstraintFitStream + i for signal i,
// apart from the streams of optimizer.cc (0-3), so that adding constraints never changes the
// numbers the reward's fit and the choice draw.
constexpr int kConstraintFitStream = 16;

}  // namespace

void Optimizer::InitializeSafety(const Kernel& kernel) {
  const Eigen::MatrixXd seeds = strategy_->safe_seeds();
  const int m = strategy_->num_constraints();
  if (m < 0)
    throw std::invalid_argument("strategy '" + strategy_name_ +
                                "': num_constraints() = " + std::to_string(m) + ", must be >= 0");
  if (m > 0 && seeds.cols() == 0)
    throw std::invalid_argument("strategy '" + strategy_name_ +
                                "' models constraint signals but declares no safe seeds");
  for (int i = 0; i < m; ++i)
    constraint_gps_.push_back(
        std::make_unique<GaussianProcess>(kernel.Clone(), domain_.input_dim(), options_.gp));
  if (seeds.cols() == 0) return;
  if (options_.gp.standardize_outputs)
    throw std::invalid_argument(
        "OptimizerOptions.gp.standardize_outputs = true: strategy '" + strategy_name_ +
        "' needs the model's prior in the reward's own units (set it to false and give a kernel "
        "whose signal variance is the square of the reward's plausible range): standardized by "
        "the spread of the first rewards near a seed, the prior is so narrow that the whole "
        "domain looks safe");
  if (options_.initial_design_size > 0)
    throw std::invalid_argument(
        "OptimizerOptions.initial_design_size = " + std::to_string(options_.initial_design_size) +
        ": strategy '" + strategy_name_ +
        "' evaluates its safe seeds first, and a space-filling design would evaluate points "
        "nobody declared safe; use -1 or 0");
  if (seeds.rows() != domain_.action_dim())
    throw std::invalid_argument(
        "strategy '" + strategy_name_ + "': its seeds have " + std::to_string(seeds.rows()) +
        " coordinates, but the action dimension is " + std::to_string(domain_.action_dim()));
  Eigen::VectorXd context = Eigen::VectorXd::Zero(domain_.context_dim());
  if (domain_.has_context_bounds()) context = domain_.context_lower();
  unit_seeds_.resize(domain_.action_dim(), seeds.cols());
  for (Eigen::Index s = 0; s < seeds.cols(); ++s) {
    const std::string field = "strategy '" + strategy_name_ + "' seeds[" + std::to_string(s) + "]";
    const Eigen::VectorXd seed = seeds.col(s);
    domain_.CheckAction(seed, field);
    if (domain_.kind() == DomainKind::kFiniteSet) {
      bool candidate = false;
      for (int c = 0; c < domain_.num_candidates() && !candidate; ++c)
        candidate = domain_.candidates().col(c) == seed;
      if (!candidate)
        throw std::invalid_argument(field + " is not one of the " +
                                    std::to_string(domain_.num_candidates()) + " candidates");
    }
    unit_seeds_.col(s) = domain_.ToUnit(seed, context).head(domain_.action_dim());
  }
}

HyperparameterFitOptions Optimizer::CautiousFitOptions(HyperparameterFitOptions fit) const {
  if (!safe_strategy() || !fit.lower_log_bounds.empty()) return fit;
  const std::vector<ParamKind> kinds = gp_->kernel().ParamKinds();
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    const double initial = initial_kernel_log_params_(static_cast<Eigen::Index>(j));
    double lower = std::log(fit.min_signal_variance), upper = std::log(fit.max_signal_variance);
    if (kinds[j] == ParamKind::kLengthscale) {
      lower = std::log(fit.min_lengthscale);
      upper = std::min(std::log(fit.max_lengthscale), initial);
    } else if (kinds[j] == ParamKind::kPeriod) {
      lower = std::log(fit.min_period);
      upper = std::log(fit.max_period);
    } else if (kinds[j] == ParamKind::kSignalVariance) {
      lower = std::max(lower, initial);
    }
    // An initial value beyond the default range: the range reaches it from the cautious side.
    if (!(lower < upper)) {
      if (kinds[j] == ParamKind::kLengthscale)
        lower = upper - 1.0;
      else
        upper = lower + 1.0;
    }
    fit.lower_log_bounds.push_back(lower);
    fit.upper_log_bounds.push_back(upper);
  }
  return fit;
}

void Optimizer::RefitConstraints(const HyperparameterFitOptions& fit, long round,
                                 std::vector<Eigen::VectorXd>* log_params,
                                 std::vector<double>* noise_variances) {
  for (std::size_t i = 0; i < constraint_gps_.size(); ++i) {
    GaussianProcess& gp = *constraint_gps_[i];
    if (gp.num_observations() > 0) {
      Rng rng = RoundRng(round, kConstraintFitStream + static_cast<int>(i));
      FitHyperparameters(fit, rng, &gp);
      // As for the reward's model: refactorized from the final values, as a replay does.
      gp.SetHyperparameters(gp.kernel_log_params(), gp.noise_variance());
    }
    log_params->push_back(gp.kernel_log_params());
    noise_variances->push_back(gp.noise_variance());
  }
}

}  // namespace gpbandit
