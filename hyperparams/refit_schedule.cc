#include "gpbandit/hyperparams/refit_schedule.h"

#include <sstream>
#include <stdexcept>

namespace gpbandit {

bool RefitSchedule::ShouldRefit(int num_observations, int num_observations_at_last_refit) const {
  if (num_observations < 0 || num_observations_at_last_refit < 0) {
    std::ostringstream out;
    out << "RefitSchedule::ShouldRefit: counts must be >= 0, got num_observations = "
        << num_observations
        << ", num_observations_at_last_refit = " << num_observations_at_last_refit;
    throw std::invalid_argument(out.str());
  }
  if (!enabled || num_observations == 0) return false;
  if (num_observations < num_observations_at_last_refit) return true;
  const int period = num_observations < small_until ? every_while_small : every;
  return num_observations - num_observations_at_last_refit >= period;
}

bool RefitSchedule::IsValid(std::string* error) const {
  std::ostringstream out;
  if (every_while_small < 1) {
    out << "RefitSchedule.every_while_small must be >= 1, got " << every_while_small;
  } else if (small_until < 0) {
    out << "RefitSchedule.small_until must be >= 0, got " << small_until;
  } else if (every < 1) {
    out << "RefitSchedule.every must be >= 1, got " << every;
  } else {
    return true;
  }
  if (error != nullptr) *error = out.str();
  return false;
}

}  // namespace gpbandit
