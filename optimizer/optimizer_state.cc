// The Optimizer's state queries (optimizer.h, "State"), each under the mutex.
#include <stdexcept>

#include "gpbandit/optimizer/optimizer.h"
#include "optimizer/optimizer_impl.h"

namespace gpbandit {

// Members fixed at construction are read without the lock (the references stay valid: nothing
// replaces them, not even a replica rebuilt from the study's start). Everything else is read
// under the lock and returned by value: ResetReplica replaces the models.
const Domain& Optimizer::domain() const { return impl_->replica().domain; }
const std::string& Optimizer::strategy_name() const { return impl_->replica().strategy_name; }
const StrategyParams& Optimizer::strategy_options() const {
  return impl_->replica().strategy_options;
}
const OptimizerOptions& Optimizer::options() const { return impl_->replica().options; }
const std::string& Optimizer::worker_id() const { return impl_->journal().worker_id(); }
GaussianProcess Optimizer::model() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (impl_->replica().model->reward().posterior().gp() == nullptr)
    throw std::logic_error(
        "Optimizer::model: on a finite set kept by rank-one updates "
        "(OptimizerOptions::finite_set_rank_one_updates) the posterior lives over the candidates "
        "and no exact GP is kept; use Predict, Best or information_gain()");
  return impl_->replica().model->gp();
}
int Optimizer::num_constraints() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->constraints().num_constraints();
}

GaussianProcess Optimizer::constraint_model(int i) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->constraints().constraint(i);
}

double Optimizer::reward_unit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->reward_unit();
}

int Optimizer::t() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->counts().rows() + 1;
}

long Optimizer::rounds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().rounds;
}

int Optimizer::num_accepted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->counts().num_accepted();
}

int Optimizer::num_failed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(impl_->replica().observations.size()) -
         impl_->replica().model->counts().num_accepted();
}

std::vector<Observation> Optimizer::observations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().observations;
}

std::vector<PendingPoint> Optimizer::pending_points() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().pending.points();
}

Eigen::MatrixXd Optimizer::pending_actions() const {
  const std::vector<PendingPoint> points = pending_points();
  Eigen::MatrixXd m(domain().action_dim(), static_cast<Eigen::Index>(points.size()));
  for (std::size_t j = 0; j < points.size(); ++j) m.col(static_cast<Eigen::Index>(j)) = points[j].x;
  return m;
}

Eigen::MatrixXd Optimizer::pending_contexts() const {
  const std::vector<PendingPoint> points = pending_points();
  Eigen::MatrixXd m(domain().context_dim(), static_cast<Eigen::Index>(points.size()));
  for (std::size_t j = 0; j < points.size(); ++j) m.col(static_cast<Eigen::Index>(j)) = points[j].z;
  return m;
}

double Optimizer::figure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().figure;
}

std::string Optimizer::figure_name() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->asks().figure_name();
}

double Optimizer::information_gain() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->reward().posterior().InformationGain();
}

bool Optimizer::has_fit_report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->refit().has_fit_report();
}

HyperparameterFitReport Optimizer::last_fit_report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->replica().model->refit().last_fit_report();
}

}  // namespace gpbandit
