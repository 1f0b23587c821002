// Where an Optimizer's model lives: the unit-cube image of [action; context] (Domain::ToUnit),
// with the ask round appended as one more coordinate when the strategy declares a time model
// (acquisition/time_model.h; the round in rounds, not in the unit cube), and, in a study with
// fidelities (study/fidelity_options.h), the fidelity index as one more coordinate right after
// [action; context] (before the round). Every point the model sees is made here; where a call
// names no fidelity, the point is at the target (F - 1). Internal to model/; immutable,
// thread-safe.
#ifndef GPBANDIT_MODEL_MODEL_INPUTS_H_
#define GPBANDIT_MODEL_MODEL_INPUTS_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/maximizer/mixed_maximizer.h"
#include "gpbandit/space/domain.h"

namespace gpbandit {

class ModelInputs {
 public:
  // num_fidelities: 0 without fidelities, else F >= 2.
  ModelInputs(const Domain& domain, bool has_time, int num_fidelities = 0)
      : domain_(domain), has_time_(has_time), num_fidelities_(num_fidelities) {}

  bool has_time() const { return has_time_; }
  int num_fidelities() const { return num_fidelities_; }
  bool has_fidelity() const { return num_fidelities_ > 0; }
  // The coordinate of the fidelity index (the domain's input dimension); -1 without fidelities.
  int fidelity_dim() const { return has_fidelity() ? domain_.input_dim() : -1; }
  // The model's input dimension: the domain's, plus one for the fidelity, plus one for the
  // round under a time model.
  int dim() const { return domain_.input_dim() + (has_fidelity() ? 1 : 0) + (has_time_ ? 1 : 0); }
  // The model input of (x, z) (original units) observed or scored at `round`, at `fidelity`
  // (-1: the target; ignored without fidelities).
  Eigen::VectorXd Input(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round,
                        int fidelity = -1) const;
  // Unit-cube inputs (input_dim x n) with the target fidelity and the round appended when the
  // model has them.
  Eigen::MatrixXd WithRound(const Eigen::MatrixXd& unit_inputs, long round) const;
  // The upper corner of the action cube (Domain::UnitActionUpper).
  Eigen::VectorXd UnitUpper() const;
  // The action coordinates that take discrete levels (a parameter space's integers and
  // categoricals; space_transform.h), for the mixed maximizer; empty for boxes and finite sets.
  std::vector<DiscreteCoordinate> DiscreteCoordinates() const;
  // The box the maximizer searches (model inputs): the action cube, with the context, the
  // target fidelity and the round held fixed.
  void SearchBox(const Eigen::VectorXd& z, long round, Eigen::VectorXd* lower,
                 Eigen::VectorXd* upper) const;
  // A fixed model input for digests: `v` on every coordinate but the categorical ones, which
  // hold their first label (0), and the fidelity, which holds the target.
  Eigen::VectorXd Probe(double v) const;
  // Every candidate of a finite set at context z and `round` (dim() x N).
  Eigen::MatrixXd CandidateInputs(const Eigen::VectorXd& z, long round) const;

 private:
  // The fidelity index a call's `fidelity` stands for (-1: the target).
  double FidelityValue(int fidelity) const {
    return static_cast<double>(fidelity < 0 ? num_fidelities_ - 1 : fidelity);
  }

  const Domain& domain_;
  bool has_time_;
  int num_fidelities_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_MODEL_INPUTS_H_
