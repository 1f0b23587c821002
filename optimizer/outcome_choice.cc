// The acquisition of one model-driven slot (round_chooser.h): the strategy's own, or under
// several outcomes the strategy acting on every outcome's model (outcome_acquisition.h).
#include "gpbandit/acquisition/outcome_acquisition.h"
#include "optimizer/outcome_table.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {
namespace {

// The columns `columns` of `values`.
Eigen::MatrixXd Columns(const Eigen::MatrixXd& values, const std::vector<int>& columns) {
  Eigen::MatrixXd out(values.rows(), static_cast<Eigen::Index>(columns.size()));
  for (std::size_t c = 0; c < columns.size(); ++c)
    out.col(static_cast<Eigen::Index>(c)) = values.col(columns[c]);
  return out;
}

OutcomeRound MakeOutcomeRound(const ChoiceInputs& in, Rng& rng) {
  const internal::StudyReplica& r = *in.replica;
  const OutcomeOptions& outcomes = in.options.outcomes;
  const int k = outcomes.num_objectives(), m = outcomes.num_constraints();
  const internal::OutcomeTable table = internal::TabulateOutcomes(r, in.posterior.gp());
  OutcomeRound round;
  round.objectives.push_back(&in.posterior.gp());
  for (int i = 1; i < k; ++i) round.objectives.push_back(&in.model.constraints().constraint(i - 1));
  for (int j = 0; j < m; ++j)
    round.constraints.push_back(&in.model.constraints().constraint(k - 1 + j));
  round.front = Columns(table.objective_means, table.front);
  round.reference = internal::ModelReference(r, table);
  if (round.reference.size() == 0) round.reference = Eigen::VectorXd::Zero(k);
  if (table.told_objectives.cols() > 0) {
    round.normalization = ObjectiveNormalization::FromObservations(table.told_objectives);
  } else {
    round.normalization.lower = Eigen::VectorXd::Zero(k);
    round.normalization.upper = Eigen::VectorXd::Ones(k);
  }
  round.weights = k == 1 ? Eigen::VectorXd::Ones(1)
                         : Eigen::VectorXd(SampleScalarizationWeights(k, 1, rng).col(0));
  round.scalarization = outcomes.scalarization == ScalarizationRule::kLinear
                            ? Scalarization::kLinear
                            : Scalarization::kChebyshev;
  return round;
}

}  // namespace

std::unique_ptr<ContinuousAcquisition> MakeSlotAcquisition(const ChoiceInputs& in, Rng& rng) {
  if (!in.options.outcomes.active()) return in.strategy.MakeContinuous(in.posterior.gp(), rng);
  return MakeOutcomeAcquisition(in.strategy, MakeOutcomeRound(in, rng), rng);
}

}  // namespace gpbandit
