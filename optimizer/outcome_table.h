// The observed points of a study with several outcomes (OptimizerOptions::outcomes), with every
// model's posterior there: what a round's acquisition (its front, reference and ranges) and the
// answers (Best, ParetoFront, Hypervolume) are built from. Internal to optimizer/.
//
// Units: "model" values are maximized, objective 0 in the reward model's outputs
// (OutcomeChain::RewardToModel(ToReward(told))), the others and the constraints as
// model/outcome_map.h maps them (constraints c <= 0 feasible).
#ifndef GPBANDIT_OPTIMIZER_OUTCOME_TABLE_H_
#define GPBANDIT_OPTIMIZER_OUTCOME_TABLE_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/study/optimizer_types.h"
#include "optimizer/study_replica.h"

namespace gpbandit {
namespace internal {

struct OutcomeTable {
  std::vector<int> observation;     // the observation (index into observations) of each column
  Eigen::MatrixXd inputs;           // model inputs, one column per observed point
  Eigen::MatrixXd told_objectives;  // k x n, model units (from the told values)
  Eigen::MatrixXd objective_means;  // k x n, posterior means, model units
  Eigen::VectorXd pof;              // n, posterior probability of feasibility
  // The columns of points feasible with probability >= the confidence, and among them those
  // non-dominated in posterior mean (a point told several times: its last tell only).
  std::vector<int> feasible, front;
};

// Every accepted observation told with all its outcomes. reward: the reward model's GP (or a
// copy with pending points hallucinated: its means are the same).
OutcomeTable TabulateOutcomes(const StudyReplica& r, const GaussianProcess& reward);

// prod_j P(c_j(u) <= 0) under independent constraint GPs at model input u (c <= 0 feasible;
// 1 without constraints).
double FeasibilityProbability(const std::vector<const GaussianProcess*>& constraints,
                              const Eigen::VectorXd& u);
// The study's constraint GPs, in declared order.
std::vector<const GaussianProcess*> ConstraintGps(const StudyReplica& r);

// The reference point in model units: outcomes.reference_point converted, or the worst told
// value of each objective among the points feasible with high probability, moved out by 10% of
// their range (1 where the range is 0). Empty when inferred and no point is feasible.
Eigen::VectorXd ModelReference(const StudyReplica& r, const OutcomeTable& table);

// A model-unit objective value i back in the caller's units, and a caller's value to model units.
double ObjectiveToTold(const StudyReplica& r, int i, double model_value);
double ObjectiveToModel(const StudyReplica& r, int i, double told);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_OUTCOME_TABLE_H_
