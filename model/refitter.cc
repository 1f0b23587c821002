#include "model/refitter.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "model/fidelity_gate.h"
#include "study/round_rng.h"

namespace gpbandit {
namespace {

// The observation count at which the refit after one at `last` falls due: the first n > last
// with schedule.ShouldRefit(n, last) (every_while_small apart below small_until, every apart
// from there on).
long long NextRefitAt(const RefitSchedule& schedule, long long last) {
  if (last + schedule.every_while_small < schedule.small_until)
    return last + schedule.every_while_small;
  return std::max<long long>(schedule.small_until, last + schedule.every);
}

// Whether a refit falls due with `rows` rows after one at `last`.
bool RefitDue(const RefitSchedule& schedule, int last, int rows) {
  return schedule.enabled && rows > 0 && rows >= NextRefitAt(schedule, std::max(0, last));
}

}  // namespace

Refitter::Refitter(const OptimizerOptions& options, const RefitPolicy& policy, RewardModel& reward,
                   ConstraintModels& constraints, const ObservationCounts& counts,
                   DeferredWork& work, const std::string& worker, bool named)
    : options_(options),
      policy_(policy),
      reward_(reward),
      constraints_(constraints),
      counts_(counts),
      work_(work),
      claims_(options.refit, worker, named, WorkerProcessGone,
              options.log_path + "\n" + options.storage + "\n" + options.study) {}

double Refitter::Claim(int rows_after, double now) const {
  return claims_.ClaimFor(RefitDue(options_.refit, last_fit_observations_, rows_after), rows_after,
                          now);
}

void Refitter::NoteClaim(double until, bool mine, const std::string& claimant) {
  if (mine)
    claims_.NoteOwn(until, counts_.rows());
  else
    claims_.NoteReplayed(until, counts_.rows(), claimant);
}

void Refitter::OweIfDue(bool claims_hold, double now) {
  claims_.OweIfDue(RefitDue(options_.refit, last_fit_observations_, counts_.rows()), !claims_hold,
                   counts_.rows(), now);
}

std::string Refitter::MaybeRefit(long round) {
  if (!work_.caught_up())
    throw std::logic_error("MaybeRefit before the models caught up (CatchUp)");
  // Counted in model rows: failures with imputed rewards are data the fit must explain too.
  const int observed = reward_.num_observations();
  if (!options_.refit.enabled || observed == 0 || !claims_.owed()) return "";
  return Refit(round, /*keep_duration=*/true);
}

std::string Refitter::PreviewRefit(long round, double now) {
  if (!work_.caught_up())
    throw std::logic_error("PreviewRefit before the models caught up (CatchUp)");
  const int observed = reward_.num_observations();
  const bool due = RefitDue(options_.refit, last_fit_observations_, counts_.rows());
  if (!options_.refit.enabled || observed == 0 || !claims_.OwedByNextAsk(due, counts_.rows(), now))
    return "";
  return Refit(round, /*keep_duration=*/false);
}

std::string Refitter::Refit(long round, bool keep_duration) {
  const int observed = reward_.num_observations();
  const auto start = std::chrono::steady_clock::now();
  SaveFit();
  Rng rng = RoundRng(options_.seed, round, kStreamFit);
  // The fit runs on at most fit_max_observations of the observations (a copy of the model when
  // it holds no more), then the model takes the result exactly as a replay of the log does.
  GaussianProcess data = reward_.FitData(options_.fit_max_observations);
  const HyperparameterFitOptions fit = policy_.OptionsFor(data, observed);
  HyperparameterFitReport report = FitHyperparameters(fit, rng, &data);
  // With fidelities the fidelity is the last model input (model/model_inputs.h: a study with
  // fidelities has no time coordinate).
  FitDecoupledIfGatedOut(options_.fidelities, data.input_dim() - 1, fit, rng, &data, &report);
  reward_.SetHyperparameters(data.kernel_log_params(), data.noise_variance());
  const ConstraintFits fits =
      constraints_.Refit(fit, policy_.BaseOptions(observed), options_.seed, round);
  last_fit_observations_ = observed;
  has_fit_report_ = true;
  last_fit_report_ = std::move(report);
  if (keep_duration)
    claims_.set_last_refit_seconds(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return FormatFitRecord(round, reward_.kernel_log_params(), reward_.noise_variance(),
                         last_fit_report_.BriefReport(), fits.constraint_log_params,
                         fits.constraint_noise_variances, fits.signal_log_params,
                         fits.signal_noise_variances);
}

void Refitter::ReplayFit(const LogRecord& record) {
  constraints_.CheckFitRecord(record);
  // Whoever owed it, the study is refitted.
  claims_.Settle();
  if (work_.deferring()) {
    auto queued = std::make_shared<const LogRecord>(record);
    work_.Queue([this, queued] { SetHyperparameters(*queued); });
  } else {
    SetHyperparameters(record);
  }
  last_fit_observations_ = counts_.rows();
  has_fit_report_ = true;
  last_fit_report_ = HyperparameterFitReport();
  last_fit_report_.success = true;
  last_fit_report_.kernel_log_params = record.log_params;
  last_fit_report_.noise_variance = record.noise_variance;
  last_fit_report_.message = "restored from the log";
}

void Refitter::SetHyperparameters(const LogRecord& record) {
  reward_.SetHyperparameters(record.log_params, record.noise_variance);
  constraints_.SetHyperparameters(record);
}

void Refitter::ApplyOwnFit(const LogRecord& record, HyperparameterFitReport report) {
  ReplayFit(record);
  last_fit_report_ = std::move(report);
}

// What a refit changes, moved back into the models if its call does not commit.
void Refitter::SaveFit() {
  struct FitState {
    std::unique_ptr<RewardModel> reward;
    ConstraintModels::Saved constraints;
    int last_fit_observations = -1;
    bool has_fit_report = false;
    HyperparameterFitReport last_fit_report;
  };
  auto saved = std::make_shared<FitState>();
  saved->reward = std::make_unique<RewardModel>(reward_);
  saved->constraints = constraints_.Save();
  saved->last_fit_observations = last_fit_observations_;
  saved->has_fit_report = has_fit_report_;
  saved->last_fit_report = last_fit_report_;
  claims_.BeginFit([this, saved] {
    reward_ = std::move(*saved->reward);
    constraints_.Restore(std::move(saved->constraints));
    last_fit_observations_ = saved->last_fit_observations;
    has_fit_report_ = saved->has_fit_report;
    last_fit_report_ = std::move(saved->last_fit_report);
  });
}

}  // namespace gpbandit
