// The Optimizer's calls with named values (optimizer.h, "Named values"): conversions through
// the domain's parameter spaces around the vector calls.
#include <stdexcept>

#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace {

const ParameterSpace& ActionSpace(const Domain& domain, const char* call) {
  if (domain.action_space() == nullptr)
    throw std::logic_error(std::string(call) +
                           " needs a domain built from a ParameterSpace "
                           "(Domain::Space), not " +
                           domain.Describe());
  return *domain.action_space();
}

Eigen::VectorXd ContextVector(const Domain& domain, const NamedValues& context) {
  if (domain.context_space() != nullptr)
    return domain.context_space()->ToVector(context, "context");
  if (!context.empty())
    throw std::invalid_argument(domain.context_dim() > 0
                                    ? "context: named, but the domain's contexts are not a "
                                      "ParameterSpace; use the vector calls"
                                    : "context: given, but the domain has no contexts");
  return Eigen::VectorXd();
}

}  // namespace

NamedValues Optimizer::AskNamed(const NamedValues& context) {
  const ParameterSpace& space = ActionSpace(domain(), "AskNamed");
  return space.ToNamed(Ask(ContextVector(domain(), context)));
}

std::vector<NamedValues> Optimizer::AskBatchNamed(int q, const NamedValues& context) {
  const ParameterSpace& space = ActionSpace(domain(), "AskBatchNamed");
  const Eigen::MatrixXd X = AskBatch(q, ContextVector(domain(), context));
  std::vector<NamedValues> points;
  for (Eigen::Index j = 0; j < X.cols(); ++j) points.push_back(space.ToNamed(X.col(j)));
  return points;
}

void Optimizer::TellNamed(const NamedValues& x, double y) { TellNamed(x, NamedValues(), y); }

void Optimizer::TellNamed(const NamedValues& x, const NamedValues& context, double y) {
  const ParameterSpace& space = ActionSpace(domain(), "TellNamed");
  Tell(space.ToVector(x, "x"), ContextVector(domain(), context), y);
}

void Optimizer::TellOutcomesNamed(const NamedValues& x, const NamedValues& context,
                                  const OutcomeValues& outcomes) {
  const ParameterSpace& space = ActionSpace(domain(), "TellOutcomesNamed");
  const Eigen::VectorXd values = OutcomeVector(outcomes);
  TellOutcomes(space.ToVector(x, "x"), ContextVector(domain(), context), values);
}

}  // namespace gpbandit
