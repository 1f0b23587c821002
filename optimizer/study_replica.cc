#include "optimizer/study_replica.h"

#include <stdexcept>

#include "model/default_model.h"
#include "model/prior_mean_feature.h"
#include "model/restart_monitor.h"
#include "optimizer/fidelity_choice.h"
#include "optimizer/safe_setup.h"

namespace gpbandit {
namespace internal {
namespace {

// The strategy's own check of the kernel and the domain (Strategy::CheckSupports), its message
// prefixed with the combination, so that a user strategy's refusal names both too.
void CheckStrategySupports(const Strategy& strategy, const Kernel& kernel, const Domain& domain) {
  SearchSpace space;
  space.finite_set = domain.kind() == DomainKind::kFiniteSet;
  space.action_dim = domain.action_dim();
  space.context_dim = domain.context_dim();
  try {
    strategy.CheckSupports(kernel, space);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("strategy '" + strategy.name() + "' cannot run with kernel '" +
                                kernel.Describe() + "' on " + domain.Describe() + ": " + e.what());
  }
}

// With declared objectives, the study's sense is objective 0's (OutcomeOptions::objectives).
OptimizerOptions WithOutcomeSense(OptimizerOptions options) {
  if (!options.outcomes.objectives.empty())
    options.sense = options.outcomes.objectives[0].minimize ? ObjectiveSense::kMinimize
                                                            : ObjectiveSense::kMaximize;
  return options;
}

// What a study with fidelities does not support yet: several outcomes, safety signals without
// calibrated models, time models (docs/fidelities.md, "In a study").
void CheckFidelitySupport(const Strategy& strategy, const OptimizerOptions& options) {
  if (!options.fidelities.active()) return;
  const std::string with = "OptimizerOptions.fidelities (" +
                           std::to_string(options.fidelities.num_fidelities()) +
                           " levels) does not go with ";
  if (options.outcomes.active())
    throw std::invalid_argument(with + "OptimizerOptions.outcomes (" +
                                std::to_string(options.outcomes.num_outcomes()) + " outcomes) yet");
  // Declared, calibrated safety signals get joint models over (x, fidelity) (docs/fidelities.md,
  // "Safety across fidelities"); the raw models of log format <= 4 have none.
  const bool declared = !strategy.safety_signals().empty() && strategy.calibrated_safety_models();
  if ((strategy.safe_seeds().cols() > 0 || strategy.num_constraints() > 0) && !declared)
    throw std::invalid_argument(with + "strategy '" + strategy.name() +
                                "' with calibrated = false (its safety signals modelled in the "
                                "caller's units, log format <= 4); use calibrated = true");
  if (strategy.time_model().kind != TimeModelKind::kNone)
    throw std::invalid_argument(with + "strategy '" + strategy.name() +
                                "', which models a drifting objective over the rounds, yet");
}

}  // namespace

StudyReplica::StudyReplica(const Domain& domain_in, std::unique_ptr<Strategy> strategy_in,
                           const std::string& strategy_name_in,
                           const StrategyParams& strategy_options_in,
                           const OptimizerOptions& options_in, std::unique_ptr<Kernel> kernel)
    : domain(domain_in),
      strategy_name(strategy_name_in),
      strategy_options(strategy_options_in),
      options(WithOutcomeSense(options_in)),
      strategy(std::move(strategy_in)),
      inputs(domain, strategy->time_model().kind != TimeModelKind::kNone,
             options.fidelities.num_fidelities()) {
  if (kernel) initial_kernel = kernel->Clone();
  Build(std::move(kernel));
}

// Trial numbers are counted again from the study's records (PendingBook).
void StudyReplica::Reset() {
  Build(initial_kernel ? initial_kernel->Clone() : nullptr);
  pending = PendingBook();
  observations.clear();
  rounds = 0;
  figure = std::numeric_limits<double>::quiet_NaN();
}

// Everything knowable is checked here, so that later a valid call succeeds.
void StudyReplica::Build(std::unique_ptr<Kernel> kernel) {
  default_kernel = kernel == nullptr;
  if (!kernel) kernel = DefaultKernel(domain, DefaultLengthscale(*strategy));
  if (kernel->MinInputDim() > domain.input_dim())
    throw std::invalid_argument(
        "kernel needs inputs of dimension >= " + std::to_string(kernel->MinInputDim()) +
        " but the domain's input dimension is " + std::to_string(domain.input_dim()));
  CheckFidelitySupport(*strategy, options);
  kernel = WithPriorMean(std::move(kernel), domain, *strategy, &options);
  kernel = WithFidelityKernel(std::move(kernel), options.fidelities, inputs.fidelity_dim());
  const TimeModel time = strategy->time_model();
  std::shared_ptr<RestartMonitor> restarts;
  if (time.kind == TimeModelKind::kRestarts)
    restarts = std::make_shared<RestartMonitor>(time.restart_window, time.restart_threshold);
  kernel = WithTimeKernel(std::move(kernel), time, inputs.dim() - 1,
                          restarts ? restarts->epoch_starts() : nullptr);
  std::string error;
  if (!FitOptionsMatchKernel(options.fit, *kernel, &error))
    throw std::invalid_argument("OptimizerOptions.fit." + error);
  CheckStrategySupports(*strategy, *kernel, domain);
  const Eigen::MatrixXd unit_seeds = CheckSafeSetup(*strategy, domain, options);
  safe = unit_seeds.cols() > 0;
  const bool outcomes = options.outcomes.active();
  if (outcomes && (safe || strategy->num_constraints() > 0))
    throw std::invalid_argument("strategy '" + strategy->name() +
                                "' models safety or constraint signals of its own, which do not "
                                "go with OptimizerOptions.outcomes; declare them in one place");
  if (outcomes && time.kind != TimeModelKind::kNone)
    throw std::invalid_argument("strategy '" + strategy->name() +
                                "' models a drifting objective over the rounds, which "
                                "OptimizerOptions.outcomes does not support yet");
  if (safe) safety = strategy->safety_signals();
  calibrated = !safety.empty() && strategy->calibrated_safety_models();
  // The local model of long studies needs one incumbent to centre on: no context, no time
  // coordinate; safe strategies decide on the exact models (OptimizerOptions::local_model).
  const bool local_allowed = domain.kind() == DomainKind::kBox && domain.context_dim() == 0 &&
                             !inputs.has_time() && !safe && !outcomes && !inputs.has_fidelity();
  // The reward's refits are cautious only when its model carries a threshold itself (raw
  // models); a declared safety signal has its own cautious model.
  model = std::make_unique<ModelKeeper>(
      std::move(kernel), inputs.dim(), options, time, default_kernel, safe && !calibrated,
      outcomes ? options.outcomes.num_outcomes() - 1 : strategy->num_constraints(),
      domain.input_dim(), local_allowed, calibrated ? safety : std::vector<SafetySignal>(),
      domain.action_dim(), options.worker.id.empty() ? DefaultWorkerId() : options.worker.id,
      !options.worker.id.empty());
  if (restarts) model->WatchForRestarts(std::move(restarts), domain.input_dim());
  num_seeds = static_cast<int>(unit_seeds.cols());
  model->refit_policy().CheckTimeFitBounds();
  // The rank-one posterior over the candidates replaces the exact GP where the hyperparameters
  // and the candidates' inputs stay fixed and the noise keeps the updates finite; safe
  // strategies decide on the exact models.
  if (options.finite_set_rank_one_updates && domain.kind() == DomainKind::kFiniteSet &&
      domain.context_dim() == 0 && !options.refit.enabled && !inputs.has_time() && !safe &&
      !outcomes && !inputs.has_fidelity() && options.gp.noise_variance > 0.0)
    model->UseRankOne(inputs.CandidateInputs({}, 0));
  if (safe)
    chooser = MakeSafeChooser(strategy->safe_seeds(), unit_seeds);
  else if (domain.kind() == DomainKind::kFiniteSet)
    chooser = MakeFiniteSetChooser();
  else if (!inputs.DiscreteCoordinates().empty())
    chooser = MakeMixedChooser();
  else
    chooser = MakeBoxChooser();
  fidelity_probes = inputs.has_fidelity() ? FidelityProbes(domain, options) : 0;
  design = std::make_unique<InitialDesign>(
      domain, InitialDesign::Size(domain, options.initial_design_size, safe), inputs.UnitUpper(),
      options.seed);
}

LogHeader StudyReplica::MakeHeader() const {
  LogHeader h;
  h.domain = domain;
  h.strategy = strategy_name;
  h.strategy_options = strategy_options;
  h.options = options;
  h.options.log_path.clear();
  h.default_kernel = default_kernel;
  h.kernel_description = model->reward().kernel().Describe();
  h.kernel_log_params = model->initial_kernel_log_params();
  return h;
}

}  // namespace internal
}  // namespace gpbandit
