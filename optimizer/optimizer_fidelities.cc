// The Optimizer's calls of a study with fidelities (optimizer.h, "Fidelities").
#include <stdexcept>
#include <string>

#include "gpbandit/optimizer/optimizer.h"
#include "optimizer/optimizer_impl.h"

namespace gpbandit {
namespace {

// A source's data come from an earlier study (FidelitySpec::source): nothing is evaluated there.
void RefuseSourceTell(const FidelityOptions& fidelities, int fidelity) {
  if (!fidelities.IsSource(fidelity)) return;
  throw std::invalid_argument("fidelity = " + std::to_string(fidelity) + " ('" +
                              fidelities.levels[static_cast<std::size_t>(fidelity)].name +
                              "') is a source (an earlier study), which is never evaluated");
}

}  // namespace

FidelityPoint Optimizer::AskFidelity(const Eigen::VectorXd& context) {
  const FidelityOptions& fidelities = options().fidelities;
  if (!fidelities.active())
    throw std::logic_error(
        "AskFidelity: the study declares no fidelities "
        "(OptimizerOptions.fidelities is empty); use Ask");
  FidelityPoint point;
  RoundReport report;
  std::function<void(const RoundReport&)> callback;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<long> trials;
    point.x = impl_->asks().Ask(1, context, &trials).col(0);
    report = impl_->asks().last_round_report();
    callback = impl_->round_callback;
    point.trial = trials.front();
    point.fidelity = report.fidelities.front();
    point.fidelity_name = report.fidelity_names.front();
  }
  // Outside the lock, so that the callback may query the optimizer.
  if (callback) callback(report);
  return point;
}

void Optimizer::TellFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
                             int fidelity) {
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->tells().CheckFidelity(fidelity, "fidelity", /*given=*/true);
  RefuseSourceTell(impl_->replica().options.fidelities, fidelity);
  impl_->tells().Tell(x, context, y, Eigen::VectorXd(), -1, fidelity);
}

void Optimizer::TellFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
                             const std::string& fidelity) {
  TellFidelity(x, context, y, FidelityIndex(fidelity));
}

void Optimizer::TellTrialFidelity(long trial, const Eigen::VectorXd& x,
                                  const Eigen::VectorXd& context, double y, int fidelity) {
  if (trial < 0)
    throw std::invalid_argument("trial " + std::to_string(trial) +
                                " is not pending (trial numbers are >= 0)");
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->tells().CheckFidelity(fidelity, "fidelity", /*given=*/true);
  RefuseSourceTell(impl_->replica().options.fidelities, fidelity);
  impl_->tells().Tell(x, context, y, Eigen::VectorXd(), trial, fidelity);
}

Prediction Optimizer::PredictFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& context,
                                      int fidelity) const {
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->tells().CheckFidelity(fidelity, "fidelity", /*given=*/true);
  return impl_->recommender().Predict(x, context, fidelity);
}

int Optimizer::FidelityIndex(const std::string& name) const {
  const FidelityOptions& fidelities = options().fidelities;
  const int index = fidelities.IndexOf(name);
  if (index >= 0) return index;
  if (!fidelities.active())
    throw std::invalid_argument("fidelity = '" + name +
                                "': the study declares no fidelities "
                                "(OptimizerOptions.fidelities is empty)");
  std::string names;
  for (const FidelitySpec& level : fidelities.levels)
    names += (names.empty() ? "" : ", ") + level.name;
  throw std::invalid_argument("fidelity = '" + name + "' is not one of the study's (" + names +
                              ")");
}

double Optimizer::CostSpent() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const FidelityOptions& fidelities = impl_->replica().options.fidelities;
  double spent = 0.0;
  // A source's copied observations cost 0 (FidelitySpec::cost), so they add nothing.
  for (const Observation& o : impl_->replica().observations)
    spent += o.fidelity >= 0 ? fidelities.levels[static_cast<std::size_t>(o.fidelity)].cost : 1.0;
  return spent;
}

}  // namespace gpbandit
