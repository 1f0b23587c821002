// What an Optimizer under a safe strategy (SafeOpt) answers about safety (optimizer.h): the
// recommendation, which is never a point outside the safe set, the safety margin of a point, and
// a constraint signal's posterior in its told units. The formulas: safe_recommender.cc. Reads
// the study's replica (optimizer/study_replica.h) and keeps no state of its own. Internal to the
// library; not thread-safe.
#ifndef GPBANDIT_OPTIMIZER_SAFE_RECOMMENDER_H_
#define GPBANDIT_OPTIMIZER_SAFE_RECOMMENDER_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/study/optimizer_types.h"
#include "optimizer/study_replica.h"

namespace gpbandit {
namespace internal {

class SafeRecommender {
 public:
  // replica: must outlive the recommender.
  explicit SafeRecommender(const StudyReplica* replica) : r_(*replica) {}

  // Whether the recommendations are this recommender's: a safe strategy that declares its
  // safety signals (else the Recommender's, unconstrained).
  bool applies() const { return r_.safe && !r_.safety.empty(); }
  // Best(): from the safe set (Strategy::recommend_from_safe_set, no context) or among the
  // observations measured safe, each at its own context. Throws std::logic_error when there is
  // none.
  Recommendation Best() const;
  // Best(context), z checked by the caller.
  Recommendation BestAt(const Eigen::VectorXd& z) const;
  // min over the safety signals of (lower bound - threshold) / prior stddev at (x, z); NaN
  // unless applies().
  double SafetyMargin(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // Constraint signal i's posterior at (x, z) in its told units; std::out_of_range for a bad i.
  Prediction PredictConstraint(int i, const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;

 private:
  // One safety signal's model as the recommendation checks it.
  struct SafetyCheck {
    const GaussianProcess* gp;
    double threshold;     // model units
    double prior_stddev;  // model units, > 0
    bool reward_input;    // takes the reward model's input (else the unit cube's)
    double max_mean;      // the cap on the lower bound's mean (SafetyModel::max_mean)
  };
  std::vector<SafetyCheck> SafetyChecks() const;
  // The safety models' input of (x, z): the unit cube's, at the target with fidelities.
  Eigen::VectorXd SignalInput(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // The strategy's beta for the next round.
  double SafetyBeta() const;
  double Margin(const std::vector<SafetyCheck>& checks, const Eigen::VectorXd& x,
                const Eigen::VectorXd& z, double beta) const;
  std::vector<Eigen::VectorXd> VouchedSeeds() const;
  // Among the observations measured safe that clear the models at *context (each at its own
  // context when null), the highest posterior mean.
  Recommendation SafeBest(const Eigen::VectorXd* context) const;
  // The maximizer of the posterior mean over the safe set at context z.
  Recommendation SafeSetBest(const Eigen::VectorXd& z) const;

  const StudyReplica& r_;
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_SAFE_RECOMMENDER_H_
