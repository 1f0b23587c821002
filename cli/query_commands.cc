// gpbandit best / predict: what the model of a study believes, read from its log or database
// without changing it (no ask, no tell), with the meaning "best" and "predict" have in C++ and
// Python (optimizer.h): the recommendation (without --context the observed point with the
// highest posterior mean, at a context the maximizer of the posterior mean there), and the
// posterior mean and standard deviation at a point, in the study's units (costs under --sense
// minimize; another outcome of a study of several with --outcome NAME; in a study of fidelities
// best and predict answer at the target, predict at another with --fidelity NAME). Points of a
// study of named parameters are name=value pairs (cli/parameter_flags.h).
#include <cmath>
#include <memory>
#include <ostream>

#include "cli/commands.h"
#include "cli/parameter_flags.h"
#include "cli/study_flags.h"
#include "gpbandit/numerics/format.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {
namespace {

struct QueryFlags {
  StudyFlags study;
  std::string context;
};

void AddQueryFlags(po::options_description* desc, QueryFlags* f) {
  AddStudyFlags(desc, &f->study, /*with_log=*/true, /*with_worker=*/false);
  desc->add_options()("context", po::value(&f->context),
                      "the context z1,z2,... (contextual studies)");
}

std::unique_ptr<Optimizer> OpenForQuery(const QueryFlags& f) {
  CheckStudyFlags(f.study, /*with_log=*/true);
  CheckStudyAccess(f.study, /*writes=*/false);
  return OpenExistingStudy(f.study);
}

Eigen::VectorXd ContextOf(const QueryFlags& f) {
  return f.context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", f.context);
}

}  // namespace

int BestCommand(const std::vector<std::string>& args, Streams streams) {
  QueryFlags f;
  po::options_description desc("options");
  AddQueryFlags(&desc, &f);
  po::variables_map vm;
  if (!ParseArguments("best", "(--log runs.jsonl | --storage URL [--study NAME]) [--context z]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  const std::unique_ptr<Optimizer> optimizer = OpenForQuery(f);
  RequireObservations(*optimizer, f.study, "to recommend");
  Recommendation r;
  try {
    r = optimizer->Best(ContextOf(f));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--context: ") + e.what());
  } catch (const std::logic_error& e) {
    // Several objectives have no single best point; a constrained study may have no point
    // feasible with the study's confidence yet.
    throw InputError(DescribeStudy(f.study) + ": " + e.what() +
                     (optimizer->options().outcomes.num_objectives() > 1
                          ? " (gpbandit pareto prints the front)"
                          : ""));
  }
  streams.out << SuggestionText(optimizer->domain(), r.x) << std::endl;
  const FidelityOptions& fidelities = optimizer->options().fidelities;
  // Under a safe strategy Best stays inside the safe set: say how far inside.
  const double margin = optimizer->SafetyMargin(r.x, r.z);
  streams.err << "[best] posterior mean " << FormatDouble(r.posterior_mean)
              << (std::isnan(r.observed_reward)
                      ? std::string(" (not observed there)")
                      : (optimizer->options().sense == ObjectiveSense::kMinimize
                             ? ", observed cost "
                             : ", observed reward ") +
                            FormatDouble(r.observed_reward))
              << "; " << optimizer->num_accepted() << " observations, "
              << ObjectiveSenseName(optimizer->options().sense)
              << (fidelities.active() ? "; at the target " + fidelities.levels.back().name +
                                            ", cost spent " + FormatDouble(optimizer->CostSpent())
                                      : std::string())
              << (std::isnan(margin) ? std::string()
                                     : "; inside the safe set, safety margin " +
                                           FormatDouble(margin) + " prior standard deviations")
              << "\n";
  return kExitOk;
}

int PredictCommand(const std::vector<std::string>& args, Streams streams) {
  QueryFlags f;
  std::vector<std::string> x_texts;
  std::string outcome, fidelity;
  po::options_description desc("options");
  AddQueryFlags(&desc, &f);
  desc.add_options()("x", po::value(&x_texts)->required(),
                     "the action x1,x2,...; with named parameters its name=value pairs")(
      "outcome", po::value(&outcome),
      "a study of several outcomes: the outcome predicted, by name (default: the first "
      "objective)")("fidelity", po::value(&fidelity),
                    "a study of fidelities: the fidelity predicted, by name (default: the "
                    "target)");
  po::variables_map vm;
  if (!ParseArguments("predict",
                      "(--log runs.jsonl | --storage URL [--study NAME]) --x 0.3,4.2 "
                      "[--context z]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  const std::unique_ptr<Optimizer> optimizer = OpenForQuery(f);
  const Eigen::VectorXd x = ParsePoint(optimizer->domain(), "x", x_texts);
  const OutcomeOptions& outcomes = optimizer->options().outcomes;
  const int index = outcome.empty() ? 0 : outcomes.IndexOf(outcome);
  if (index < 0)
    throw UsageError("--outcome '" + outcome + "' is not an outcome of this study; its outcomes: " +
                     JoinNames(outcomes.names()));
  const FidelityOptions& fidelities = optimizer->options().fidelities;
  const int level = fidelity.empty() ? -1 : fidelities.IndexOf(fidelity);
  if (!fidelity.empty() && level < 0)
    throw UsageError("--fidelity " + fidelity + " is not a fidelity of " + DescribeStudy(f.study) +
                     (fidelities.active() ? "" : " (it has none)"));
  Prediction p;
  try {
    p = level >= 0   ? optimizer->PredictFidelity(x, ContextOf(f), level)
        : index == 0 ? optimizer->Predict(x, ContextOf(f))
                     : optimizer->PredictOutcome(index, x, ContextOf(f));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  // One CSV line: mean,stddev.
  streams.out << FormatDouble(p.mean) << "," << FormatDouble(p.stddev) << std::endl;
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
