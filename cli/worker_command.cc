// gpbandit worker: one of many processes (on one machine or many) optimizing one study. Loops:
// ask the study for a point, run COMMAND ARGS... x1 ... xd with the point also in the
// environment (GPBANDIT_X=x1,...,xd, GPBANDIT_X1..., GPBANDIT_Z..., GPBANDIT_STUDY,
// GPBANDIT_WORKER), read the reward from the last line of its standard output, tell it (a
// study of several outcomes: the line holds them, name=value pairs or the values in tell
// order, cli/outcome_declaration.h). A
// non-zero exit or an unparsable reward is a failed evaluation: recorded as failed when the
// study skips failures (`study create --failures skip`, the default), otherwise the point is
// released and the worker goes on. SIGINT or SIGTERM: the command gets SIGTERM, the worker
// releases its pending point and exits with status 0. Each told evaluation is printed on
// standard output as x1,...,xd,y once it is durable in the study. In a study of named
// parameters (cli/parameter_flags.h) the arguments are name=value pairs, GPBANDIT_X holds them
// separated by blanks, GPBANDIT_X1... their values, and each told evaluation is printed as
// "name=value ... y=Y" (several outcomes: "name=value ... itae=V tv=V"; a box: x1,...,xd,v1,...).
// In a study of fidelities (cli/fidelity_flags.h) each point comes with the fidelity to evaluate
// it at: GPBANDIT_FIDELITY holds its name and GPBANDIT_FIDELITY_COST its cost, and
// --command-for NAME=CMD runs CMD (through /bin/sh, the point's arguments appended) instead of
// the command after -- for that fidelity; the value is told at that fidelity, and each told
// evaluation's line ends with it (",NAME" for a box, " fidelity=NAME" for named parameters).
#include <algorithm>
#include <limits>
#include <memory>
#include <ostream>

