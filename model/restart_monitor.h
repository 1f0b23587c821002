// When R-GP-UCB's model is stale (TimeModelKind::kRestarts, acquisition/time_model.h): a test
// on the standardized residuals of the observations against the model's predictive
// distribution before each was added.
//
// For each accepted reward y at input x of round r, told to a model with posterior mean mu(x),
// variance sigma^2(x) and noise variance s^2 (all in the same units), the residual is
// z = (y - mu(x)) / sqrt(sigma^2(x) + s^2), N(0, 1) when the model is right. The monitor keeps
// the residuals of the current epoch (observations of rounds >= the epoch's start) and, once it
// holds W = window of them, computes the mean of z^2 over the last W: sum z_i^2 is chi-square
// with W degrees of freedom under the model, so a mean above `threshold` says the objective has
// moved away from what the model learnt (for W = 20, P(mean > 5) = 1e-12 under the model; fitted
// models have heavier tails, hence R-GP-UCB's high default, acquisition/r_gp_ucb.h). It then
// starts a new epoch at R = 1 + the largest round seen: every observation held is of an
// earlier round, so the restart changes no covariance between them (RestartKernel), and asks
// from round R on see the prior (GP-UCB restarted, as Bogunovic, Scarlett & Cevher's R-GP-UCB
// restarts every N rounds; here the data choose when, in the spirit of Brunzema et al.'s
// event-triggered ET-GP-UCB, TMLR 2025).
//
// The decision is a function of the observations and of the model each met, in the order told:
// a resumed or joining optimizer replays the same tells into the same models (deferred or not,
// ModelKeeper) and finds the same restarts; nothing about them is logged.
//
// Internal to model/; not thread-safe (the Optimizer mutates it under its own exclusion).
#ifndef GPBANDIT_MODEL_RESTART_MONITOR_H_
#define GPBANDIT_MODEL_RESTART_MONITOR_H_

#include <deque>
#include <memory>
#include <vector>

namespace gpbandit {

class RestartMonitor {
 public:
  // window >= 1, threshold > 0; throws std::invalid_argument naming the field and value.
  RestartMonitor(int window, double threshold);

  // The epochs' starts, ascending, for RestartKernel (shared: it grows as epochs start).
  std::shared_ptr<const std::vector<long>> epoch_starts() const { return starts_; }
  // The first round of the epoch that round `round` belongs to (0 in the first epoch).
  long EpochStart(long round) const;

  // The standardized residual z = (y - mean) / sqrt(variance + noise_variance).
  static double Residual(double y, double mean, double variance, double noise_variance);
  // Notes the residual z of an observation of round `round`; returns true when it starts a new
  // epoch (then epoch_starts() has gained 1 + the largest round seen).
  bool Observe(double z, long round);
  // The mean of z^2 over the current epoch's last `window` residuals (NaN while fewer).
  double Statistic() const;

 private:
  int window_;
  double threshold_;
  std::shared_ptr<std::vector<long>> starts_ = std::make_shared<std::vector<long>>();
  std::deque<double> squares_;  // z^2 of the current epoch's latest residuals, at most window_
  long largest_round_ = -1;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_RESTART_MONITOR_H_
