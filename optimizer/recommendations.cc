// An Optimizer's answers about the objective (optimizer.h): Best, Best(context) and Predict,
// in the caller's units (under a safe strategy, Best's: safe_recommendation.cc).
#include <cmath>

#include "gpbandit/acquisition/mean_only.h"
#include "optimizer/observed_points.h"
#include "optimizer/optimizer_impl.h"
#include "study/round_rng.h"

namespace gpbandit {
namespace internal {

Recommendation OptimizerImpl::Best() const {
  if (safe_ && !safety_.empty()) {
    if (strategy_->recommend_from_safe_set() && domain_.context_dim() == 0)
      return SafeSetBest(Eigen::VectorXd());
    return SafeBest(nullptr);
  }
  std::vector<int> index;
  const Eigen::VectorXd means =
      ObservedMeans(observations_, model_->reward().MeansAtObservations(), &index);
  if (means.size() == 0) throw std::logic_error("Best: no accepted observation yet");
  Eigen::Index j_best = 0;
  means.maxCoeff(&j_best);  // the first of equal maxima
  const Observation& o = observations_[static_cast<std::size_t>(index[j_best])];
  Recommendation r;
  r.x = o.x;
  r.z = o.z;
  r.posterior_mean = model_->chain().MeanToTold(means(j_best));
  r.observed_reward = o.y;
  return r;
}

// The maximizer of the posterior mean at context z and the next round (rounds_).
Recommendation OptimizerImpl::BestAt(const Eigen::VectorXd& z) const {
  domain_.CheckContext(z, "context");
  if (safe_ && !safety_.empty())
    return strategy_->recommend_from_safe_set() ? SafeSetBest(z) : SafeBest(&z);
  if (const FiniteSetModel* rank_one = model_->reward().rank_one()) return BestCandidate(*rank_one);
  const GaussianProcess& gp = model_->gp();
  Eigen::VectorXd action;
  if (domain_.kind() == DomainKind::kFiniteSet) {
    const Eigen::MatrixXd inputs = inputs_.CandidateInputs(z, rounds_);
    Eigen::Index best = 0;
    double best_mean = -std::numeric_limits<double>::infinity();
    for (Eigen::Index c = 0; c < inputs.cols(); ++c) {
      const double mean = gp.Mean(inputs.col(c));
      if (mean > best_mean) {
        best_mean = mean;
        best = c;
      }
    }
    action = domain_.candidates().col(best);
  } else {
    Rng rng = RoundRng(options_.seed, rounds_, kStreamBest);
    const std::unique_ptr<ContinuousAcquisition> mean = MeanOnly().MakeContinuous(gp, rng);
    // The local model's mean is searched where the ask searches, its trust boxes: far from its
    // neighbourhoods it reverts to their outputs' mean, which is no recommendation.
    ModelRound m;
    inputs_.SearchBox(z, rounds_, &m.unit_lower, &m.unit_upper);
    model_->reward().SearchRegions(domain_.action_dim(), m.unit_lower, m.unit_upper,
                                   &m.region_lower, &m.region_upper, &m.region_starts);
    std::vector<int> index;
    const Eigen::VectorXd means =
        ObservedMeans(observations_, model_->reward().MeansAtObservations(), &index);
    m.observed_starts =
        inputs_.WithRound(BestStarts(domain_, observations_, means, index, domain_.ContextToUnit(z),
                                     options_.maximizer_observed_starts),
                          rounds_);
    m.box_options = MaximizerOptions(options_);
    const std::vector<DiscreteCoordinate> discrete = inputs_.DiscreteCoordinates();
    double value = 0;
    action = domain_.ActionFromUnit(
        discrete.empty()
            ? MaximizeOverSearchRegions(*mean, m, rng).x
            : MaximizeOverInputs(*mean, m.unit_lower, m.unit_upper, discrete, m.observed_starts,
                                 m.box_options, options_.maximizer_integer_search, rng, &value));
  }
  Recommendation r;
  r.x = action;
  r.z = z;
  r.posterior_mean = model_->chain().MeanToTold(gp.Mean(inputs_.Input(action, z, rounds_)));
  r.observed_reward = std::nan("");
  for (const Observation& o : observations_)
    if (o.accepted && SameVector(o.x, action) && SameVector(o.z, z)) r.observed_reward = o.y;
  return r;
}

// Best(context) of the rank-one model (no context): the candidate of the highest posterior mean,
// the first of equal ones.
Recommendation OptimizerImpl::BestCandidate(const FiniteSetModel& model) const {
  Eigen::Index best = 0;
  const Eigen::VectorXd means = model.belief().Means();
  means.maxCoeff(&best);
  Recommendation r;
  r.x = domain_.candidates().col(best);
  r.posterior_mean = model_->chain().MeanToTold(means(best));
  r.observed_reward = std::nan("");
  for (const Observation& o : observations_)
    if (o.accepted && SameVector(o.x, r.x)) r.observed_reward = o.y;
  return r;
}

Prediction OptimizerImpl::Predict(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  domain_.CheckAction(x, "x");
  domain_.CheckContext(z, "context");
  double mean = 0, variance = 0;
  const Eigen::VectorXd u = inputs_.Input(x, z, rounds_);
  if (const FiniteSetModel* rank_one = model_->reward().rank_one())
    rank_one->Predict(u, &mean, &variance);
  else
    model_->gp().MeanAndVariance(u, &mean, &variance);
  Prediction p;
  p.mean = model_->chain().MeanToTold(mean);
  p.stddev = model_->chain().StddevToTold(std::sqrt(std::max(variance, 0.0)));
  return p;
}

}  // namespace internal
}  // namespace gpbandit