#include "cli/commands.h"
#include "cli/evaluation_process.h"
#include "cli/fidelity_flags.h"
#include "cli/io/csv.h"
#include "cli/outcome_declaration.h"
#include "cli/outcome_flags.h"
#include "cli/parameter_flags.h"
#include "cli/study_flags.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {
namespace {

struct WorkerFlags {
  StudyFlags study;
  OutcomeFlags outcome;
  FidelityFlags fidelity;
  std::vector<std::string> command_for;  // NAME=CMD
  long evaluations = 0, until_told = 0;
  std::string context;
  std::vector<std::string> command;
};

std::vector<std::pair<std::string, std::string>> PointEnvironment(const Eigen::VectorXd& x,
                                                                  const Eigen::VectorXd& z,
                                                                  int fidelity,
                                                                  const WorkerFlags& f,
                                                                  const Optimizer& optimizer) {
  std::vector<std::pair<std::string, std::string>> env = {
      {"GPBANDIT_X", SuggestionText(optimizer.domain(), x)},
      {"GPBANDIT_STUDY", DescribeStudy(f.study)},
      {"GPBANDIT_WORKER", optimizer.worker_id()}};
  const std::vector<std::string> values = PointValues(optimizer.domain(), x);
  for (std::size_t i = 0; i < values.size(); ++i)
    env.emplace_back("GPBANDIT_X" + std::to_string(i + 1), values[i]);
  if (z.size() > 0) env.emplace_back("GPBANDIT_Z", FormatVector(z));
  for (Eigen::Index i = 0; i < z.size(); ++i)
    env.emplace_back("GPBANDIT_Z" + std::to_string(i + 1), io::FormatDouble(z(i)));
  if (fidelity >= 0) {
    const FidelitySpec& level = optimizer.options().fidelities.levels[fidelity];
    env.emplace_back("GPBANDIT_FIDELITY", level.name);
    env.emplace_back("GPBANDIT_FIDELITY_COST", io::FormatDouble(level.cost));
  }
  return env;
}

// The --command-for NAME=CMD of fidelity `name`, or nullptr.
const std::string* CommandFor(const WorkerFlags& f, const std::string& name) {
  for (const std::string& entry : f.command_for)
    if (entry.compare(0, name.size() + 1, name + "=") == 0) return &entry;
  return nullptr;
}

// The command that evaluates at fidelity `fidelity` (-1: the study has none), before the
// point's arguments: --command-for's through /bin/sh, else the one after --.
std::vector<std::string> CommandOfFidelity(const Optimizer& optimizer, const WorkerFlags& f,
                                           int fidelity) {
  if (fidelity < 0) return f.command;
  const std::string& name = optimizer.options().fidelities.levels[fidelity].name;
  const std::string* entry = CommandFor(f, name);
  if (entry == nullptr) return f.command;
  // sh -c 'CMD "$@"' NAME x1 ... xd: the point's arguments follow CMD's own.
  return {"/bin/sh", "-c", entry->substr(name.size() + 1) + " \"$@\"", name};
}

// Throws UsageError before anything is asked unless every --command-for names a fidelity of
// the study and every fidelity has a command.
void CheckCommandsFor(const Optimizer& optimizer, const WorkerFlags& f) {
  const FidelityOptions& fidelities = optimizer.options().fidelities;
  std::vector<std::string> names;
  for (const FidelitySpec& level : fidelities.levels) names.push_back(level.name);
  for (const std::string& entry : f.command_for) {
    const std::size_t equals = entry.find('=');
    const std::string name = entry.substr(0, equals);
    if (equals == std::string::npos || equals + 1 == entry.size())
      throw UsageError("--command-for '" + entry + "' must be NAME=COMMAND");
    if (!fidelities.active())
      throw UsageError("--command-for " + name + ": " + DescribeStudy(f.study) +
                       " has no fidelities");
    if (fidelities.IndexOf(name) < 0)
      throw UsageError("--command-for " + name + " is not a fidelity of " + DescribeStudy(f.study) +
                       "; its fidelities: " + JoinNames(names));
  }
  if (!f.command.empty()) return;
  for (const std::string& name : names)
    if (CommandFor(f, name) == nullptr)
      throw UsageError("no command for the fidelity " + name +
                       ": give one after -- or --command-for " + name + "=COMMAND");
  if (names.empty()) throw UsageError("no command: give it after --, e.g. -- ./evaluate.sh");
}

// One ask, evaluation and tell. false when the worker was asked to stop (its point released).
bool EvaluateOnce(Optimizer& optimizer, const WorkerFlags& f, const Eigen::VectorXd& z,
                  Streams streams) {
  long trial = -1;
  int fidelity = -1;
  Eigen::VectorXd x;
  if (optimizer.options().fidelities.active()) {
    FidelityPoint p = optimizer.AskFidelity(z);
    x = p.x;
    trial = p.trial;
    fidelity = p.fidelity;
  } else {
    x = optimizer.Ask(z, &trial);
  }
  if (StopSignal() != 0) {
    optimizer.Release(x, z);
    return false;
  }
  // The command evaluates the point as suggest prints it (a bound within rounding is the bound),
  // and the study is told that point, as a suggest/observe loop tells it: by its trial when it
  // differs from the one handed out, so that both leave the same records.
  const Eigen::VectorXd evaluated = SnapToBounds(optimizer.domain(), x);
  std::vector<std::string> argv = CommandOfFidelity(optimizer, f, fidelity);
  for (const std::string& argument : PointArguments(optimizer.domain(), evaluated))
    argv.push_back(argument);
  const EvaluationResult result =
      RunEvaluation(argv, PointEnvironment(evaluated, z, fidelity, f, optimizer));
  if (result.outcome == EvaluationResult::Outcome::kInterrupted) {
    optimizer.Release(x, z);
    return false;
  }
  // A study of several outcomes reads them from the command's last line (outcome_declaration.h).
  const bool outcomes = DeclaresOutcomes(optimizer);
  const OutcomeOptions& declared = optimizer.options().outcomes;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Eigen::VectorXd values = Eigen::VectorXd::Constant(declared.num_outcomes(), nan);
  bool failed = result.outcome == EvaluationResult::Outcome::kFailed;
  std::string problem = result.problem;
  if (outcomes && result.completed) {
    failed = !ParseOutcomeLine(declared, LastLine(result.output), &values, &problem);
    if (failed) {
      values.setConstant(nan);
    } else if (!values.allFinite()) {
      failed = true;
      problem = "an outcome is not finite (" + OutcomeText(declared, values) + ")";
    }
  } else if (!failed) {
    values(0) = result.reward;
  }
  if (failed) {
    streams.err << "[worker] " << PointText(optimizer.domain(), evaluated)
                << ": the evaluation failed: " << problem;
    if (optimizer.options().non_finite_rewards == NonFiniteRewardPolicy::kThrow) {
      optimizer.Release(x, z);
      streams.err << "; released (the study refuses failed evaluations)\n";
      return true;
    }
    streams.err << "; recorded as failed\n";
  }
  if (outcomes) {
    if (evaluated == x) {
      optimizer.TellOutcomes(x, z, values);
    } else {
      optimizer.TellTrialOutcomes(trial, evaluated, z, values);
    }
  } else if (fidelity >= 0) {
    optimizer.TellTrialFidelity(trial, evaluated, z, values(0), fidelity);
  } else if (evaluated == x) {
    optimizer.Tell(x, z, values(0));
  } else {
    optimizer.TellTrial(trial, evaluated, z, values(0));
  }
  // Once durable: the point, then the outcomes (x1,...,xd,v1,...,vk in tell order for a box;
  // name=value pairs for named parameters), then the fidelity's name.
  const std::string fidelity_name =
      fidelity >= 0 ? optimizer.options().fidelities.levels[fidelity].name : std::string();
  if (optimizer.domain().action_space() != nullptr) {
    streams.out << PointText(optimizer.domain(), evaluated) << " "
                << (outcomes ? OutcomeText(declared, values) : "y=" + io::FormatDouble(values(0)))
                << (fidelity >= 0 ? " fidelity=" + fidelity_name : std::string()) << std::endl;
  } else {
    streams.out << FormatVector(evaluated) << "," << FormatVector(values)
                << (fidelity >= 0 ? "," + fidelity_name : std::string()) << std::endl;
  }
  return true;
}

}  // namespace

