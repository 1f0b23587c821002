// An Optimizer's answers about the objective (optimizer.h): Best, Best(context) and Predict, in
// the caller's units; under a safe strategy Best's are the SafeRecommender's. Reads the study's
// replica (optimizer/study_replica.h) and keeps no state of its own. Internal to the library;
// not thread-safe.
#ifndef GPBANDIT_OPTIMIZER_RECOMMENDER_H_
#define GPBANDIT_OPTIMIZER_RECOMMENDER_H_

#include <Eigen/Core>

#include "gpbandit/study/optimizer_types.h"
#include "model/finite_set_model.h"
#include "optimizer/safe_recommender.h"
#include "optimizer/study_replica.h"

namespace gpbandit {
namespace internal {

class Recommender {
 public:
  // replica and safe: must outlive the recommender.
  Recommender(const StudyReplica* replica, const SafeRecommender* safe)
      : r_(*replica), safe_(*safe) {}

  // The accepted observation of the highest posterior mean; std::logic_error before any.
  Recommendation Best() const;
  // The maximizer of the posterior mean at context z and the next round.
  Recommendation BestAt(const Eigen::VectorXd& z) const;
  // The reward's posterior at (x, z) and the next round, in the caller's units.
  // fidelity: in a study with fidelities, the one to predict at (checked by the caller); -1 the
  // target.
  Prediction Predict(const Eigen::VectorXd& x, const Eigen::VectorXd& z, int fidelity = -1) const;

 private:
  Recommendation BestCandidate(const FiniteSetModel& model) const;

  const StudyReplica& r_;
  const SafeRecommender& safe_;
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_RECOMMENDER_H_
