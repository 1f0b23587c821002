// The values the ask/tell Optimizer (optimizer.h) hands back: recommendations, pending points,
// observations, predictions and per-round reports. Plain structs; every point in ORIGINAL units.
#ifndef GPBANDIT_STUDY_OPTIMIZER_TYPES_H_
#define GPBANDIT_STUDY_OPTIMIZER_TYPES_H_

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gpbandit/hyperparams/fit.h"

namespace gpbandit {

// What Best() recommends: the observed point with the highest posterior mean.
struct Recommendation {
  Eigen::VectorXd x;           // action, original units
  Eigen::VectorXd z;           // its context (empty without contexts)
  double posterior_mean = 0;   // mu_t at (x, z), original output units
  double observed_reward = 0;  // the reward told for it (the last one, if told several times)
};

// Outcomes by name (study/outcome_options.h), e.g. {{"itae", 0.3}, {"effort", 4.2}}.
using OutcomeValues = std::map<std::string, double>;

// A point of Optimizer::ParetoFront().
struct ParetoPoint {
  Eigen::VectorXd x, z;               // action and context, original units
  Eigen::VectorXd outcomes;           // every outcome told for it, in tell order, caller's units
  Eigen::VectorXd means;              // the objectives' posterior means there, caller's units
  double probability_feasible = 1.0;  // posterior probability that every constraint holds
};

// A point handed out by Ask or AskBatch and not yet told or released.
struct PendingPoint {
  Eigen::VectorXd x, z;  // action and context, original units
  long round = 0;        // the ask round that handed it out
  std::string worker;    // WorkerOptions::id of the worker that holds it ("" in older logs)
  // The end of its lease (WorkerOptions::pending_lease_seconds), seconds since the Unix epoch
  // on the study's clock; infinity when it never ends.
  double lease_until = std::numeric_limits<double>::infinity();
  // Its trial number, the handle Optimizer::TellTrial and ReleaseTrial take: 0, 1, 2, ... in
  // the order the study's asks handed points out (every worker of a study numbers them alike).
  long trial = -1;
  // The fidelity to evaluate it at (OptimizerOptions::fidelities; 0 the cheapest); -1 in a
  // study without fidelities.
  int fidelity = -1;
};

// A point handed out by Optimizer::AskFidelity: the action, the fidelity to evaluate it at and
// its name, and its trial number.
struct FidelityPoint {
  Eigen::VectorXd x;  // original units
  int fidelity = -1;
  std::string fidelity_name;
  long trial = -1;
};

// One told observation as the optimizer keeps it (accepted or failed).
struct Observation {
  Eigen::VectorXd x, z;
  double y = 0;
  bool accepted = true;  // false: a non-finite reward (NonFiniteRewardPolicy kSkip, kImputeWorst)
  // The reward the model was told instead of a non-finite y (kImputeWorst); NaN if none.
  double imputed = std::numeric_limits<double>::quiet_NaN();
  // The measured constraint signals g_i (SafeOpt-MC); empty when none were told.
  Eigen::VectorXd constraints;
  // True if the observation is in the model (accepted, or failed with an imputed reward).
  bool in_model() const { return accepted || !std::isnan(imputed); }
  // Its round: the ask round of the pending point it answered (exactly equal x and z), else the
  // last ask round (0 before any). The time coordinate of a time model
  // (acquisition/time_model.h). Logged with the tell.
  long round = 0;
  // The fidelity it was evaluated at (OptimizerOptions::fidelities); -1 in a study without
  // fidelities. Logged with the tell.
  int fidelity = -1;
};

// The model's belief about the objective at one point (Predict), in the caller's units: the
// posterior mean and standard deviation of f (not of a noisy observation), after undoing the
// output standardization, the reward unit and the objective sense.
struct Prediction {
  double mean = 0;
  double stddev = 0;
};

// What one Ask or AskBatch did (the optimizer's analogue of Ceres' IterationSummary), delivered
// to the round callback (SetRoundCallback) and kept for last_round_report().
struct RoundReport {
  long round = 0;  // the 0-based ask round
  // RoundState::t of its first model-driven slot, 1 + the observations (with hallucinated
  // pending points) in the model; 0 when every slot was a design point. (R-GP-UCB counts its
  // beta_t from the start of its epoch instead, RoundState::epoch_start.)
  int t = 0;
  // The strategy's figure (beta_t, v_t, xi) and its name; NaN when every slot was a design point.
  std::string figure_name;
  double figure = std::numeric_limits<double>::quiet_NaN();
  // Per point handed out, in order: the acquisition value the strategy gave it (the maximizer's
  // value on boxes, the score on finite sets; the strategy's units); NaN for a design point.
  std::vector<double> acquisition_values;
  // With fidelities (OptimizerOptions::fidelities): per point handed out, the fidelity to
  // evaluate it at and its name. Empty without fidelities.
  std::vector<int> fidelities;
  std::vector<std::string> fidelity_names;
  int num_design_points = 0;           // points of the initial design among them
  bool fitted = false;                 // this round refitted the hyperparameters
  HyperparameterFitReport fit_report;  // that fit's report (when fitted)
  double seconds = 0;                  // wall-clock time of the call
  // Under a safe strategy: each declared seed found measured unsafe since the last report
  // ("seed 1 (2, 0.5): constraint g_1 measured -0.07 < threshold -0.05; dropped"), also
  // handed to the warning sink (numerics/warning_sink.h). Empty otherwise.
  std::vector<std::string> warnings;
  // In a shared study (WorkerOptions::asks_outside_lock): how many times the points were chosen
  // outside the study's lock (0: under the lock only, or no storage), and whether they were
  // chosen under it in the end (others' new points bore on every choice made outside it).
  int choices_outside_lock = 0;
  bool chosen_under_lock = false;
};

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_OPTIMIZER_TYPES_H_
