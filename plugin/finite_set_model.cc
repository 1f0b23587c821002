#include "plugin/finite_set_model.h"

#include <stdexcept>

namespace gpbandit {
namespace {

std::vector<double> Key(const Eigen::VectorXd& u) { return {u.data(), u.data() + u.size()}; }

}  // namespace

FiniteSetModel::FiniteSetModel(const Eigen::MatrixXd& unit_candidates)
    : unit_candidates_(unit_candidates) {
  if (unit_candidates.cols() < 1) throw std::invalid_argument("unit_candidates: no column");
  for (Eigen::Index j = 0; j < unit_candidates.cols(); ++j)
    index_.emplace(Key(unit_candidates.col(j)), static_cast<int>(j));
}

int FiniteSetModel::CandidateIndex(const Eigen::VectorXd& u) const {
  const auto it = index_.find(Key(u));
  return it == index_.end() ? -1 : it->second;
}

void FiniteSetModel::Rebuild(const GaussianProcess& gp) {
  posterior_ = std::make_unique<FiniteSetPosterior>(gp.kernel(), unit_candidates_, lambda_);
  log_params_ = gp.kernel_log_params();
  reference_ = 0.0;
  absorbed_outputs_.clear();
}

bool FiniteSetModel::Sync(const GaussianProcess& gp) {
  const double lambda = gp.noise_variance() + gp.jitter();
  const int t = gp.num_observations();
  // The model's observations are only ever appended: once one is not a candidate, it stays.
  if (non_candidate_row_ >= 0 && t > non_candidate_row_ &&
      gp.inputs().col(non_candidate_row_) == non_candidate_input_)
    return false;
  non_candidate_row_ = -1;
  const Eigen::VectorXd outputs = gp.outputs();
  const std::size_t absorbed = absorbed_outputs_.size();
  bool same = posterior_ != nullptr && lambda == lambda_ && gp.kernel_log_params() == log_params_ &&
              static_cast<std::size_t>(t) >= absorbed;
  for (std::size_t i = 0; same && i < absorbed; ++i)
    same = outputs(static_cast<Eigen::Index>(i)) == absorbed_outputs_[i];
  if (!same) {
    posterior_.reset();
    absorbed_outputs_.clear();
    if (!(lambda > 0.0)) return false;
    lambda_ = lambda;
    Rebuild(gp);
  }
  if (static_cast<std::size_t>(t) == absorbed_outputs_.size()) return true;
  const Eigen::MatrixXd inputs = gp.inputs();
  if (absorbed_outputs_.empty()) reference_ = outputs(0);
  for (Eigen::Index i = static_cast<Eigen::Index>(absorbed_outputs_.size()); i < t; ++i) {
    const int c = CandidateIndex(inputs.col(i));
    if (c < 0) {
      non_candidate_row_ = static_cast<int>(i);
      non_candidate_input_ = inputs.col(i);
      posterior_.reset();
      absorbed_outputs_.clear();
      return false;
    }
    posterior_->Observe(c, outputs(i) - reference_);
    absorbed_outputs_.push_back(outputs(i));
  }
  return true;
}

}  // namespace gpbandit
