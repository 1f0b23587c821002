// What a strategy asks of the model when the objective drifts over the rounds (Bogunovic,
// Scarlett & Cevher, "Time-Varying Gaussian Process Bandit Optimization", AISTATS 2016).
//
// A strategy returns it from Strategy::time_model(). When the kind is not kNone, the Optimizer
// appends one input coordinate to the model, the round of each observation (the ask round that
// handed out its point, logged with every tell so that a resumed run rebuilds the same model;
// optimizer.h), multiplies the spatial kernel by the time kernel below over that coordinate
// (gp/time_kernels.h), and scores candidates at the round being asked. This carries over to
// every strategy that reads the model through its posterior at a point or on a candidate set:
// GP-UCB, CGP-UCB (contexts: the time kernel multiplies the action x context kernel), IGP-UCB,
// EI, PI, mean, variance, and GP-TS on finite sets. GP-TS on boxes does not carry over: its
// sample paths need random features, which the forgetting kernel does not provide.
#ifndef GPBANDIT_ACQUISITION_TIME_MODEL_H_
#define GPBANDIT_ACQUISITION_TIME_MODEL_H_

#include "gpbandit/gp/prior_mean_estimate.h"

namespace gpbandit {

enum class TimeModelKind {
  kNone,        // a stationary objective: no time coordinate (every strategy's default)
  kForgetting,  // k_time = (1 - epsilon)^{|t - t'| / 2} (TV-GP-UCB)
  kEpochs,      // k_time = [t and t' in the same epoch of epoch_length rounds] (R-GP-UCB)
  kRestarts,    // k_time = [t and t' in the same epoch], epochs begun where the data say the
                // model is stale (R-GP-UCB's default since log format 7; below)
};

struct TimeModel {
  TimeModelKind kind = TimeModelKind::kNone;
  // kForgetting: the forgetting rate eps in (0, 1), and whether the hyperparameter fit
  // estimates it (then epsilon is its start and [min_epsilon, max_epsilon] its bounds, with
  // 0 < min_epsilon < max_epsilon < 1).
  double epsilon = 0.01;
  bool fit_epsilon = false;
  double min_epsilon = 1e-4;
  double max_epsilon = 0.5;
  // kEpochs: N >= 1 rounds per epoch; the model forgets everything at rounds N, 2N, ...
  long epoch_length = 0;
  // kRestarts: the Optimizer standardizes each accepted reward against the model's predictive
  // distribution before the reward is added, z = (y - mu(x)) / sqrt(sigma^2(x) + noise), and
  // starts a new epoch after the round of the latest observation when the mean of z^2 over
  // the epoch's last restart_window observations exceeds restart_threshold
  // (model/restart_monitor.h). restart_window >= 1; restart_threshold > 0.
  int restart_window = 20;
  double restart_threshold = 5.0;
  // The reward model's constant prior mean (with standardized outputs): kGeneralizedLeastSquares
  // overrides OptimizerOptions::gp.prior_mean. A model that forgets regresses every region it has
  // forgotten to this mean, so it decides how good an unmeasured region looks late in a run.
  PriorMeanEstimate prior_mean = PriorMeanEstimate::kSampleMean;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_TIME_MODEL_H_
