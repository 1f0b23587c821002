// What a study's reward model has been told, counted: its rows (accepted rewards and imputed
// failures), the accepted rewards and the worst of them, and the reward a failed evaluation
// enters the model with (NonFiniteRewardPolicy::kImputeWorst: the worst accepted reward so far,
// a pessimistic imputation). Rewards are in the model's sense (OutcomeChain::ToReward). The
// counts decide a call (its round, the refit it claims) before the models catch up with it
// (model/deferred_work.h), so they are kept apart from the models. Internal to model/; not
// thread-safe.
#ifndef GPBANDIT_MODEL_OBSERVATION_COUNTS_H_
#define GPBANDIT_MODEL_OBSERVATION_COUNTS_H_

#include <limits>

#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

class ObservationCounts {
 public:
  explicit ObservationCounts(NonFiniteRewardPolicy policy) : policy_(policy) {}

  // The model's rows: accepted rewards and imputed failures.
  int rows() const { return rows_; }
  int num_accepted() const { return num_accepted_; }
  // The lowest accepted reward (model sense); +infinity before any.
  double worst_reward() const { return worst_reward_; }
  // The reward (model sense) a failure told now enters the model with (kImputeWorst), or NaN;
  // the same after `accepted` accepted rewards whose worst is `worst` (NaN when accepted is 0,
  // or under any other policy).
  double ImputedReward() const { return ImputedReward(worst_reward_, num_accepted_); }
  double ImputedReward(double worst, int accepted) const;
  // Counts a told value that entered the model as `reward` (model sense; NaN: it took no row).
  // accepted: a told reward, not a failure.
  void Count(double reward, bool accepted);

 private:
  NonFiniteRewardPolicy policy_;
  int rows_ = 0;
  int num_accepted_ = 0;
  double worst_reward_ = std::numeric_limits<double>::infinity();
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_OBSERVATION_COUNTS_H_
