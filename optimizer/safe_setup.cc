#include "optimizer/safe_setup.h"

#include <stdexcept>
#include <string>

#include "gpbandit/space/parameter_space.h"

namespace gpbandit {
namespace {

void CheckSafeOptions(const Strategy& strategy, const OptimizerOptions& options) {
  // Declared safety signals get models of their own (model/signal_model.h); the raw models
  // check thresholds against the reward's model in the caller's units.
  if (options.gp.standardize_outputs &&
      (strategy.safety_signals().empty() || !strategy.calibrated_safety_models()))
    throw std::invalid_argument(
        "OptimizerOptions.gp.standardize_outputs = true: strategy '" + strategy.name() +
        "' models its safety signals in the caller's units (models of log format <= 4): it "
        "needs the model's prior in the reward's own units (set it to false and give a kernel "
        "whose signal variance is the square of the reward's plausible range): standardized by "
        "the spread of the first rewards near a seed, the prior is so narrow that the whole "
        "domain looks safe");
  if (options.initial_design_size > 0)
    throw std::invalid_argument(
        "OptimizerOptions.initial_design_size = " + std::to_string(options.initial_design_size) +
        ": strategy '" + strategy.name() +
        "' evaluates its safe seeds first, and a space-filling design would evaluate points "
        "nobody declared safe; use -1 or 0");
}

// A safe strategy explores outward from its seeds over a box (or a finite set), step by step
// through the safe set it has certified: an integer or a category of a parameter space has no
// such neighbourhood in its model (SafeOpt's Lipschitz argument, Sui et al. 2015), so they
// are refused rather than rounded into points nobody certified.
void CheckSafeSpace(const Strategy& strategy, const Domain& domain) {
  if (domain.action_space() == nullptr) return;
  for (const Parameter& p : domain.action_space()->parameters())
    if (p.discrete())
      throw std::invalid_argument(
          "strategy '" + strategy.name() +
          "' explores a box or a finite set of candidates, but "
          "the parameter '" +
          p.name + "' is " + (p.kind == ParameterKind::kInteger ? "an integer" : "a categorical") +
          ": give it real parameters (log scales are fine), or list the candidates as a finite "
          "set");
}

// Checks one seed; returns its unit-cube action.
Eigen::VectorXd UnitSeed(const Strategy& strategy, const Domain& domain,
                         const Eigen::VectorXd& seed, Eigen::Index s) {
  const std::string field = "strategy '" + strategy.name() + "' seeds[" + std::to_string(s) + "]";
  domain.CheckAction(seed, field);
  if (domain.kind() == DomainKind::kFiniteSet) {
    bool candidate = false;
    for (int c = 0; c < domain.num_candidates() && !candidate; ++c)
      candidate = domain.candidates().col(c) == seed;
    if (!candidate)
      throw std::invalid_argument(field + " is not one of the " +
                                  std::to_string(domain.num_candidates()) + " candidates");
  }
  Eigen::VectorXd context = Eigen::VectorXd::Zero(domain.context_dim());
  if (domain.has_context_bounds()) context = domain.context_lower();
  return domain.ToUnit(seed, context).head(domain.action_dim());
}

}  // namespace

Eigen::MatrixXd CheckSafeSetup(const Strategy& strategy, const Domain& domain,
                               const OptimizerOptions& options) {
  const Eigen::MatrixXd seeds = strategy.safe_seeds();
  const int m = strategy.num_constraints();
  if (m < 0)
    throw std::invalid_argument("strategy '" + strategy.name() +
                                "': num_constraints() = " + std::to_string(m) + ", must be >= 0");
  if (m > 0 && seeds.cols() == 0)
    throw std::invalid_argument("strategy '" + strategy.name() +
                                "' models constraint signals but declares no safe seeds");
  if (seeds.cols() == 0) return Eigen::MatrixXd();
  CheckSafeOptions(strategy, options);
  CheckSafeSpace(strategy, domain);
  if (seeds.rows() != domain.action_dim())
    throw std::invalid_argument(
        "strategy '" + strategy.name() + "': its seeds have " + std::to_string(seeds.rows()) +
        " coordinates, but the action dimension is " + std::to_string(domain.action_dim()));
  Eigen::MatrixXd unit_seeds(domain.action_dim(), seeds.cols());
  for (Eigen::Index s = 0; s < seeds.cols(); ++s)
    unit_seeds.col(s) = UnitSeed(strategy, domain, seeds.col(s), s);
  return unit_seeds;
}

}  // namespace gpbandit
