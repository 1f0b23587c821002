#include "model/observation_counts.h"

#include <algorithm>
#include <cmath>

namespace gpbandit {

double ObservationCounts::ImputedReward(double worst, int accepted) const {
  if (policy_ != NonFiniteRewardPolicy::kImputeWorst || accepted == 0)
    return std::numeric_limits<double>::quiet_NaN();
  return worst;
}

void ObservationCounts::Count(double reward, bool accepted) {
  if (!std::isnan(reward)) ++rows_;
  if (!accepted) return;
  ++num_accepted_;
  worst_reward_ = std::min(worst_reward_, reward);
}

}  // namespace gpbandit
