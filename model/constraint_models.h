// The models of a study's constraint and safety signals, beside the reward's model. Two kinds,
// fixed by the strategy at construction:
// - declared safety signals (Strategy::safety_signals(), log format >= 5): each signal with a
//   threshold has its own SignalModel (model/signal_model.h) in its own units, the reward's
//   first (when it has a threshold), then one per constraint signal; logged in fit records as
//   "signals";
// - otherwise (log format <= 4) one ExactPosterior (model/exact_posterior.h) per constraint
//   signal in the caller's units, copying the reward's kernel and refitted with the reward's fit
//   options; logged as "constraints".
// Every model is over the unit-cube inputs [action; context]; with fidelities
// (study/fidelity_options.h) each safety signal's model is over [action; context; fidelity]
// with the joint kernel (SignalModel, SignalFidelity) and reads its decisions at the target.
// Refit i draws from stream
// kStreamConstraintFit + i of its round (study/round_rng.h), so that adding signals never
// changes what the reward's fit and the choice draw. Internal to model/; not thread-safe.
#ifndef GPBANDIT_MODEL_CONSTRAINT_MODELS_H_
#define GPBANDIT_MODEL_CONSTRAINT_MODELS_H_

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpbandit/acquisition/safety_signal.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/study/fidelity_options.h"
#include "gpbandit/study/observation_log.h"
#include "model/exact_posterior.h"
#include "model/signal_model.h"

namespace gpbandit {

// The constraint and signal models' part of a fit record (FormatFitRecord).
struct ConstraintFits {
  std::vector<Eigen::VectorXd> constraint_log_params, signal_log_params;
  std::vector<double> constraint_noise_variances, signal_noise_variances;
};

class ConstraintModels {
 public:
  // num_constraints constraint signals over unit-cube inputs of dimension input_dim, whose
  // first action_dim coordinates are actions. Without `safety`, each signal's GP starts from a
  // copy of reward_kernel. safety: the reward's signal, then one per constraint (thresholds in
  // the caller's units); sense_sign: +1 when the caller maximizes, -1 when it minimizes (a
  // cost's upper limit becomes a lower limit on the reward). Throws std::invalid_argument when
  // safety is neither empty nor num_constraints + 1 long.
  // fidelities: the study's; when active, the safety models' inputs are [action; context;
  // fidelity] (input_dim + 1 coordinates: signal_input_dim()), the legacy constraint models are
  // refused (std::invalid_argument).
  ConstraintModels(const Kernel& reward_kernel, int num_constraints, int input_dim,
                   const GaussianProcessOptions& gp, const std::vector<SafetySignal>& safety = {},
                   int action_dim = 0, double sense_sign = 1.0,
                   const FidelityOptions& fidelities = FidelityOptions());

  // The dimension of the inputs Add takes: input_dim, plus one with fidelities.
  int signal_input_dim() const { return signal_input_dim_; }

  int num_constraints() const { return num_constraints_; }
  // Constraint signal i's model (the caller's units without safety signals, else its
  // SignalModel's units); std::out_of_range for i outside [0, num_constraints()).
  const GaussianProcess& constraint(int i) const;
  // The safety signals' models (empty without declared safety signals): the reward's first
  // when it has a threshold, then one per constraint signal.
  const std::vector<SignalModel>& safety_models() const { return signals_; }
  // The index in safety_models() of the reward's model, or -1.
  int reward_safety_model() const { return reward_safety_ ? 0 : -1; }
  // The index in safety_models() of constraint signal i's model.
  int constraint_safety_model(int i) const { return (reward_safety_ ? 1 : 0) + i; }

  // Adds constraint signal i's told value constraints(i) at unit-cube input u, for each i (none
  // when constraints is empty: a failure told without them). Throws std::invalid_argument,
  // changing nothing, for any other size than num_constraints().
  void Add(const Eigen::VectorXd& u, const Eigen::VectorXd& constraints);
  // Adds the reward (model sense) at u to the reward's safety model, if it has one.
  void AddReward(const Eigen::VectorXd& u, double reward);

  // Refits every model that can be refitted in round `round` of a study seeded `seed`: each
  // constraint GP with data by `constraint_fit` (the reward's options), each safety model by
  // its rule from `signal_fit` (SignalModel::Refit). Returns the fitted values.
  ConstraintFits Refit(const HyperparameterFitOptions& constraint_fit,
                       const HyperparameterFitOptions& signal_fit, std::uint64_t seed, long round);
  // Throws std::runtime_error unless the fit record holds one entry per model of each kind.
  void CheckFitRecord(const LogRecord& record) const;
  // Sets every model's hyperparameters from a fit record (checked by CheckFitRecord).
  void SetHyperparameters(const LogRecord& record);

  // The models as they are, for Restore to put back (a refit's transaction).
  struct Saved {
    std::vector<ExactPosterior> constraint_gps;
    std::vector<SignalModel> signals;
  };
  Saved Save() const;
  // The constraint GPs stay the same objects (references to them stay valid).
  void Restore(Saved saved);

 private:
  void BuildSafetyModels(const std::vector<SafetySignal>& safety, int input_dim, int action_dim,
                         double sense_sign, const GaussianProcessOptions& gp,
                         const FidelityOptions& fidelities);

  int num_constraints_ = 0;
  int signal_input_dim_ = 0;
  std::vector<std::unique_ptr<ExactPosterior>> constraint_gps_;
  std::vector<SignalModel> signals_;
  bool reward_safety_ = false;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_CONSTRAINT_MODELS_H_
