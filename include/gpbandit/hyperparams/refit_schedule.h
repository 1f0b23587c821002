// When the optimizer refits the hyperparameters: often while data are few and the fit changes
// a lot with each observation, then every few observations, where one O(t^3) fit per round
// would dominate a round's cost. Disabled, the hyperparameters stay as configured: the papers'
// setting of a known kernel.
//
// A plain options struct: thread safety as any value; deterministic.
#ifndef GPBANDIT_HYPERPARAMS_REFIT_SCHEDULE_H_
#define GPBANDIT_HYPERPARAMS_REFIT_SCHEDULE_H_

#include <string>

namespace gpbandit {

struct RefitSchedule {
  // Refit at all. false = fixed hyperparameters (the papers' known-kernel setting). Default true.
  bool enabled = true;
  // While num_observations < small_until, refit once at least every_while_small new
  // observations have arrived since the last refit. >= 1. Default 1 (every observation).
  int every_while_small = 1;
  // The number of observations below which the "small" cadence applies. >= 0. Default 20.
  int small_until = 20;
  // From small_until observations on, refit once at least `every` new observations have arrived
  // since the last refit. >= 1. Default 5.
  int every = 5;

  // True if a refit is due with num_observations observations, the last refit having been done
  // with num_observations_at_last_refit of them (0 if never). Never with no observations. If
  // num_observations < num_observations_at_last_refit the data were replaced or truncated, and
  // a refit is due. Throws std::invalid_argument for negative counts.
  bool ShouldRefit(int num_observations, int num_observations_at_last_refit) const;

  // True if every field is in range; otherwise false and *error (if non-null) names the field
  // and its value.
  bool IsValid(std::string* error) const;
};

}  // namespace gpbandit

#endif  // GPBANDIT_HYPERPARAMS_REFIT_SCHEDULE_H_
