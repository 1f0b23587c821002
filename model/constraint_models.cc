#include "model/constraint_models.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "model/default_model.h"
#include "study/round_rng.h"

namespace gpbandit {

ConstraintModels::ConstraintModels(const Kernel& reward_kernel, int num_constraints, int input_dim,
                                   const GaussianProcessOptions& gp,
                                   const std::vector<SafetySignal>& safety, int action_dim,
                                   double sense_sign, const FidelityOptions& fidelities)
    : num_constraints_(num_constraints),
      signal_input_dim_(input_dim + (fidelities.active() ? 1 : 0)) {
  if (!safety.empty()) {
    BuildSafetyModels(safety, input_dim, action_dim, sense_sign, gp, fidelities);
    return;
  }
  if (fidelities.active() && num_constraints > 0)
    throw std::invalid_argument(
        "OptimizerOptions.fidelities: constraint signals without declared safety signals "
        "(models of log format <= 4) have no model over the fidelities");
  for (int i = 0; i < num_constraints; ++i)
    constraint_gps_.push_back(
        std::make_unique<ExactPosterior>(reward_kernel.Clone(), input_dim, gp));
}

// The reward's threshold is on the caller's values: a cost's upper limit becomes a lower limit
// on the reward, as its prior mean moves with the sense too.
void ConstraintModels::BuildSafetyModels(const std::vector<SafetySignal>& safety, int input_dim,
                                         int action_dim, double sense_sign,
                                         const GaussianProcessOptions& gp,
                                         const FidelityOptions& fidelities) {
  if (safety.size() != static_cast<std::size_t>(num_constraints_) + 1)
    throw std::invalid_argument("the strategy declares " + std::to_string(safety.size()) +
                                " safety signals for " + std::to_string(num_constraints_) +
                                " constraint signals (the reward's and one per constraint)");
  for (std::size_t k = 0; k < safety.size(); ++k) {
    if (k == 0 && std::isnan(safety[0].threshold)) continue;
    SignalModelOptions model = safety[k].model;
    double threshold = safety[k].threshold;
    if (k == 0) {
      threshold *= sense_sign;
      model.prior_mean *= sense_sign;
      reward_safety_ = true;
    }
    SignalFidelity where;
    if (fidelities.active()) where = {input_dim, fidelities.target(), fidelities.min_correlation};
    signals_.emplace_back(
        threshold, model,
        WithFidelityKernel(MakeSignalKernel(model, action_dim, input_dim - action_dim), fidelities,
                           input_dim),
        signal_input_dim_, input_dim - action_dim, gp, where);
  }
}

const GaussianProcess& ConstraintModels::constraint(int i) const {
  if (i < 0 || i >= num_constraints_)
    throw std::out_of_range("constraint model " + std::to_string(i) + " of " +
                            std::to_string(num_constraints_));
  if (!signals_.empty()) return signals_[static_cast<std::size_t>(constraint_safety_model(i))].gp();
  return *constraint_gps_[static_cast<std::size_t>(i)]->gp();
}

void ConstraintModels::Add(const Eigen::VectorXd& u, const Eigen::VectorXd& constraints) {
  if (constraints.size() != 0 && constraints.size() != num_constraints_)
    throw std::invalid_argument("constraints has " + std::to_string(constraints.size()) +
                                " values for " + std::to_string(num_constraints_) +
                                " constraint signals");
  for (Eigen::Index i = 0; i < constraints.size(); ++i) {
    if (signals_.empty())
      constraint_gps_[static_cast<std::size_t>(i)]->AddObservation(u, constraints(i), true);
    else
      signals_[static_cast<std::size_t>(constraint_safety_model(static_cast<int>(i)))].Add(
          u, constraints(i));
  }
}

void ConstraintModels::AddReward(const Eigen::VectorXd& u, double reward) {
  if (reward_safety_) signals_[0].Add(u, reward);
}

ConstraintFits ConstraintModels::Refit(const HyperparameterFitOptions& constraint_fit,
                                       const HyperparameterFitOptions& signal_fit,
                                       std::uint64_t seed, long round) {
  ConstraintFits fits;
  for (std::size_t i = 0; i < constraint_gps_.size(); ++i) {
    GaussianProcess& gp = constraint_gps_[i]->mutable_gp();
    if (gp.num_observations() > 0) {
      Rng rng = RoundRng(seed, round, kStreamConstraintFit + static_cast<int>(i));
      FitHyperparameters(constraint_fit, rng, &gp);
      // As for the reward's model: refactorized from the final values, as a replay does.
      gp.SetHyperparameters(gp.kernel_log_params(), gp.noise_variance());
    }
    fits.constraint_log_params.push_back(gp.kernel_log_params());
    fits.constraint_noise_variances.push_back(gp.noise_variance());
  }
  for (std::size_t k = 0; k < signals_.size(); ++k) {
    Rng rng = RoundRng(seed, round, kStreamConstraintFit + static_cast<int>(k));
    signals_[k].Refit(signal_fit, rng);
    fits.signal_log_params.push_back(signals_[k].gp().kernel_log_params());
    fits.signal_noise_variances.push_back(signals_[k].gp().noise_variance());
  }
  return fits;
}

void ConstraintModels::CheckFitRecord(const LogRecord& record) const {
  if (record.constraint_log_params.size() != constraint_gps_.size())
    throw std::runtime_error(
        "a fit record holds " + std::to_string(record.constraint_log_params.size()) +
        " constraint models, the strategy has " + std::to_string(constraint_gps_.size()));
  if (record.signal_log_params.size() != signals_.size())
    throw std::runtime_error(
        "a fit record holds " + std::to_string(record.signal_log_params.size()) +
        " safety signal models, the strategy has " + std::to_string(signals_.size()));
}

void ConstraintModels::SetHyperparameters(const LogRecord& record) {
  for (std::size_t i = 0; i < constraint_gps_.size(); ++i)
    constraint_gps_[i]->SetHyperparameters(record.constraint_log_params[i],
                                           record.constraint_noise_variances[i]);
  for (std::size_t k = 0; k < signals_.size(); ++k)
    signals_[k].SetHyperparameters(record.signal_log_params[k], record.signal_noise_variances[k]);
}

ConstraintModels::Saved ConstraintModels::Save() const {
  Saved saved;
  for (const auto& c : constraint_gps_) saved.constraint_gps.push_back(*c);
  saved.signals = signals_;
  return saved;
}

void ConstraintModels::Restore(Saved saved) {
  for (std::size_t i = 0; i < saved.constraint_gps.size(); ++i)
    *constraint_gps_[i] = std::move(saved.constraint_gps[i]);
  signals_ = std::move(saved.signals);
}

}  // namespace gpbandit
