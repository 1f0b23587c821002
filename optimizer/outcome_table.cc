#include "optimizer/outcome_table.h"

#include <algorithm>
#include <cmath>

#include "gpbandit/acquisition/feasibility.h"
#include "gpbandit/acquisition/pareto.h"

namespace gpbandit {
namespace internal {
namespace {

// Whether a later column of the table repeats column j's point (it is then left to the last).
bool ToldAgainLater(const OutcomeTable& t, int j) {
  for (Eigen::Index l = j + 1; l < t.inputs.cols(); ++l)
    if (t.inputs.col(l) == t.inputs.col(j)) return true;
  return false;
}

}  // namespace

double FeasibilityProbability(const std::vector<const GaussianProcess*>& constraints,
                              const Eigen::VectorXd& u) {
  if (constraints.empty()) return 1.0;
  const Eigen::Index m = static_cast<Eigen::Index>(constraints.size());
  Eigen::VectorXd mean(m), sd(m);
  for (Eigen::Index j = 0; j < m; ++j) {
    double variance = 0.0;
    constraints[static_cast<std::size_t>(j)]->MeanAndVariance(u, &mean(j), &variance);
    sd(j) = std::sqrt(std::max(variance, 1e-300));
  }
  return std::exp(LogProbabilityOfFeasibility(mean, sd, nullptr, nullptr));
}

std::vector<const GaussianProcess*> ConstraintGps(const StudyReplica& r) {
  const int k = r.options.outcomes.num_objectives(), m = r.options.outcomes.num_constraints();
  std::vector<const GaussianProcess*> gps;
  for (int j = 0; j < m; ++j) gps.push_back(&r.model->constraints().constraint(k - 1 + j));
  return gps;
}

double ObjectiveToModel(const StudyReplica& r, int i, double told) {
  if (i == 0) return r.model->chain().RewardToModel(r.model->chain().ToReward(told));
  return r.options.outcomes.objectives[static_cast<std::size_t>(i)].minimize ? -told : told;
}

double ObjectiveToTold(const StudyReplica& r, int i, double model_value) {
  if (i == 0) return r.model->chain().MeanToTold(model_value);
  return r.options.outcomes.objectives[static_cast<std::size_t>(i)].minimize ? -model_value
                                                                             : model_value;
}

OutcomeTable TabulateOutcomes(const StudyReplica& r, const GaussianProcess& reward) {
  const OutcomeOptions& outcomes = r.options.outcomes;
  const int k = outcomes.num_objectives();
  const int extra = outcomes.num_outcomes() - 1;
  OutcomeTable t;
  for (std::size_t o = 0; o < r.observations.size(); ++o) {
    const Observation& obs = r.observations[o];
    if (obs.accepted && obs.constraints.size() == extra)
      t.observation.push_back(static_cast<int>(o));
  }
  const Eigen::Index n = static_cast<Eigen::Index>(t.observation.size());
  t.inputs.resize(r.domain.input_dim(), n);
  t.told_objectives.resize(k, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const Observation& obs = r.observations[static_cast<std::size_t>(t.observation[j])];
    t.inputs.col(j) = r.inputs.Input(obs.x, obs.z, obs.round);
    t.told_objectives(0, j) = ObjectiveToModel(r, 0, obs.y);
    for (int i = 1; i < k; ++i)
      t.told_objectives(i, j) = ObjectiveToModel(r, i, obs.constraints(i - 1));
  }
  t.objective_means.resize(k, n);
  t.pof.setOnes(n);
  if (n == 0) return t;
  Eigen::VectorXd means, variances;
  reward.Predict(t.inputs, &means, &variances);
  t.objective_means.row(0) = means.transpose();
  for (int i = 1; i < k; ++i) {
    r.model->constraints().constraint(i - 1).Predict(t.inputs, &means, &variances);
    t.objective_means.row(i) = means.transpose();
  }
  const std::vector<const GaussianProcess*> constraints = ConstraintGps(r);
  for (Eigen::Index j = 0; j < n; ++j)
    t.pof(j) = FeasibilityProbability(constraints, t.inputs.col(j));
  for (Eigen::Index j = 0; j < n; ++j)
    if (t.pof(j) >= outcomes.feasibility_confidence && !ToldAgainLater(t, static_cast<int>(j)))
      t.feasible.push_back(static_cast<int>(j));
  const Eigen::MatrixXd feasible_means = t.objective_means(Eigen::all, t.feasible);
  for (const int f : NonDominatedIndices(feasible_means))
    t.front.push_back(t.feasible[static_cast<std::size_t>(f)]);
  return t;
}

Eigen::VectorXd ModelReference(const StudyReplica& r, const OutcomeTable& table) {
  const OutcomeOptions& outcomes = r.options.outcomes;
  const int k = outcomes.num_objectives();
  Eigen::VectorXd reference(k);
  if (!outcomes.reference_point.empty()) {
    for (int i = 0; i < k; ++i)
      reference(i) = ObjectiveToModel(r, i, outcomes.reference_point[static_cast<std::size_t>(i)]);
    return reference;
  }
  if (table.front.empty()) return Eigen::VectorXd();
  for (int i = 0; i < k; ++i) {
    double lowest = HUGE_VAL, highest = -HUGE_VAL;
    for (const int j : table.feasible) {
      lowest = std::min(lowest, table.told_objectives(i, j));
      highest = std::max(highest, table.told_objectives(i, j));
    }
    const double range = highest > lowest ? highest - lowest : 1.0;
    reference(i) = lowest - 0.1 * range;
  }
  return reference;
}

}  // namespace internal
}  // namespace gpbandit
