// The model's view of the told observations: their posterior means (the incumbent, Best) and
// the best of them as the maximizer's starts. The model holds the observations that are
// in_model() first, in the order told (then any hallucinated points), so the means cost O(t)
// (GaussianProcess::MeansAtObservations; a local model predicts at its neighbours only).
// Internal to optimizer/.
#ifndef GPBANDIT_OPTIMIZER_OBSERVED_POINTS_H_
#define GPBANDIT_OPTIMIZER_OBSERVED_POINTS_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/space/domain.h"
#include "gpbandit/study/optimizer_types.h"

namespace gpbandit {

// The posterior means (model units) at the accepted observations the model predicts at, in
// order; their indices into `observations` in *index. row_means: the model's means at its
// rows (RewardModel::MeansAtObservations), NaN where it does not predict. target_fidelity >= 0
// (a study with fidelities: FidelityOptions::target()): only the observations made at it, whose
// row means are the target's (an incumbent, a recommendation and the starts are the target's).
Eigen::VectorXd ObservedMeans(const std::vector<Observation>& observations,
                              const Eigen::VectorXd& row_means, std::vector<int>* index,
                              int target_fidelity = -1);

// The unit-cube inputs (input_dim x k) of the `count` observations with the highest posterior
// means (ties: the lower index), their actions under context unit_z.
Eigen::MatrixXd BestStarts(const Domain& domain, const std::vector<Observation>& observations,
                           const Eigen::VectorXd& means, const std::vector<int>& index,
                           const Eigen::VectorXd& unit_z, int count);

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_OBSERVED_POINTS_H_
