#include "cli/outcome_flags.h"

#include <cmath>

namespace gpbandit {
namespace cli {
namespace {

const std::vector<std::string>& FailureNames() {
  static const std::vector<std::string> names = {"skip", "impute-worst", "throw"};
  return names;
}

}  // namespace

void AddOutcomeFlags(po::options_description* desc, OutcomeFlags* f, const std::string& when,
                     std::optional<NonFiniteRewardPolicy> default_failures) {
  const std::string sense_default = default_failures ? "; default maximize" : "";
  const std::string failures_default =
      default_failures ? "; default " + FailuresName(*default_failures) : "";
  desc->add_options()(
      "sense", po::value(&f->sense),
      ("maximize (the values told are rewards) or minimize (costs) (" + when + sense_default + ")")
          .c_str())(
      "failures", po::value(&f->failures),
      ("a failed evaluation (--y nan, a worker's crashed command): skip = recorded as failed, "
       "impute-worst = recorded and taught to the model at the worst value so far, throw = "
       "refused (" +
       when + failures_default + ")")
          .c_str());
}

ObjectiveSense SenseOf(const OutcomeFlags& f, ObjectiveSense fallback) {
  if (f.sense.empty()) return fallback;
  RequireOneOf("--sense", f.sense, {"maximize", "minimize"});
  return f.sense == "minimize" ? ObjectiveSense::kMinimize : ObjectiveSense::kMaximize;
}

std::string FailuresName(NonFiniteRewardPolicy policy) {
  switch (policy) {
    case NonFiniteRewardPolicy::kSkip:
      return "skip";
    case NonFiniteRewardPolicy::kImputeWorst:
      return "impute-worst";
    case NonFiniteRewardPolicy::kThrow:
      break;
  }
  return "throw";
}

NonFiniteRewardPolicy FailuresOf(const OutcomeFlags& f, NonFiniteRewardPolicy fallback) {
  if (f.failures.empty()) return fallback;
  RequireOneOf("--failures", f.failures, FailureNames());
  if (f.failures == "skip") return NonFiniteRewardPolicy::kSkip;
  if (f.failures == "impute-worst") return NonFiniteRewardPolicy::kImputeWorst;
  return NonFiniteRewardPolicy::kThrow;
}

void CheckOutcomeMatches(const OutcomeFlags& f, const Optimizer& optimizer,
                         const std::string& where) {
  const OptimizerOptions& o = optimizer.options();
  if (SenseOf(f, o.sense) != o.sense)
    throw UsageError("--sense " + f.sense + " differs from the study's sense " +
                     ObjectiveSenseName(o.sense) + " (" + where + ")");
  if (FailuresOf(f, o.non_finite_rewards) != o.non_finite_rewards)
    throw UsageError("--failures " + f.failures + " differs from the study's --failures " +
                     FailuresName(o.non_finite_rewards) + " (" + where +
                     "; a study keeps the policy it was created with)");
}

void RequireTellable(const Optimizer& optimizer, double y, const std::string& flag) {
  if (std::isfinite(y) || optimizer.options().non_finite_rewards != NonFiniteRewardPolicy::kThrow)
    return;
  throw UsageError(flag + " " + FormatDouble(y) +
                   " is not finite, and this study refuses failed evaluations (--failures "
                   "throw); a study created with --failures skip records such an evaluation as "
                   "failed (--failures impute-worst: at the worst value so far)");
}

}  // namespace cli
}  // namespace gpbandit
