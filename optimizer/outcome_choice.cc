// The acquisition of one model-driven slot (round_chooser.h): the strategy's own, or under
// several outcomes the strategy acting on every outcome's model (outcome_acquisition.h).
#include "gpbandit/acquisition/outcome_acquisition.h"
#include "model/model_keeper.h"
#include "optimizer/outcome_table.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {
namespace {

// The pending points' believed outcomes (their posterior means) that are feasible with high
// probability, as front columns: the hypervolume a pending point will probably add is not
// counted again for a point beside it (the kriging believer of a batch).
Eigen::MatrixXd BelievedFront(const OutcomeRound& round, const Eigen::MatrixXd& pending,
                              double confidence) {
  const Eigen::Index k = static_cast<Eigen::Index>(round.objectives.size());
  Eigen::MatrixXd believed(k, pending.cols());
  Eigen::Index kept = 0;
  for (Eigen::Index j = 0; j < pending.cols(); ++j) {
    if (internal::FeasibilityProbability(round.constraints, pending.col(j)) < confidence) continue;
    for (Eigen::Index i = 0; i < k; ++i)
      believed(i, kept) = round.objectives[static_cast<std::size_t>(i)]->Mean(pending.col(j));
    ++kept;
  }
  return believed.leftCols(kept);
}

// The scalarizations' ranges: from the reference point (when there is one) to the largest told
// value, so that what lies below the reference counts as no better than it and an objective
// with a few very bad values (Branin's) does not squeeze its useful range to the top; the
// observed range before any reference exists.
ObjectiveNormalization Normalization(const internal::OutcomeTable& table,
                                     const Eigen::VectorXd& reference, int k) {
  ObjectiveNormalization n;
  if (table.told_objectives.cols() == 0) {
    n.lower = Eigen::VectorXd::Zero(k);
    n.upper = Eigen::VectorXd::Ones(k);
    return n;
  }
  n = ObjectiveNormalization::FromObservations(table.told_objectives);
  if (reference.size() != k) return n;
  for (int i = 0; i < k; ++i) {
    n.lower(i) = reference(i);
    if (!(n.upper(i) > n.lower(i))) n.upper(i) = n.lower(i) + 1.0;
  }
  return n;
}

// The round's outcome models: the ask's reward posterior, then models[i], further outcome i's GP
// (objectives 1.., then constraints).
OutcomeRound MakeOutcomeRound(const ChoiceInputs& in,
                              const std::vector<const GaussianProcess*>& models,
                              const Eigen::MatrixXd& pending, Rng& rng) {
  const internal::StudyReplica& r = *in.replica;
  const OutcomeOptions& outcomes = in.options.outcomes;
  const int k = outcomes.num_objectives(), m = outcomes.num_constraints();
  const internal::OutcomeTable table = internal::TabulateOutcomes(r, in.posterior.gp());
  OutcomeRound round;
  round.objectives.push_back(&in.posterior.gp());
  for (int i = 1; i < k; ++i) round.objectives.push_back(models[static_cast<std::size_t>(i - 1)]);
  for (int j = 0; j < m; ++j)
    round.constraints.push_back(models[static_cast<std::size_t>(k - 1 + j)]);
  round.front = table.objective_means(Eigen::all, table.front);
  if (k > 1 && round.front.cols() > 0 && pending.cols() > 0) {
    const Eigen::MatrixXd believed = BelievedFront(round, pending, outcomes.feasibility_confidence);
    Eigen::MatrixXd both(k, round.front.cols() + believed.cols());
    both << round.front, believed;
    round.front = both;
  }
  round.reference = internal::ModelReference(r, table);
  round.normalization = Normalization(table, round.reference, k);
  if (round.reference.size() == 0) round.reference = Eigen::VectorXd::Zero(k);
  round.weights = k == 1 ? Eigen::VectorXd::Ones(1)
                         : Eigen::VectorXd(SampleScalarizationWeights(k, 1, rng).col(0));
  round.scalarization = outcomes.scalarization == ScalarizationRule::kLinear
                            ? Scalarization::kLinear
                            : Scalarization::kChebyshev;
  return round;
}

// The outcome acquisition of a slot over models that see the ask's pending points: the further
// outcomes' GPs are copied and each hallucinated point added at its own posterior mean, as the
// reward's AskPosterior does (GP-BUCB), so that a batch or a study with several workers spreads
// out in every outcome, not only in objective 0.
class SlotAcquisition : public ContinuousAcquisition {
 public:
  SlotAcquisition(const ChoiceInputs& in, Rng& rng) {
    const ConstraintModels& told = in.model.constraints();
    const int extra = told.num_constraints();
    const int hallucinated = in.posterior.num_hallucinated();
    std::vector<const GaussianProcess*> models;
    Eigen::MatrixXd pending(in.posterior.gp().input_dim(), 0);
    if (hallucinated > 0) {
      pending = in.posterior.gp().inputs().rightCols(hallucinated);
      copies_.reserve(static_cast<std::size_t>(extra));  // no reallocation: models point here
      for (int i = 0; i < extra; ++i) {
        copies_.push_back(told.constraint(i));
        for (Eigen::Index j = 0; j < pending.cols(); ++j)
          copies_.back().AddObservation(pending.col(j), copies_.back().Mean(pending.col(j)));
        models.push_back(&copies_.back());
      }
    } else {
      for (int i = 0; i < extra; ++i) models.push_back(&told.constraint(i));
    }
    inner_ = MakeOutcomeAcquisition(in.strategy, MakeOutcomeRound(in, models, pending, rng), rng);
  }

  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    return inner_->Evaluate(x, gradient);
  }
  Eigen::VectorXd EvaluateMany(const Eigen::MatrixXd& X) const override {
    return inner_->EvaluateMany(X);
  }

 private:
  std::vector<GaussianProcess> copies_;
  std::unique_ptr<ContinuousAcquisition> inner_;
};

}  // namespace

std::unique_ptr<ContinuousAcquisition> MakeSlotAcquisition(const ChoiceInputs& in, Rng& rng) {
  if (!in.options.outcomes.active()) return in.strategy.MakeContinuous(in.posterior.gp(), rng);
  return std::make_unique<SlotAcquisition>(in, rng);
}

}  // namespace gpbandit
