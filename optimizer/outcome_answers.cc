#include "optimizer/outcome_answers.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/acquisition/hypervolume.h"
#include "gpbandit/numerics/format.h"
#include "optimizer/outcome_table.h"

namespace gpbandit {
namespace internal {
namespace {

// The table of the study's told observations on the reward model itself.
OutcomeTable Table(const StudyReplica& r) { return TabulateOutcomes(r, r.model->gp()); }

// The GP of outcome i (tell order): the reward model for objective 0.
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
                           FormatDouble(r.options.outcomes.feasibility_confidence) + " yet (" +
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

namespace {

std::vector<ParetoPoint> FrontOf(const StudyReplica& r, const OutcomeTable& t) {
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

Eigen::VectorXd ReferenceOf(const StudyReplica& r, const OutcomeTable& t) {
  const Eigen::VectorXd model = ModelReference(r, t);
  Eigen::VectorXd told(model.size());
  for (Eigen::Index i = 0; i < model.size(); ++i)
    told(i) = ObjectiveToTold(r, static_cast<int>(i), model(i));
  return told;
}

// -1 for a minimized objective i, +1 for a maximized one.
double MaximizingSign(const StudyReplica& r, int i) {
  const bool minimize = i == 0
                            ? r.options.sense == ObjectiveSense::kMinimize
                            : r.options.outcomes.objectives[static_cast<std::size_t>(i)].minimize;
  return minimize ? -1.0 : 1.0;
}

}  // namespace

std::vector<ParetoPoint> ParetoFrontOf(const StudyReplica& r) { return FrontOf(r, Table(r)); }

Eigen::VectorXd ToldReference(const StudyReplica& r) { return ReferenceOf(r, Table(r)); }

double FrontHypervolume(const StudyReplica& r) {
  const OutcomeTable t = Table(r);
  const std::vector<ParetoPoint> front = FrontOf(r, t);
  const Eigen::VectorXd reference = ReferenceOf(r, t);
  if (front.empty() || reference.size() == 0) return 0.0;
  // Each objective maximized in the caller's units: a minimized one negated.
  const int k = static_cast<int>(reference.size());
  Eigen::VectorXd sign(k);
  for (int i = 0; i < k; ++i) sign(i) = MaximizingSign(r, i);
  Eigen::MatrixXd points(k, static_cast<Eigen::Index>(front.size()));
  for (std::size_t f = 0; f < front.size(); ++f)
    points.col(static_cast<Eigen::Index>(f)) = sign.cwiseProduct(front[f].outcomes.head(k));
  const Eigen::VectorXd maximized_reference = sign.cwiseProduct(reference);
  return Hypervolume(PointsDominatingReference(points, maximized_reference), maximized_reference);
}

double FeasibilityAt(const StudyReplica& r, const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  r.domain.CheckAction(x, "x");
  r.domain.CheckContext(z, "context");
  return FeasibilityProbability(ConstraintGps(r), r.inputs.Input(x, z, r.rounds));
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
