#include "model/model_keeper.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "study/round_rng.h"

namespace gpbandit {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

ModelKeeper::ModelKeeper(std::unique_ptr<Kernel> kernel, int input_dim,
                         const OptimizerOptions& options, const TimeModel& time,
                         bool default_kernel, bool cautious, int num_constraints,
                         int constraint_input_dim, bool local_allowed,
                         const std::vector<SafetySignal>& safety, int action_dim,
                         const std::string& worker, bool named)
    : options_(options),
      reward_(std::make_unique<RewardModel>(std::move(kernel), input_dim, options.gp,
                                            options.local_model, local_allowed)),
      num_constraints_(num_constraints),
      initial_log_params_(reward_->kernel_log_params()),
      policy_(options, time, default_kernel, cautious, initial_log_params_),
      chain_(options.sense),
      claims_(options.refit, worker, named) {
  if (!safety.empty()) {
    BuildSafetyModels(safety, constraint_input_dim, action_dim);
    return;
  }
  for (int i = 0; i < num_constraints; ++i)
    constraint_gps_.push_back(std::make_unique<ExactPosterior>(reward_->kernel().Clone(),
                                                               constraint_input_dim, options.gp));
}

// The reward's threshold is on the caller's values: a cost's upper limit becomes a lower limit
// on the reward, as its prior mean moves with the sense too.
void ModelKeeper::BuildSafetyModels(const std::vector<SafetySignal>& safety, int input_dim,
                                    int action_dim) {
  if (safety.size() != static_cast<std::size_t>(num_constraints_) + 1)
    throw std::invalid_argument("the strategy declares " + std::to_string(safety.size()) +
                                " safety signals for " + std::to_string(num_constraints_) +
                                " constraint signals (the reward's and one per constraint)");
  const double sign = chain_.sense().sign();
  for (std::size_t k = 0; k < safety.size(); ++k) {
    if (k == 0 && std::isnan(safety[0].threshold)) continue;
    SignalModelOptions model = safety[k].model;
    double threshold = safety[k].threshold;
    if (k == 0) {
      threshold *= sign;
      model.prior_mean *= sign;
      reward_safety_ = true;
    }
    signals_.emplace_back(threshold, model,
                          MakeSignalKernel(model, action_dim, input_dim - action_dim), input_dim,
                          input_dim - action_dim, options_.gp);
  }
}

const GaussianProcess& ModelKeeper::constraint(int i) const {
  if (i < 0 || i >= num_constraints_)
    throw std::out_of_range("constraint model " + std::to_string(i) + " of " +
                            std::to_string(num_constraints_));
  if (!signals_.empty()) return signals_[static_cast<std::size_t>(constraint_safety_model(i))].gp();
  return *constraint_gps_[static_cast<std::size_t>(i)]->gp();
}

double ModelKeeper::ImputedReward(double worst, int accepted) const {
  if (options_.non_finite_rewards != NonFiniteRewardPolicy::kImputeWorst || accepted == 0)
    return kNaN;
  return worst;
}

double ModelKeeper::Add(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input,
                        double told, bool accepted, const Eigen::VectorXd& constraints) {
  // The reward's safety model sees what the reward's model sees (an imputed failure included).
  const double reward = accepted ? chain_.ToReward(told) : ImputedReward();
  if (deferring_) {
    deferred_.push_back({input, unit_input, constraints, reward, accepted, nullptr});
  } else {
    AddToModels(input, unit_input, reward, accepted, constraints);
  }
  if (!std::isnan(reward)) ++rows_;
  if (!accepted) return reward;
  ++num_accepted_;
  worst_reward_ = std::min(worst_reward_, reward);
  return kNaN;
}

void ModelKeeper::AddToModels(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input,
                              double reward, bool accepted, const Eigen::VectorXd& constraints) {
  for (Eigen::Index i = 0; i < constraints.size(); ++i) {
    if (signals_.empty())
      constraint_gps_[static_cast<std::size_t>(i)]->AddObservation(unit_input, constraints(i),
                                                                   true);
    else
      signals_[static_cast<std::size_t>(constraint_safety_model(static_cast<int>(i)))].Add(
          unit_input, constraints(i));
  }
  if (std::isnan(reward)) return;
  if (reward_safety_) signals_[0].Add(unit_input, reward);
  AddReward(input, reward, accepted);
}

void ModelKeeper::CatchUp() {
  deferring_ = false;
  std::vector<Deferred> queued;
  queued.swap(deferred_);
  for (const Deferred& d : queued) {
    if (d.fit) {
      SetFittedHyperparameters(*d.fit);
    } else {
      AddToModels(d.input, d.unit_input, d.reward, d.accepted, d.constraints);
    }
  }
}

void ModelKeeper::AddReward(const Eigen::VectorXd& u, double reward, bool accepted) {
  const int old_exponent = chain_.unit().exponent();
  const double largest = std::max(largest_reward_magnitude_, std::abs(reward));
  const int exponent =
      reward_->options().standardize_outputs ? PowerOfTwoUnit::ExponentFor(largest) : 0;
  if (exponent != old_exponent) reward_->ScaleOutputs(old_exponent - exponent);
  const double residual = accepted ? RestartResidual(u, std::ldexp(reward, -exponent)) : kNaN;
  try {
    reward_->AddObservation(u, std::ldexp(reward, -exponent), accepted);
  } catch (...) {
    if (exponent != old_exponent) reward_->ScaleOutputs(exponent - old_exponent);
    throw;
  }
  chain_.unit().set_exponent(exponent);
  largest_reward_magnitude_ = largest;
  if (!std::isnan(residual)) restarts_->Observe(residual, std::lround(u(restart_time_dim_)));
}

void ModelKeeper::WatchForRestarts(std::shared_ptr<RestartMonitor> monitor, int time_dim) {
  restarts_ = std::move(monitor);
  restart_time_dim_ = time_dim;
}

// In the model's units (the reward unit): the posterior and the noise variance times the
// standardization's scale squared, the jitter counted as noise as the model counts it.
double ModelKeeper::RestartResidual(const Eigen::VectorXd& u, double reward) const {
  if (!restarts_) return kNaN;
  const GaussianProcess& gp = reward_->gp();
  double mean = 0.0, variance = 0.0;
  gp.MeanAndVariance(u, &mean, &variance);
  const double scale = gp.output_scale();
  return RestartMonitor::Residual(reward, mean, variance,
                                  (gp.noise_variance() + gp.jitter()) * scale * scale);
}

double ModelKeeper::RefitClaim(int rows_after, double now) const {
  return claims_.ClaimFor(RefitDue(options_.refit, last_fit_observations_, rows_after), rows_after,
                          now);
}

void ModelKeeper::NoteRefitClaim(double until, bool mine, const std::string& claimant) {
  if (mine)
    claims_.NoteOwn(until, rows_);
  else
    claims_.NoteReplayed(until, rows_, claimant);
}

void ModelKeeper::OweRefitIfDue(bool claims_hold, double now) {
  claims_.OweIfDue(RefitDue(options_.refit, last_fit_observations_, rows_), !claims_hold, rows_,
                   now);
}

std::string ModelKeeper::MaybeRefit(long round) {
  if (deferring_ || !deferred_.empty())
    throw std::logic_error("MaybeRefit before the models caught up (CatchUp)");
  // Counted in model rows: failures with imputed rewards are data the fit must explain too.
  const int observed = reward_->num_observations();
  if (!options_.refit.enabled || observed == 0 || !claims_.owed()) return "";
  const auto start = std::chrono::steady_clock::now();
  SaveFit();
  Rng rng = RoundRng(options_.seed, round, kStreamFit);
  // The fit runs on at most fit_max_observations of the observations (a copy of the model when
  // it holds no more), then the model takes the result exactly as a replay of the log does, so
  // that live and resumed runs hold bit-identical models.
  GaussianProcess data = reward_->FitData(options_.fit_max_observations);
  const HyperparameterFitOptions fit = policy_.OptionsFor(data, observed);
  HyperparameterFitReport report = FitHyperparameters(fit, rng, &data);
  reward_->SetHyperparameters(data.kernel_log_params(), data.noise_variance());
  std::vector<Eigen::VectorXd> constraint_log_params, signal_log_params;
  std::vector<double> constraint_noise_variances, signal_noise_variances;
  RefitConstraints(fit, round, &constraint_log_params, &constraint_noise_variances);
  RefitSafetyModels(observed, round, &signal_log_params, &signal_noise_variances);
  last_fit_observations_ = observed;
  has_fit_report_ = true;
  last_fit_report_ = std::move(report);
  claims_.set_last_refit_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return FormatFitRecord(round, reward_->kernel_log_params(), reward_->noise_variance(),
                         last_fit_report_.BriefReport(), constraint_log_params,
                         constraint_noise_variances, signal_log_params, signal_noise_variances);
}

void ModelKeeper::RefitSafetyModels(int observed, long round,
                                    std::vector<Eigen::VectorXd>* log_params,
                                    std::vector<double>* noise_variances) {
  const HyperparameterFitOptions base = policy_.BaseOptions(observed);
  for (std::size_t k = 0; k < signals_.size(); ++k) {
    Rng rng = RoundRng(options_.seed, round, kStreamConstraintFit + static_cast<int>(k));
    signals_[k].Refit(base, rng);
    log_params->push_back(signals_[k].gp().kernel_log_params());
    noise_variances->push_back(signals_[k].gp().noise_variance());
  }
}

void ModelKeeper::RefitConstraints(const HyperparameterFitOptions& fit, long round,
                                   std::vector<Eigen::VectorXd>* log_params,
                                   std::vector<double>* noise_variances) {
  for (std::size_t i = 0; i < constraint_gps_.size(); ++i) {
    GaussianProcess& gp = constraint_gps_[i]->mutable_gp();
    if (gp.num_observations() > 0) {
      Rng rng = RoundRng(options_.seed, round, kStreamConstraintFit + static_cast<int>(i));
      FitHyperparameters(fit, rng, &gp);
      // As for the reward's model: refactorized from the final values, as a replay does.
      gp.SetHyperparameters(gp.kernel_log_params(), gp.noise_variance());
    }
    log_params->push_back(gp.kernel_log_params());
    noise_variances->push_back(gp.noise_variance());
  }
}

void ModelKeeper::ReplayFit(const LogRecord& record) {
  if (record.constraint_log_params.size() != constraint_gps_.size())
    throw std::runtime_error(
        "a fit record holds " + std::to_string(record.constraint_log_params.size()) +
        " constraint models, the strategy has " + std::to_string(constraint_gps_.size()));
  if (record.signal_log_params.size() != signals_.size())
    throw std::runtime_error(
        "a fit record holds " + std::to_string(record.signal_log_params.size()) +
        " safety signal models, the strategy has " + std::to_string(signals_.size()));
  // Whoever owed it, the study is refitted.
  claims_.Settle();
  if (deferring_) {
    deferred_.push_back({{}, {}, {}, 0.0, false, std::make_shared<const LogRecord>(record)});
  } else {
    SetFittedHyperparameters(record);
  }
  last_fit_observations_ = rows_;
  has_fit_report_ = true;
  last_fit_report_ = HyperparameterFitReport();
  last_fit_report_.success = true;
  last_fit_report_.kernel_log_params = record.log_params;
  last_fit_report_.noise_variance = record.noise_variance;
  last_fit_report_.message = "restored from the log";
}

void ModelKeeper::SetFittedHyperparameters(const LogRecord& record) {
  reward_->SetHyperparameters(record.log_params, record.noise_variance);
  for (std::size_t i = 0; i < constraint_gps_.size(); ++i)
    constraint_gps_[i]->SetHyperparameters(record.constraint_log_params[i],
                                           record.constraint_noise_variances[i]);
  for (std::size_t k = 0; k < signals_.size(); ++k)
    signals_[k].SetHyperparameters(record.signal_log_params[k], record.signal_noise_variances[k]);
}

void ModelKeeper::ApplyOwnFit(const LogRecord& record, HyperparameterFitReport report) {
  ReplayFit(record);
  last_fit_report_ = std::move(report);
}

// What a refit changes, moved back into the models if its call does not commit.
void ModelKeeper::SaveFit() {
  struct FitState {
    std::unique_ptr<RewardModel> reward;
    std::vector<ExactPosterior> constraint_gps;
    std::vector<SignalModel> signals;
    int last_fit_observations = -1;
    bool has_fit_report = false;
    HyperparameterFitReport last_fit_report;
  };
  auto saved = std::make_shared<FitState>();
  saved->reward = std::make_unique<RewardModel>(*reward_);
  for (const auto& c : constraint_gps_) saved->constraint_gps.push_back(*c);
  saved->signals = signals_;
  saved->last_fit_observations = last_fit_observations_;
  saved->has_fit_report = has_fit_report_;
  saved->last_fit_report = last_fit_report_;
  claims_.BeginFit([this, saved] {
    *reward_ = std::move(*saved->reward);
    for (std::size_t i = 0; i < saved->constraint_gps.size(); ++i)
      *constraint_gps_[i] = std::move(saved->constraint_gps[i]);
    signals_ = std::move(saved->signals);
    last_fit_observations_ = saved->last_fit_observations;
    has_fit_report_ = saved->has_fit_report;
    last_fit_report_ = std::move(saved->last_fit_report);
  });
}

}  // namespace gpbandit
