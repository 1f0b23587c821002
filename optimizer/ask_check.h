// The check of an ask chosen outside the study's lock (WorkerOptions::asks_outside_lock): the
// records other workers committed after the replica the ask was computed on, seen before they
// are replayed, decide whether its points may still be handed out.
//
// GP-BUCB (Desautels, Krause & Burdick 2014) chooses each point with every point in progress
// hallucinated at its posterior mean: the mean does not move and the variance only shrinks. An
// ask computed outside the lock did not hallucinate the points others handed out meanwhile
// (and the observations told of points it did not know). Hallucinating them afterwards lowers
// an acquisition that grows with the standard deviation (UCB, EI, PI, the variance) everywhere,
// and at the chosen point by what its standard deviation lost. When that loss is at most the
// tolerance (WorkerOptions::ask_tolerance) times the point's prior standard deviation, the point
// is kept: for UCB it is then within sqrt(beta_t) * tolerance * prior standard deviation of the
// maximum of the acquisition GP-BUCB would have maximized. (Standard deviations in the model's
// standardized units: a hallucinated point also changes the spread of the outputs, which
// scales every standard deviation alike. Relative to the prior, not to the point's own
// standard deviation: where the posterior is already sure, near the optimum late in a study, a
// large share of a small standard deviation moves the acquisition by little.) Otherwise, and
// always for a point equal to one of theirs, the ask is refused and chosen again, on the replica
// as it is then (chosen over moving the point; docs/benchmarks.md, section "Shared studies:
// workers per study, storage overhead"). Tells
// of points that were in progress for the ask change only its feedback, as GP-BUCB's delayed
// feedback allows (so do tells of points released meanwhile: they were in the posterior it
// chose from); others' refits change only the hyperparameters. A strict check (safe strategies,
// whose safe set any new observation moves; time models, whose point belongs to its round) refuses
// any new point, tell or refit.
//
// Internal to optimizer/; not thread-safe.
#ifndef GPBANDIT_OPTIMIZER_ASK_CHECK_H_
#define GPBANDIT_OPTIMIZER_ASK_CHECK_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/study/observation_log.h"
#include "gpbandit/study/optimizer_types.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {

class AskCheck {
 public:
  // What the check needs of the optimizer: a record's model input (action, context, round).
  // The posterior is a GP's (a rank-one round is chosen under the lock).
  struct Inputs {
    std::function<Eigen::VectorXd(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round)>
        model_input;
  };

  // call: the ask as chosen; posterior: the posterior its model slots were chosen from, before
  // any of them was hallucinated (the active pending points and the call's design points in
  // it), taken over and detached from the model; in_progress: the points in progress when it was
  // chosen; now: the clock of the replica it was chosen on; tolerance: the largest loss of a
  // kept point's posterior standard deviation, as a share of its prior one, in [0, 1].
  AskCheck(const AskCall& call, std::unique_ptr<AskPosterior> posterior,
           const std::vector<PendingPoint>& in_progress, double now, double tolerance, bool strict,
           Inputs inputs);

  // Examines records others committed, in order, before they are replayed.
  void Examine(const std::vector<LogRecord>& arrived);
  // The replica was rebuilt from the start: nothing the ask was computed on holds.
  void Invalidate(const std::string& why);

  bool keeps_points() const { return reason_.empty(); }
  // Why the points were refused ("" when kept).
  const std::string& reason() const { return reason_; }
  // Whether another worker recorded a refit meanwhile (this worker's own refit is then dropped).
  bool others_refitted() const { return others_refitted_; }

 private:
  // A point others handed out or told that the ask did not know: refused when equal to a slot,
  // else hallucinated.
  void AddUnknown(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round);
  bool Known(const Eigen::VectorXd& x, const Eigen::VectorXd& z);
  void Refuse(const std::string& why);

  AskCall call_;
  std::unique_ptr<AskPosterior> posterior_;
  std::vector<PendingPoint> known_;       // in progress for the ask, or handed out since
  std::vector<Eigen::VectorXd> unknown_;  // the actions of points it did not know
  std::vector<int> model_slots_;
  std::vector<Eigen::VectorXd> slot_inputs_;
  std::vector<double> slot_stddevs_;   // standardized, before the unknown points
  std::vector<double> prior_stddevs_;  // standardized
  double now_;
  double tolerance_;
  bool strict_;
  Inputs inputs_;
  std::string reason_;
  bool others_refitted_ = false;
};

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_ASK_CHECK_H_
