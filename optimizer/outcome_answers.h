// An Optimizer's answers under several outcomes (optimizer.h, "Several outcomes"): the best
// feasible point, the Pareto front, its hypervolume and reference point, the probability of
// feasibility and each outcome's posterior, in the caller's units. Internal to optimizer/.
#ifndef GPBANDIT_OPTIMIZER_OUTCOME_ANSWERS_H_
#define GPBANDIT_OPTIMIZER_OUTCOME_ANSWERS_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/study/optimizer_types.h"
#include "optimizer/study_replica.h"

namespace gpbandit {
namespace internal {

// One objective: the observed point of the highest posterior mean among those feasible with
// probability >= outcomes.feasibility_confidence. std::logic_error when none is, or with
// several objectives (ParetoFront).
Recommendation BestFeasible(const StudyReplica& r);
std::vector<ParetoPoint> ParetoFrontOf(const StudyReplica& r);
// The reference point in the caller's units (empty when it is inferred and the front is empty).
Eigen::VectorXd ToldReference(const StudyReplica& r);
double FrontHypervolume(const StudyReplica& r);
double FeasibilityAt(const StudyReplica& r, const Eigen::VectorXd& x, const Eigen::VectorXd& z);
Prediction PredictOutcomeAt(const StudyReplica& r, int i, const Eigen::VectorXd& x,
                            const Eigen::VectorXd& z);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_OUTCOME_ANSWERS_H_
