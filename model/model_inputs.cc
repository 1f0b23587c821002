#include "model/model_inputs.h"

#include "gpbandit/space/space_transform.h"

namespace gpbandit {

Eigen::VectorXd ModelInputs::Input(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round,
                                   int fidelity) const {
  const Eigen::VectorXd u = domain_.ToUnit(x, z);
  if (!has_time_ && !has_fidelity()) return u;
  Eigen::VectorXd input(dim());
  input.head(u.size()) = u;
  if (has_fidelity()) input(u.size()) = FidelityValue(fidelity);
  if (has_time_) input(dim() - 1) = static_cast<double>(round);
  return input;
}

Eigen::MatrixXd ModelInputs::WithRound(const Eigen::MatrixXd& unit_inputs, long round) const {
  if (!has_time_ && !has_fidelity()) return unit_inputs;
  Eigen::MatrixXd inputs(dim(), unit_inputs.cols());
  inputs.topRows(unit_inputs.rows()) = unit_inputs;
  if (has_fidelity()) inputs.row(unit_inputs.rows()).setConstant(FidelityValue(-1));
  if (has_time_) inputs.row(dim() - 1).setConstant(static_cast<double>(round));
  return inputs;
}

Eigen::VectorXd ModelInputs::UnitUpper() const { return domain_.UnitActionUpper(); }

std::vector<DiscreteCoordinate> ModelInputs::DiscreteCoordinates() const {
  if (domain_.action_transform() == nullptr) return {};
  return domain_.action_transform()->DiscreteCoordinates(0);
}

void ModelInputs::SearchBox(const Eigen::VectorXd& z, long round, Eigen::VectorXd* lower,
                            Eigen::VectorXd* upper) const {
  *lower = Eigen::VectorXd::Zero(dim());
  *upper = Eigen::VectorXd::Zero(dim());
  upper->head(domain_.action_dim()) = UnitUpper();
  if (domain_.context_dim() > 0) {
    const Eigen::VectorXd unit_z = domain_.ContextToUnit(z);
    lower->segment(domain_.action_dim(), domain_.context_dim()) = unit_z;
    upper->segment(domain_.action_dim(), domain_.context_dim()) = unit_z;
  }
  if (has_fidelity()) {
    (*lower)(fidelity_dim()) = FidelityValue(-1);
    (*upper)(fidelity_dim()) = FidelityValue(-1);
  }
  if (has_time_) {
    (*lower)(dim() - 1) = static_cast<double>(round);
    (*upper)(dim() - 1) = static_cast<double>(round);
  }
}

Eigen::VectorXd ModelInputs::Probe(double v) const {
  Eigen::VectorXd probe = Eigen::VectorXd::Constant(dim(), v);
  if (domain_.action_transform() != nullptr)
    for (int d : domain_.action_transform()->CategoricalDims(0)) probe(d) = 0.0;
  if (domain_.context_transform() != nullptr)
    for (int d : domain_.context_transform()->CategoricalDims(domain_.action_dim())) probe(d) = 0.0;
  if (has_fidelity()) probe(fidelity_dim()) = FidelityValue(-1);
  return probe;
}

Eigen::MatrixXd ModelInputs::CandidateInputs(const Eigen::VectorXd& z, long round) const {
  Eigen::MatrixXd inputs(dim(), domain_.num_candidates());
  for (int c = 0; c < domain_.num_candidates(); ++c)
    inputs.col(c) = Input(domain_.candidates().col(c), z, round);
  return inputs;
}

}  // namespace gpbandit
