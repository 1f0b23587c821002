#include "optimizer/outcome_answers.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/acquisition/feasibility.h"
#include "gpbandit/acquisition/hypervolume.h"
#include "gpbandit/numerics/format.h"
#include "optimizer/outcome_table.h"

namespace gpbandit {
namespace internal {
namespace {

// The table of the study's told observations on the reward model itself.
OutcomeTable Table(const StudyReplica& r) { return TabulateOutcomes(r, r.model->gp()); }

// The GP of outcome i (tell order) and whether it is the reward model.
const GaussianProcess& OutcomeGp(const StudyReplica& r, int i) {
  if (i == 0) return r.model->gp();
  return r.model->constraints().constraint(i - 1);
}

}  // namespace

Recommendation BestFeasible(const StudyReplica& r) {
  if (r.options.outcomes.num_objectives() > 1)
    throw std::logic_error("Best: the study has " +
                           std::to_string(r.options.outcomes.num_objectives()) +
                           " objectives and no single best point; use ParetoFront()");
  const OutcomeTable t = Table(r);
  if (t.observation.empty()) throw std::logic_error("Best: no accepted observation yet");
  if (t.feasible.empty())
    throw std::logic_error("Best: no observed point is feasible with probability >= " +
                           std::to_string(r.options.outcomes.feasibility_confidence) + " yet (" +
                           std::to_string(t.observation.size()) + " observed); keep exploring");
  int best = t.feasible[0];
  for (const int j : t.feasible)
    if (t.objective_means(0, j) > t.objective_means(0, best)) best = j;
  const Observation& o = r.observations[static_cast<std::size_t>(t.observation[best])];
  Recommendation rec;
  rec.x = o.x;
  rec.z = o.z;
  rec.posterior_mean = ObjectiveToTold(r, 0, t.objective_means(0, best));
  rec.observed_reward = o.y;
  return rec;
}

std::vector<ParetoPoint> ParetoFrontOf(const StudyReplica& r) {
  const OutcomeTable t = Table(r);
  std::vector<ParetoPoint> front;
  for (const int j : t.front) {
    const Observation& o = r.observations[static_cast<std::size_t>(t.observation[j])];
    ParetoPoint p;
    p.x = o.x;
    p.z = o.z;
    p.outcomes.resize(1 + o.constraints.size());
    p.outcomes << o.y, o.constraints;
    p.means.resize(t.objective_means.rows());
    for (Eigen::Index i = 0; i < p.means.size(); ++i)
      p.means(i) = ObjectiveToTold(r, static_cast<int>(i), t.objective_means(i, j));
    p.probability_feasible = t.pof(j);
    front.push_back(p);
  }
  return front;
}

Eigen::VectorXd ToldReference(const StudyReplica& r) {
  const Eigen::VectorXd model = ModelReference(r, Table(r));
  Eigen::VectorXd told(model.size());
  for (Eigen::Index i = 0; i < model.size(); ++i)
    told(i) = ObjectiveToTold(r, static_cast<int>(i), model(i));
  return told;
}

double FrontHypervolume(const StudyReplica& r) {
  const std::vector<ParetoPoint> front = ParetoFrontOf(r);
  const Eigen::VectorXd reference = ToldReference(r);
  if (front.empty() || reference.size() == 0) return 0.0;
  // Each objective maximized in the caller's units: a minimized one negated.
  const int k = static_cast<int>(reference.size());
  Eigen::VectorXd sign(k);
  for (int i = 0; i < k; ++i)
    sign(i) = ObjectiveToModel(r, i, 1.0) > ObjectiveToModel(r, i, 0.0) ? 1.0 : -1.0;
  Eigen::MatrixXd points(k, static_cast<Eigen::Index>(front.size()));
  for (std::size_t f = 0; f < front.size(); ++f)
    points.col(static_cast<Eigen::Index>(f)) = sign.cwiseProduct(front[f].outcomes.head(k));
  const Eigen::VectorXd maximized_reference = sign.cwiseProduct(reference);
  return Hypervolume(PointsDominatingReference(points, maximized_reference), maximized_reference);
}

double FeasibilityAt(const StudyReplica& r, const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  r.domain.CheckAction(x, "x");
  r.domain.CheckContext(z, "context");
  const int k = r.options.outcomes.num_objectives(), m = r.options.outcomes.num_constraints();
  if (m == 0) return 1.0;
  const Eigen::VectorXd u = r.inputs.Input(x, z, r.rounds);
  Eigen::VectorXd mean(m), sd(m);
  for (int j = 0; j < m; ++j) {
    double variance = 0.0;
    r.model->constraints().constraint(k - 1 + j).MeanAndVariance(u, &mean(j), &variance);
    sd(j) = std::sqrt(std::max(variance, 1e-300));
  }
  return std::exp(LogProbabilityOfFeasibility(mean, sd, nullptr, nullptr));
}

Prediction PredictOutcomeAt(const StudyReplica& r, int i, const Eigen::VectorXd& x,
                            const Eigen::VectorXd& z) {
  const int n = r.options.outcomes.num_outcomes();
  if (i < 0 || i >= n)
    throw std::out_of_range("PredictOutcome: outcome " + std::to_string(i) + " of " +
                            std::to_string(n));
  r.domain.CheckAction(x, "x");
  r.domain.CheckContext(z, "context");
  const Eigen::VectorXd u = r.inputs.Input(x, z, r.rounds);
  double mean = 0.0, variance = 0.0;
  OutcomeGp(r, i).MeanAndVariance(u, &mean, &variance);
  const double sd = std::sqrt(std::max(variance, 0.0));
  Prediction p;
  if (i == 0) {
    p.mean = r.model->chain().MeanToTold(mean);
    p.stddev = r.model->chain().StddevToTold(sd);
  } else {
    p.mean = r.model->outcome_map().ToTold(i - 1, mean);
    p.stddev = sd;
  }
  return p;
}

}  // namespace internal
}  // namespace gpbandit
