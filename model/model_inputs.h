// Where an Optimizer's model lives: the unit-cube image of [action; context] (Domain::ToUnit),
// with the ask round appended as one more coordinate when the strategy declares a time model
// (acquisition/time_model.h; the round in rounds, not in the unit cube). Every point the model
// sees is made here. Internal to model/; immutable, thread-safe.
#ifndef GPBANDIT_MODEL_MODEL_INPUTS_H_
#define GPBANDIT_MODEL_MODEL_INPUTS_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/maximizer/mixed_maximizer.h"
#include "gpbandit/space/domain.h"

namespace gpbandit {

class ModelInputs {
 public:
  ModelInputs(const Domain& domain, bool has_time) : domain_(domain), has_time_(has_time) {}

  bool has_time() const { return has_time_; }
  // The model's input dimension: the domain's, plus one for the round under a time model.
  int dim() const { return domain_.input_dim() + (has_time_ ? 1 : 0); }
  // The model input of (x, z) (original units) observed or scored at `round`.
  Eigen::VectorXd Input(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round) const;
  // Unit-cube inputs (input_dim x n) with the round appended under a time model.
  Eigen::MatrixXd WithRound(const Eigen::MatrixXd& unit_inputs, long round) const;
  // The upper corner of the action cube (Domain::UnitActionUpper).
  Eigen::VectorXd UnitUpper() const;
  // The action coordinates that take discrete levels (a parameter space's integers and
  // categoricals; space_transform.h), for the mixed maximizer; empty for boxes and finite sets.
  std::vector<DiscreteCoordinate> DiscreteCoordinates() const;
  // The box the maximizer searches (model inputs): the action cube, with the context and the
  // round held fixed.
  void SearchBox(const Eigen::VectorXd& z, long round, Eigen::VectorXd* lower,
                 Eigen::VectorXd* upper) const;
  // A fixed model input for digests: `v` on every coordinate but the categorical ones, which
  // hold their first label (0).
  Eigen::VectorXd Probe(double v) const;
  // Every candidate of a finite set at context z and `round` (dim() x N).
  Eigen::MatrixXd CandidateInputs(const Eigen::VectorXd& z, long round) const;

 private:
  const Domain& domain_;
  bool has_time_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_MODEL_INPUTS_H_
