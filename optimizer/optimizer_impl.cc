#include "optimizer/optimizer_impl.h"

#include <algorithm>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "gpbandit/study/observation_log.h"
#include "model/default_model.h"
#include "model/restart_monitor.h"
#include "optimizer/safe_setup.h"
#include "optimizer/study_header_match.h"

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

// Equal, or both NaN.
bool SameReward(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

OptimizerImpl::OptimizerImpl(const Domain& domain, std::unique_ptr<Strategy> strategy,
                             const std::string& strategy_name,
                             const StrategyParams& strategy_options,
                             const OptimizerOptions& options, std::unique_ptr<Kernel> kernel,
                             std::unique_ptr<StudyStorage> storage)
    : domain_(domain),
      strategy_name_(strategy_name),
      strategy_options_(strategy_options),
      options_(options),
      strategy_(std::move(strategy)),
      inputs_(domain_, strategy_->time_model().kind != TimeModelKind::kNone),
      journal_(this) {
  figure_name_ = strategy_->figure_name();
  last_round_report_.round = -1;
  if (kernel) initial_kernel_ = kernel->Clone();
  Build(std::move(kernel));
  // A log of its own (log_path) is resumed; any other storage is a study this worker joins.
  const bool resumes = !storage && !options_.log_path.empty();
  if (!storage) storage = StudyJournal::StorageFromOptions(options_);
  if (storage) {
    journal_.Attach(std::move(storage), options_.worker);
    journal_.ReadAhead();  // the study's clock
    model_->OweRefitIfDue(/*claims_hold=*/!resumes, journal_.now());
  }
}

// The optimizer as constructed, before any record: the models, the design, the pending points
// and the observations start again (the strategy holds no record's state); trial numbers are
// counted again from the study's records.
void OptimizerImpl::ResetReplica() {
  Build(initial_kernel_ ? initial_kernel_->Clone() : nullptr);
  pending_ = PendingBook();
  observations_.clear();
  rounds_ = 0;
  figure_ = std::numeric_limits<double>::quiet_NaN();
}

// Everything knowable is checked here, so that later a valid call succeeds.
void OptimizerImpl::Build(std::unique_ptr<Kernel> kernel) {
  default_kernel_ = kernel == nullptr;
  if (!kernel) kernel = DefaultKernel(domain_, DefaultLengthscale(*strategy_));
  if (kernel->MinInputDim() > domain_.input_dim())
    throw std::invalid_argument(
        "kernel needs inputs of dimension >= " + std::to_string(kernel->MinInputDim()) +
        " but the domain's input dimension is " + std::to_string(domain_.input_dim()));
  const TimeModel time = strategy_->time_model();
  std::shared_ptr<RestartMonitor> restarts;
  if (time.kind == TimeModelKind::kRestarts)
    restarts = std::make_shared<RestartMonitor>(time.restart_window, time.restart_threshold);
  kernel = WithTimeKernel(std::move(kernel), time, domain_.input_dim(),
                          restarts ? restarts->epoch_starts() : nullptr);
  std::string error;
  if (!FitOptionsMatchKernel(options_.fit, *kernel, &error))
    throw std::invalid_argument("OptimizerOptions.fit." + error);
  CheckStrategySupports(*strategy_, *kernel, domain_);
  const Eigen::MatrixXd unit_seeds = CheckSafeSetup(*strategy_, domain_, options_);
  safe_ = unit_seeds.cols() > 0;
  if (safe_) safety_ = strategy_->safety_signals();
  calibrated_ = !safety_.empty() && strategy_->calibrated_safety_models();
  // The local model of long studies needs one incumbent to centre on: no context, no time
  // coordinate; safe strategies decide on the exact models (OptimizerOptions::local_model).
  const bool local_allowed = domain_.kind() == DomainKind::kBox && domain_.context_dim() == 0 &&
                             !inputs_.has_time() && !safe_;
  // The reward's refits are cautious only when its model carries a threshold itself (raw
  // models); a declared safety signal has its own cautious model.
  model_ = std::make_unique<ModelKeeper>(
      std::move(kernel), inputs_.dim(), options_, time, default_kernel_, safe_ && !calibrated_,
      strategy_->num_constraints(), domain_.input_dim(), local_allowed,
      calibrated_ ? safety_ : std::vector<SafetySignal>(), domain_.action_dim(),
      options_.worker.id.empty() ? DefaultWorkerId() : options_.worker.id,
      !options_.worker.id.empty());
  if (restarts) model_->WatchForRestarts(std::move(restarts), domain_.input_dim());
  reported_dropped_seeds_.assign(static_cast<std::size_t>(unit_seeds.cols()), false);
  model_->refit_policy().CheckTimeFitBounds();
  // The rank-one posterior over the candidates replaces the exact GP where the hyperparameters
  // and the candidates' inputs stay fixed and the noise keeps the updates finite; safe
  // strategies decide on the exact models.
  if (options_.finite_set_rank_one_updates && domain_.kind() == DomainKind::kFiniteSet &&
      domain_.context_dim() == 0 && !options_.refit.enabled && !inputs_.has_time() && !safe_ &&
      options_.gp.noise_variance > 0.0)
    model_->UseRankOne(inputs_.CandidateInputs({}, 0));
  if (safe_)
    chooser_ = MakeSafeChooser(strategy_->safe_seeds(), unit_seeds);
  else if (domain_.kind() == DomainKind::kFiniteSet)
    chooser_ = MakeFiniteSetChooser();
  else if (!inputs_.DiscreteCoordinates().empty())
    chooser_ = MakeMixedChooser();
  else
    chooser_ = MakeBoxChooser();
  design_ = std::make_unique<InitialDesign>(
      domain_, InitialDesign::Size(domain_, options_.initial_design_size, safe_),
      inputs_.UnitUpper(), options_.seed);
}

LogHeader OptimizerImpl::MakeHeader() const {
  LogHeader h;
  h.domain = domain_;
  h.strategy = strategy_name_;
  h.strategy_options = strategy_options_;
  h.options = options_;
  h.options.log_path.clear();
  h.default_kernel = default_kernel_;
  h.kernel_description = model_->reward().kernel().Describe();
  h.kernel_log_params = model_->initial_kernel_log_params();
  return h;
}

// The checks a study's header must pass to be continued by this optimizer.
void OptimizerImpl::CheckHeader(const std::string& header_json) const {
  CheckJoinableHeader(ParseLogHeader(header_json), MakeHeader(),
                      "the study " + journal_.storage().Describe());
}

// Replays one record with exactly the model operations the live run performed, so that the
// rebuilt state is bit-for-bit the same.
void OptimizerImpl::Replay(const LogRecord& record) {
  switch (record.type) {
    case LogRecordType::kPending:
      domain_.CheckAction(record.x, "log pending x");
      domain_.CheckContext(record.z, "log pending z");
      pending_.Add(
          {record.x, record.z, record.round, record.worker, record.lease_until, record.trial});
      rounds_ = std::max(rounds_, record.round + 1);
      if (record.design_index >= 0)
        design_->set_handed_out(std::max(design_->handed_out(), record.design_index + 1));
      break;
    case LogRecordType::kTell:
      domain_.CheckAction(record.x, "log tell x");
      domain_.CheckContext(record.z, "log tell z");
      CheckConstraints(record.y, record.constraints);
      ApplyTell(record.x, record.z, record.y, record.accepted,
                record.round >= 0 ? record.round : TellRound(record.x, record.z),
                record.constraints, record.trial);
      if (!SameReward(observations_.back().imputed, record.imputed))
        throw std::runtime_error("a failed tell imputed " + FormatDouble(record.imputed) +
                                 " in the log, but " + FormatDouble(observations_.back().imputed) +
                                 " on replay");
      if (!std::isnan(record.refit_claim))
        model_->NoteRefitClaim(record.refit_claim, /*mine=*/false, record.worker);
      break;
    case LogRecordType::kFit:
      model_->ReplayFit(record);
      break;
    case LogRecordType::kRelease:
      if (record.trial >= 0)
        pending_.RemoveTrial(record.trial);
      else
        pending_.Remove(record.x, record.z);
      break;
    case LogRecordType::kClearPending:
      pending_.Clear();
      break;
    case LogRecordType::kHeader:
      throw std::runtime_error("a second header record in the log");
  }
}

}  // namespace internal
}  // namespace gpbandit