int WorkerCommand(const std::vector<std::string>& args, Streams streams) {
  WorkerFlags f;
  auto dash = std::find(args.begin(), args.end(), "--");
  const std::vector<std::string> own(args.begin(), dash);
  if (dash != args.end()) f.command.assign(dash + 1, args.end());
  po::options_description desc("options (defaults in parentheses)");
  AddStudyFlags(&desc, &f.study, /*with_log=*/false, /*with_worker=*/true);
  desc.add_options()("evaluations", ValueWithDefault(&f.evaluations),
                     "stop after this many evaluations by this worker (0: no limit)")(
      "until-told", ValueWithDefault(&f.until_told),
      "stop once the study holds this many tells (0: no limit)")(
      "context", po::value(&f.context), "this worker's context z1,z2,... (contextual studies)");
  AddOutcomeFlags(&desc, &f.outcome, "the study's, set by study create; checked when given",
                  std::nullopt);
  AddFidelityFlags(&desc, &f.fidelity, "the study's, set by study create; checked when given",
                   BareFidelity::kEvaluateAt);
  desc.add_options()("command-for", po::value(&f.command_for),
                     "NAME=COMMAND, repeatable: in a study of fidelities, the shell command that "
                     "evaluates at fidelity NAME (the point's arguments appended), instead of "
                     "the one after --; every command also finds the fidelity in "
                     "GPBANDIT_FIDELITY and its cost in GPBANDIT_FIDELITY_COST");
  po::variables_map vm;
  if (!ParseArguments("worker",
                      "--storage URL [--study NAME] [--command-for sim=CMD ...] [options] -- "
                      "COMMAND [ARGS...]",
                      own, desc, &vm, streams.out))
    return kExitOk;
  if (f.command.empty() && f.command_for.empty())
    throw UsageError("no command: give it after --, e.g. -- ./evaluate.sh");
  f.study.worker_fidelity = ToldFidelityName(f.fidelity);
  RequireAtLeast("--evaluations", f.evaluations, 0);
  RequireAtLeast("--until-told", f.until_told, 0);
  CheckStudyFlags(f.study, /*with_log=*/false);
  CheckStudyAccess(f.study, /*writes=*/true);
  const Eigen::VectorXd z =
      f.context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", f.context);
  const std::unique_ptr<Optimizer> optimizer = OpenExistingStudy(f.study);
  CheckOutcomeMatches(f.outcome, *optimizer, DescribeStudy(f.study));
  CheckFidelityMatches(f.fidelity, *optimizer, DescribeStudy(f.study));
  CheckCommandsFor(*optimizer, f);
  optimizer->domain().CheckContext(z, "--context");
  InstallStopSignals();
  long done = 0;
  auto study_done = [&] {
    return f.until_told > 0 && static_cast<long>(optimizer->observations().size()) >= f.until_told;
  };
  while (StopSignal() == 0 && (f.evaluations == 0 || done < f.evaluations) && !study_done()) {
    if (!EvaluateOnce(*optimizer, f, z, streams)) break;
    ++done;
  }
  streams.err << "[worker " << optimizer->worker_id() << "] " << done << " evaluations";
  if (StopSignal() != 0)
    streams.err << "; stopped by signal " << StopSignal() << ", its pending point released";
  streams.err << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
