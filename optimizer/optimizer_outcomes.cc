// The Optimizer's calls of several outcomes (optimizer.h, "Several outcomes").
#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/optimizer/optimizer.h"
#include "optimizer/optimizer_impl.h"
#include "optimizer/outcome_answers.h"

namespace gpbandit {
namespace {

// "a, b, c": the study's outcome names in tell order, for messages.
std::string OutcomeNames(const OutcomeOptions& outcomes) {
  std::string joined;
  for (const std::string& n : outcomes.names()) joined += (joined.empty() ? "" : ", ") + n;
  return joined;
}

// A tell's reward and further outcomes: a non-finite value anywhere is a failed evaluation.
void SplitOutcomes(const OutcomeOptions& outcomes, const Eigen::VectorXd& values, double* y,
                   Eigen::VectorXd* rest) {
  if (values.size() != outcomes.num_outcomes())
    throw std::invalid_argument(
        "outcomes has " + std::to_string(values.size()) + " values, but the study has " +
        std::to_string(outcomes.num_outcomes()) + " outcomes (" + OutcomeNames(outcomes) + ")");
  if (!values.allFinite()) {
    *y = std::nan("");
    *rest = Eigen::VectorXd();
    return;
  }
  *y = values(0);
  *rest = values.tail(values.size() - 1);
}

}  // namespace

void Optimizer::TellOutcomes(const Eigen::VectorXd& x, const Eigen::VectorXd& context,
                             const Eigen::VectorXd& outcomes) {
  double y = 0.0;
  Eigen::VectorXd rest;
  SplitOutcomes(options().outcomes, outcomes, &y, &rest);
  Tell(x, context, y, rest);
}

void Optimizer::TellTrialOutcomes(long trial, const Eigen::VectorXd& x,
                                  const Eigen::VectorXd& context, const Eigen::VectorXd& outcomes) {
  double y = 0.0;
  Eigen::VectorXd rest;
  SplitOutcomes(options().outcomes, outcomes, &y, &rest);
  TellTrial(trial, x, context, y, rest);
}

Eigen::VectorXd Optimizer::OutcomeVector(const OutcomeValues& named) const {
  const std::vector<std::string> names = options().outcomes.names();
  for (const auto& [name, value] : named)
    if (options().outcomes.IndexOf(name) < 0)
      throw std::invalid_argument("outcome '" + name + "' is not one of the study's (" +
                                  OutcomeNames(options().outcomes) + ")");
  Eigen::VectorXd values(static_cast<Eigen::Index>(names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto it = named.find(names[i]);
    if (it == named.end()) throw std::invalid_argument("outcome '" + names[i] + "' is missing");
    values(static_cast<Eigen::Index>(i)) = it->second;
  }
  return values;
}

std::vector<ParetoPoint> Optimizer::ParetoFront() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return internal::ParetoFrontOf(impl_->replica());
}

double Optimizer::Hypervolume() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return internal::FrontHypervolume(impl_->replica());
}

Eigen::VectorXd Optimizer::ReferencePoint() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return internal::ToldReference(impl_->replica());
}

double Optimizer::ProbabilityOfFeasibility(const Eigen::VectorXd& x,
                                           const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return internal::FeasibilityAt(impl_->replica(), x, context);
}

Prediction Optimizer::PredictOutcome(int i, const Eigen::VectorXd& x,
                                     const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return internal::PredictOutcomeAt(impl_->replica(), i, x, context);
}

}  // namespace gpbandit
