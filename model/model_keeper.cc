#include "model/model_keeper.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace gpbandit {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The reward model's GP options: the study's, with the prior mean a time model asks for.
GaussianProcessOptions RewardGpOptions(GaussianProcessOptions gp, const TimeModel& time) {
  if (time.prior_mean == PriorMeanEstimate::kGeneralizedLeastSquares)
    gp.prior_mean = time.prior_mean;
  return gp;
}

}  // namespace

ModelKeeper::ModelKeeper(std::unique_ptr<Kernel> kernel, int input_dim,
                         const OptimizerOptions& options, const TimeModel& time,
                         bool default_kernel, bool cautious, int num_constraints,
                         int constraint_input_dim, bool local_allowed,
                         const std::vector<SafetySignal>& safety, int action_dim,
                         const std::string& worker, bool named)
    : reward_(std::make_unique<RewardModel>(std::move(kernel), input_dim,
                                            RewardGpOptions(options.gp, time), options.local_model,
                                            local_allowed)),
      initial_log_params_(reward_->kernel_log_params()),
      policy_(options, time, default_kernel, cautious, initial_log_params_),
      chain_(options.sense),
      outcome_map_(options.outcomes),
      constraints_(reward_->kernel(), num_constraints, constraint_input_dim, options.gp, safety,
                   action_dim, chain_.sense().sign(), options.fidelities),
      counts_(options.non_finite_rewards),
      refit_(options, policy_, *reward_, constraints_, counts_, work_, worker, named) {}

double ModelKeeper::Add(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input,
                        double told, bool accepted, const Eigen::VectorXd& constraints) {
  // The reward's safety model sees what the reward's model sees (an imputed failure included).
  const double reward = accepted ? chain_.ToReward(told) : counts_.ImputedReward();
  if (work_.deferring()) {
    work_.Queue([this, input, unit_input, reward, accepted, constraints] {
      AddToModels(input, unit_input, reward, accepted, constraints);
    });
  } else {
    AddToModels(input, unit_input, reward, accepted, constraints);
  }
  counts_.Count(reward, accepted);
  return accepted ? kNaN : reward;
}

void ModelKeeper::AddToModels(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input,
                              double reward, bool accepted, const Eigen::VectorXd& constraints) {
  // With fidelities the signals' models take [action; context; fidelity], the head of the
  // reward's input (model/model_inputs.h).
  const Eigen::VectorXd signal_input =
      constraints_.signal_input_dim() > unit_input.size()
          ? Eigen::VectorXd(input.head(constraints_.signal_input_dim()))
          : unit_input;
  constraints_.Add(signal_input, outcome_map_.ToModel(constraints));
  if (std::isnan(reward)) return;
  constraints_.AddReward(signal_input, reward);
  AddReward(input, reward, accepted);
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

}  // namespace gpbandit
