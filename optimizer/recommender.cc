// An Optimizer's answers about the objective (optimizer.h): Best, Best(context) and Predict,
// in the caller's units (under a safe strategy, Best's: safe_recommender.cc).
#include "optimizer/recommender.h"

#include <cmath>

#include "gpbandit/acquisition/mean_only.h"
#include "optimizer/observed_points.h"
#include "optimizer/outcome_answers.h"
#include "study/round_rng.h"

namespace gpbandit {
namespace internal {

Recommendation Recommender::Best() const {
  if (safe_.applies()) return safe_.Best();
  if (r_.options.outcomes.active()) return BestFeasible(r_);
  std::vector<int> index;
  const Eigen::VectorXd means =
      ObservedMeans(r_.observations, r_.model->reward().posterior().MeansAtObservations(), &index,
                    r_.options.fidelities.target());
  if (means.size() == 0)
    throw std::logic_error(r_.options.fidelities.active()
                               ? "Best: no accepted observation at the target fidelity yet"
                               : "Best: no accepted observation yet");
  Eigen::Index j_best = 0;
  means.maxCoeff(&j_best);  // the first of equal maxima
  const Observation& o = r_.observations[static_cast<std::size_t>(index[j_best])];
  Recommendation r;
  r.x = o.x;
  r.z = o.z;
  r.posterior_mean = r_.model->chain().MeanToTold(means(j_best));
  r.observed_reward = o.y;
  return r;
}

// The maximizer of the posterior mean at context z and the next round (r_.rounds).
Recommendation Recommender::BestAt(const Eigen::VectorXd& z) const {
  r_.domain.CheckContext(z, "context");
  if (safe_.applies()) return safe_.BestAt(z);
  if (r_.options.outcomes.active())
    throw std::logic_error(
        "Best(context): a study with several outcomes recommends among its observed points; "
        "use Best() or ParetoFront()");
  // The rank-one model's best is the argmax of its belief's means over the candidates (the
  // bits Best(context) has always returned there); the others' is searched on their GP.
  if (const FiniteSetModel* rank_one = r_.model->reward().rank_one())
    return BestCandidate(*rank_one);
  const GaussianProcess& gp = r_.model->gp();
  Eigen::VectorXd action;
  if (r_.domain.kind() == DomainKind::kFiniteSet) {
    const Eigen::MatrixXd inputs = r_.inputs.CandidateInputs(z, r_.rounds);
    Eigen::Index best = 0;
    double best_mean = -std::numeric_limits<double>::infinity();
    for (Eigen::Index c = 0; c < inputs.cols(); ++c) {
      const double mean = gp.Mean(inputs.col(c));
      if (mean > best_mean) {
        best_mean = mean;
        best = c;
      }
    }
    action = r_.domain.candidates().col(best);
  } else {
    Rng rng = RoundRng(r_.options.seed, r_.rounds, kStreamBest);
    const std::unique_ptr<ContinuousAcquisition> mean = MeanOnly().MakeContinuous(gp, rng);
    // The local model's mean is searched where the ask searches, its trust boxes: far from its
    // neighbourhoods it reverts to their outputs' mean, which is no recommendation.
    ModelRound m;
    r_.inputs.SearchBox(z, r_.rounds, &m.unit_lower, &m.unit_upper);
    r_.model->reward().posterior().SearchRegions(r_.domain.action_dim(), m.unit_lower, m.unit_upper,
                                                 &m.region_lower, &m.region_upper,
                                                 &m.region_starts);
    std::vector<int> index;
    const Eigen::VectorXd means =
        ObservedMeans(r_.observations, r_.model->reward().posterior().MeansAtObservations(), &index,
                      r_.options.fidelities.target());
    m.observed_starts = r_.inputs.WithRound(
        BestStarts(r_.domain, r_.observations, means, index, r_.domain.ContextToUnit(z),
                   r_.options.maximizer_observed_starts),
        r_.rounds);
    m.box_options = MaximizerOptions(r_.options);
    const std::vector<DiscreteCoordinate> discrete = r_.inputs.DiscreteCoordinates();
    double value = 0;
    action = r_.domain.ActionFromUnit(
        discrete.empty()
            ? MaximizeOverSearchRegions(*mean, m, rng).x
            : MaximizeOverInputs(*mean, m.unit_lower, m.unit_upper, discrete, m.observed_starts,
                                 m.box_options, r_.options.maximizer_integer_search, rng, &value));
  }
  Recommendation r;
  r.x = action;
  r.z = z;
  r.posterior_mean = r_.model->chain().MeanToTold(gp.Mean(r_.inputs.Input(action, z, r_.rounds)));
  r.observed_reward = std::nan("");
  for (const Observation& o : r_.observations)
    if (o.accepted && SameVector(o.x, action) && SameVector(o.z, z) &&
        o.fidelity == r_.options.fidelities.target())
      r.observed_reward = o.y;
  return r;
}

// Best(context) of the rank-one model (no context): the candidate of the highest posterior mean,
// the first of equal ones.
Recommendation Recommender::BestCandidate(const FiniteSetModel& model) const {
  Eigen::Index best = 0;
  const Eigen::VectorXd means = model.belief().Means();
  means.maxCoeff(&best);
  Recommendation r;
  r.x = r_.domain.candidates().col(best);
  r.posterior_mean = r_.model->chain().MeanToTold(means(best));
  r.observed_reward = std::nan("");
  for (const Observation& o : r_.observations)
    if (o.accepted && SameVector(o.x, r.x)) r.observed_reward = o.y;
  return r;
}

Prediction Recommender::Predict(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                int fidelity) const {
  r_.domain.CheckAction(x, "x");
  r_.domain.CheckContext(z, "context");
  Eigen::VectorXd mean, variance;
  r_.model->reward().posterior().Posterior(r_.inputs.Input(x, z, r_.rounds, fidelity), &mean,
                                           &variance);
  Prediction p;
  p.mean = r_.model->chain().MeanToTold(mean(0));
  p.stddev = r_.model->chain().StddevToTold(std::sqrt(std::max(variance(0), 0.0)));
  return p;
}

}  // namespace internal
}  // namespace gpbandit
