// What a safe strategy (SafeOpt, safe_opt.h) declares about each of its safety signals: the
// threshold, in the caller's units, and what is known of the signal's model, so that the
// Optimizer can model every signal in its own units (model/signal_model.h) whatever units the
// caller writes it in.
//
// The Optimizer's model of a signal g with threshold h (docs/robot_tuning.md, "The model is the
// guarantee"): it observes v = (g - c) / u, c the prior mean (default h: an unexplored point is
// on the limit) and u the unit fixed by the first observation, |g_1 - c|; the GP's prior
// standard deviation is stddev (default u), its lengthscales fractions of the box, its noise
// never below noise_floor times the spread of the observed values about c. Refits are cautious:
// lengthscales never longer, the prior standard deviation never smaller than the initial ones,
// except the context lengthscales, which the evidence may lengthen up to
// context_lengthscale_cap.
// Scaling or shifting g (and h with it) changes no decision: every quantity above moves with it.
//
// Thread safety: plain data.
#ifndef GPBANDIT_ACQUISITION_SAFETY_SIGNAL_H_
#define GPBANDIT_ACQUISITION_SAFETY_SIGNAL_H_

#include <limits>
#include <string>
#include <vector>

namespace gpbandit {

// Prior knowledge of one signal's model, as SafeOpt's users give it (Berkenkamp, Krause &
// Schoellig 2016 give each constraint its own GP). Every field has a default that adapts to the
// data; a given value is in the signal's own (told) units, lengthscales in fractions of the
// box's width. JSON keys: the field names; null for NaN.
struct SignalModelOptions {
  // The kernel family over [action; context] in the unit cube: "" = the Optimizer's default
  // (Matern-5/2 with ARD; with contexts, times one over the contexts), or "se", "matern12",
  // "matern32", "matern52" (gp/kernel_factory.h, MakeKernel; ARD, and the same product form
  // with contexts). Default "".
  std::string kernel;
  // Initial lengthscales as fractions of each coordinate's range: one value for every
  // coordinate, or one per coordinate of [action; context]. Each finite and > 0. With cautious
  // refits also their upper bounds. Default empty = 0.3 (the default kernel's).
  std::vector<double> lengthscales;
  // The signal's prior standard deviation about prior_mean (told units): how far it may lie
  // from it at a point nobody evaluated. With cautious refits also its lower bound. NaN
  // (default): |g_1 - prior_mean| of the first observation, then fitted.
  double stddev = std::numeric_limits<double>::quiet_NaN();
  // The standard deviation of the signal's measurement noise (told units): the model's noise
  // never goes below it. NaN (default): fitted, never below noise_floor times the
  // root-mean-square of (g - prior_mean) over the observations.
  double noise_stddev = std::numeric_limits<double>::quiet_NaN();
  // The noise floor of fitted noise relative to the observed spread (above). In [0, 1).
  // Default 0.02.
  double noise_floor = 0.02;
  // The prior mean (told units). NaN (default): the threshold.
  double prior_mean = std::numeric_limits<double>::quiet_NaN();
  // Refit the hyperparameters with the Optimizer's refits (OptimizerOptions::refit); false
  // keeps them as given (the papers' setting). Default true.
  bool fit = true;
  // Refits may only make the model more cautious than its initial hyperparameters (shorter
  // lengthscales, larger prior standard deviation); false lets them move within the fit's
  // ranges either way. Default true.
  bool cautious = true;
  // The longest lengthscale a cautious refit may give each context coordinate when
  // `lengthscales` is not given, as a fraction of the context's range: the context lengthscales
  // start at 0.3, as the actions', with the same prior (log l ~ N(log 0.3, 1)), and the marginal
  // likelihood may lengthen them up to this cap. The actions' lengthscales never grow: the
  // Optimizer chooses the actions, inside the safe set, so their data say little about the gains
  // beyond it; the contexts are revealed over their whole range by the plant, so their data
  // measure how the signal changes with the context. Values <= 0.3 keep the context
  // lengthscales at most 0.3 (the models of log format <= 6, which older logs resume with).
  // Finite and >= 0. Default 1 (the context's whole range): docs/robot_tuning.md, "Contexts".
  double context_lengthscale_cap = 1.0;
  // Cautious refits keep the prior standard deviation at least the largest |g - prior_mean|
  // measured so far, not only its initial value (the first measurement's distance when
  // `stddev` is not given): a signal measured that far from its prior mean may lie that far
  // from the model's mean where nobody measured. Scales with the signal's units. false: the
  // initial value alone (the models of log format <= 7, which older logs resume with).
  // Default true: docs/robot_tuning.md, "The model is the guarantee".
  bool stddev_covers_measured = true;

  // True if every field is in range; otherwise false and *error names the field and value.
  // `field` prefixes the names (e.g. "signal_models[1].").
  bool IsValid(std::string* error, const std::string& field = "") const;
};

// One safety signal of a safe strategy: the signal must stay >= threshold (caller's units).
struct SafetySignal {
  // NaN: the signal is no safety signal (only the reward's entry may be).
  double threshold = std::numeric_limits<double>::quiet_NaN();
  SignalModelOptions model;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_SAFETY_SIGNAL_H_
