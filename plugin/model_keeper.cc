#include "plugin/model_keeper.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "plugin/round_rng.h"

namespace gpbandit {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

ModelKeeper::ModelKeeper(std::unique_ptr<Kernel> kernel, int input_dim,
                         const OptimizerOptions& options, const TimeModel& time,
                         bool default_kernel, bool cautious, int num_constraints,
                         int constraint_input_dim, bool local_allowed)
    : options_(options),
      reward_(std::make_unique<RewardModel>(std::move(kernel), input_dim, options.gp,
                                            options.local_model, local_allowed)),
      initial_log_params_(reward_->kernel_log_params()),
      policy_(options, time, default_kernel, cautious, initial_log_params_),
      chain_(options.sense) {
  for (int i = 0; i < num_constraints; ++i)
    constraint_gps_.push_back(std::make_unique<GaussianProcess>(reward_->kernel().Clone(),
                                                                constraint_input_dim, options.gp));
}

double ModelKeeper::ImputedReward(double worst, int accepted) const {
  if (options_.non_finite_rewards != NonFiniteRewardPolicy::kImputeWorst || accepted == 0)
    return kNaN;
  return worst;
}

double ModelKeeper::Add(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input,
                        double told, bool accepted, const Eigen::VectorXd& constraints) {
  for (Eigen::Index i = 0; i < constraints.size(); ++i)
    constraint_gps_[static_cast<std::size_t>(i)]->AddObservation(unit_input, constraints(i));
  if (accepted) {
    const double reward = chain_.ToReward(told);
    AddReward(input, reward, true);
    ++num_accepted_;
    worst_reward_ = std::min(worst_reward_, reward);
    return kNaN;
  }
  const double imputed = ImputedReward();
  if (!std::isnan(imputed)) AddReward(input, imputed, false);
  return imputed;
}

void ModelKeeper::AddReward(const Eigen::VectorXd& u, double reward, bool accepted) {
  const int old_exponent = chain_.unit().exponent();
  const double largest = std::max(largest_reward_magnitude_, std::abs(reward));
  const int exponent =
      reward_->options().standardize_outputs ? PowerOfTwoUnit::ExponentFor(largest) : 0;
  if (exponent != old_exponent) reward_->ScaleOutputs(old_exponent - exponent);
  try {
    reward_->AddObservation(u, std::ldexp(reward, -exponent), accepted);
  } catch (...) {
    if (exponent != old_exponent) reward_->ScaleOutputs(exponent - old_exponent);
    throw;
  }
  chain_.unit().set_exponent(exponent);
  largest_reward_magnitude_ = largest;
}

std::string ModelKeeper::MaybeRefit(long round) {
  // Counted in model rows: failures with imputed rewards are data the fit must explain too.
  const int observed = reward_->num_observations();
  if (!options_.refit.enabled || observed == 0) return "";
  if (!options_.refit.ShouldRefit(observed, std::max(0, last_fit_observations_))) return "";
  if (last_fit_observations_ == observed) return "";
  SaveFit();
  Rng rng = RoundRng(options_.seed, round, kStreamFit);
  // The fit runs on at most fit_max_observations of the observations (a copy of the model when
  // it holds no more), then the model takes the result exactly as a replay of the log does, so
  // that live and resumed runs hold bit-identical models.
  GaussianProcess data = reward_->FitData(options_.fit_max_observations);
  const HyperparameterFitOptions fit = policy_.OptionsFor(data, observed);
  HyperparameterFitReport report = FitHyperparameters(fit, rng, &data);
  reward_->SetHyperparameters(data.kernel_log_params(), data.noise_variance());
  std::vector<Eigen::VectorXd> constraint_log_params;
  std::vector<double> constraint_noise_variances;
  RefitConstraints(fit, round, &constraint_log_params, &constraint_noise_variances);
  last_fit_observations_ = observed;
  has_fit_report_ = true;
  last_fit_report_ = std::move(report);
  return FormatFitRecord(round, reward_->kernel_log_params(), reward_->noise_variance(),
                         last_fit_report_.BriefReport(), constraint_log_params,
                         constraint_noise_variances);
}

void ModelKeeper::RefitConstraints(const HyperparameterFitOptions& fit, long round,
                                   std::vector<Eigen::VectorXd>* log_params,
                                   std::vector<double>* noise_variances) {
  for (std::size_t i = 0; i < constraint_gps_.size(); ++i) {
    GaussianProcess& gp = *constraint_gps_[i];
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
  reward_->SetHyperparameters(record.log_params, record.noise_variance);
  if (record.constraint_log_params.size() != constraint_gps_.size())
    throw std::runtime_error(
        "a fit record holds " + std::to_string(record.constraint_log_params.size()) +
        " constraint models, the strategy has " + std::to_string(constraint_gps_.size()));
  for (std::size_t i = 0; i < constraint_gps_.size(); ++i)
    constraint_gps_[i]->SetHyperparameters(record.constraint_log_params[i],
                                           record.constraint_noise_variances[i]);
  last_fit_observations_ = reward_->num_observations();
  has_fit_report_ = true;
  last_fit_report_ = HyperparameterFitReport();
  last_fit_report_.success = true;
  last_fit_report_.kernel_log_params = record.log_params;
  last_fit_report_.noise_variance = record.noise_variance;
  last_fit_report_.message = "restored from the log";
}

void ModelKeeper::SaveFit() {
  auto saved = std::make_unique<FitState>();
  saved->reward = std::make_unique<RewardModel>(*reward_);
  for (const auto& c : constraint_gps_) saved->constraint_gps.push_back(*c);
  saved->last_fit_observations = last_fit_observations_;
  saved->has_fit_report = has_fit_report_;
  saved->last_fit_report = last_fit_report_;
  saved_fit_ = std::move(saved);
}

void ModelKeeper::RestoreFit() {
  if (!saved_fit_) return;
  *reward_ = std::move(*saved_fit_->reward);
  for (std::size_t i = 0; i < saved_fit_->constraint_gps.size(); ++i)
    *constraint_gps_[i] = std::move(saved_fit_->constraint_gps[i]);
  last_fit_observations_ = saved_fit_->last_fit_observations;
  has_fit_report_ = saved_fit_->has_fit_report;
  last_fit_report_ = std::move(saved_fit_->last_fit_report);
  saved_fit_.reset();
}

}  // namespace gpbandit
