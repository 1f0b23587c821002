// gpbandit suggest / observe: the ask/tell Optimizer driven by hand, one call per process, its
// state kept in the study's storage. With --log FILE, the first call creates the log from
// --bounds (or named parameters, --param / --space; cli/parameter_flags.h) and --strategy and
// later calls rebuild the optimizer from the log alone; with
// --storage URL --study NAME, the study was made by `gpbandit study create`. Either way the
// study remembers bounds or parameters, strategy and options, and several processes may call at
// once (the storage's lock serializes them; optimizer.h, "Shared studies").
// In a study of fidelities (cli/fidelity_flags.h) suggest prints "fidelity NAME" on the line
// after the point, and observe tells at --fidelity NAME, else the released suggestion's, else the
// target.
#include <memory>
#include <optional>
#include <ostream>

#include "cli/commands.h"
#include "cli/fidelity_flags.h"
#include "cli/outcome_declaration.h"
#include "cli/outcome_flags.h"
#include "cli/parameter_flags.h"
#include "cli/strategy_options.h"
#include "cli/study_flags.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {
namespace {

struct LogFlags {
  StudyFlags study;
  SpaceFlags space;
  std::string bounds, strategy = "gp-ucb", context, context_bounds;
  OutcomeFlags outcome;
  DeclarationFlags declaration;
  FidelityFlags fidelity;
  std::vector<std::string> options;
  std::uint64_t seed = kDefaultSeed;
};

void AddLogFlags(po::options_description* desc, LogFlags* f, BareFidelity bare_fidelity) {
  AddStudyFlags(desc, &f->study, /*with_log=*/true, /*with_worker=*/true);
  desc->add_options()("bounds", po::value(&f->bounds),
                      "action box lower:upper,... (first call; later calls must match or omit it)");
  AddSpaceFlags(desc, &f->space, "first call; later calls must match or omit it");
  desc->add_options()("strategy", ValueWithDefault(&f->strategy),
                      "registry name (first call; remembered by the log)")(
      "context", po::value(&f->context), "this round's context z1,z2,... (contextual problems)")(
      "context-bounds", po::value(&f->context_bounds),
      "context box lower:upper,... (first call, optional)")(
      "option", po::value(&f->options),
      "[strategy:]key=value, a strategy option, repeatable (first call; remembered by the log; "
      "gpbandit strategies lists each strategy's options and defaults)")(
      "seed", ValueWithDefault(&f->seed), "seed (first call)");
  // By hand a typo like --y nan should be refused, not recorded: throw by default.
  AddOutcomeFlags(desc, &f->outcome,
                  "first call; remembered by the log, later calls must match or omit it",
                  NonFiniteRewardPolicy::kThrow);
  AddDeclarationFlags(desc, &f->declaration,
                      "first call; remembered by the log, later calls must match or omit it");
  AddFidelityFlags(desc, &f->fidelity,
                   "first call; remembered by the log, later calls must match or omit it",
                   bare_fidelity);
}

// The --option values for the study's strategy.
StrategyParams OptionsOf(const LogFlags& f, const std::string& strategy) {
  return ParseStrategyOptions(f.options, {strategy}).For(strategy, {strategy});
}

Eigen::VectorXd ContextArg(const LogFlags& f) {
  return f.context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", f.context);
}

// --bounds, --strategy, --seed and --option, when given, must be the study's.
void CheckFlagsMatch(const Optimizer& optimizer, const LogFlags& f, const po::variables_map& vm) {
  const std::string where = DescribeStudy(f.study);
  const Domain& domain = optimizer.domain();
  if (!f.bounds.empty() && domain.action_space() != nullptr)
    throw UsageError("--bounds " + f.bounds +
                     " given, but the study's actions are named parameters " +
                     domain.action_space()->Describe() + " (" + where + "); omit --bounds");
  CheckSpaceMatches(f.space, domain, where);
  if (!f.bounds.empty()) {
    Eigen::VectorXd lower, upper;
    ParseBounds("bounds", f.bounds, &lower, &upper);
    if (lower.size() != domain.lower().size() || lower != domain.lower() || upper != domain.upper())
      throw UsageError("--bounds " + f.bounds + " differ from the log's bounds " +
                       FormatVector(domain.lower(), " ") + " .. " +
                       FormatVector(domain.upper(), " ") + " (" + where +
                       "); omit --bounds or use a new log");
  }
  if (!vm["strategy"].defaulted() && f.strategy != optimizer.strategy_name())
    throw UsageError("--strategy " + f.strategy + " differs from the log's strategy " +
                     optimizer.strategy_name() + " (" + where + ")");
  if (!vm["seed"].defaulted() && f.seed != optimizer.options().seed)
    throw UsageError("--seed " + std::to_string(f.seed) + " differs from the log's seed " +
                     std::to_string(optimizer.options().seed) + " (" + where + ")");
  CheckOutcomeMatches(f.outcome, optimizer, where);
  CheckDeclarationMatches(f.declaration, f.outcome, optimizer, where);
  CheckFidelityMatches(f.fidelity, optimizer, where);
  const StrategyParams& logged = optimizer.strategy_options();
  if (logged.MergedWith(OptionsOf(f, optimizer.strategy_name())) != logged)
    throw UsageError("--option values differ from the log's strategy options " + logged.json() +
                     " (" + where + "); omit --option or use a new log");
}

Domain BoxOfFlag(const std::string& bounds) {
  Eigen::VectorXd lower, upper;
  ParseBounds("bounds", bounds, &lower, &upper);
  return Domain::Box(lower, upper);
}

// A new log's optimizer, from the flags.
std::unique_ptr<Optimizer> NewLogOptimizer(const LogFlags& f) {
  const std::optional<ParameterSpace> space = SpaceFromFlags(f.space, f.bounds);
  if (f.bounds.empty() && !space)
    throw UsageError("--bounds is required on the first call (no log at " + f.study.log_path +
                     " yet), or --param / --space for named parameters");
  RequireRegisteredStrategy("--strategy", f.strategy);
  const StrategyParams params = OptionsOf(f, f.strategy);
  RequireValidStrategyOptions(f.strategy, params);
  Domain domain = space ? Domain::Space(*space) : BoxOfFlag(f.bounds);
  const Eigen::VectorXd z = ContextArg(f);
  if (z.size() > 0) {
    Eigen::VectorXd zl, zu;
    if (!f.context_bounds.empty()) ParseBounds("context-bounds", f.context_bounds, &zl, &zu);
    domain = domain.WithContext(static_cast<int>(z.size()), zl, zu);
  } else if (!f.context_bounds.empty()) {
    throw UsageError("--context-bounds given without --context");
  }
  OptimizerOptions options;
  options.seed = f.seed;
  options.sense = SenseOf(f.outcome, ObjectiveSense::kMaximize);
  options.outcomes = OutcomesFromFlags(f.declaration, f.outcome);
  if (!options.outcomes.objectives.empty())
    options.sense = options.outcomes.objectives[0].minimize ? ObjectiveSense::kMinimize
                                                            : ObjectiveSense::kMaximize;
  options.fidelities = FidelitiesFromFlags(f.fidelity);
  AddSourcesFromFlags(f.fidelity, domain, &options);
  options.log_path = f.study.log_path;
  options.worker = WorkerFromFlags(f.study);
  // A person types rewards by hand: a typo like "nan" should be refused, not recorded.
  options.non_finite_rewards = FailuresOf(f.outcome, NonFiniteRewardPolicy::kThrow);
  // A safe strategy that models its signals in the caller's units (safe-opt's calibrated =
  // false) needs the model's prior in reward units: the default kernel's unit signal variance
  // then says "the reward may range over about +-2 around its first values".
  const std::unique_ptr<Strategy> strategy = StrategyRegistry::Default().Create(f.strategy, params);
  if (strategy->safe_seeds().cols() > 0 &&
      (strategy->safety_signals().empty() || !strategy->calibrated_safety_models()))
    options.gp.standardize_outputs = false;
  return std::make_unique<Optimizer>(domain, nullptr, f.strategy, params, options);
}

// The study's optimizer (checking --bounds/--strategy/--option against it), or for a --log
// that holds nothing yet, a new one whose first record creates the log.
std::unique_ptr<Optimizer> OpenOptimizer(const LogFlags& f, const po::variables_map& vm) {
  CheckStudyFlags(f.study, /*with_log=*/true);
  CheckStudyAccess(f.study, /*writes=*/true);
  SpaceFromFlags(f.space, f.bounds);  // a bad or conflicting --param, before anything is read
  OutcomesFromFlags(f.declaration, f.outcome);  // a bad --objective or --constraint, likewise
  FidelitiesFromFlags(f.fidelity);              // a bad --fidelity NAME:COST, likewise
  if (!f.study.log_path.empty() && !LogHasRecords(f.study.log_path)) return NewLogOptimizer(f);
  std::unique_ptr<Optimizer> optimizer = OpenExistingStudy(f.study);
  CheckFlagsMatch(*optimizer, f, vm);
  return optimizer;
}

// The fidelity observe tells: --fidelity NAME, else the answered pending point's, else the
// target; -1 in a study without fidelities. Throws UsageError naming the value for a name the
// study does not have (before anything is written).
int ToldFidelity(const Optimizer& optimizer, const LogFlags& f, long answered,
                 const Eigen::VectorXd& x) {
  const std::string name = ToldFidelityName(f.fidelity);
  const FidelityOptions& fidelities = optimizer.options().fidelities;
  if (!fidelities.active()) {
    if (name.empty()) return -1;
    throw UsageError("--fidelity " + name + ": " + DescribeStudy(f.study) +
                     " has no fidelities (a study declares them when it is created, "
                     "--fidelity sim:1 --fidelity robot:20)");
  }
  if (!name.empty()) {
    const int index = fidelities.IndexOf(name);
    if (index < 0) {
      std::vector<std::string> names;
      for (const FidelitySpec& level : fidelities.levels) names.push_back(level.name);
      throw UsageError("--fidelity " + name + " is not a fidelity of " + DescribeStudy(f.study) +
                       "; its fidelities: " + JoinNames(names));
    }
    return index;
  }
  // The pending point observe releases: by its trial, or the one handed out exactly at x.
  const Eigen::VectorXd z = ContextArg(f);
  for (const PendingPoint& p : optimizer.pending_points()) {
    const bool released =
        answered >= 0 ? p.trial == answered
                      : p.x.size() == x.size() && p.x == x && p.z.size() == z.size() && p.z == z;
    if (released && p.fidelity >= 0) return p.fidelity;
  }
  return fidelities.target();
}

}  // namespace

int SuggestCommand(const std::vector<std::string>& args, Streams streams) {
  LogFlags f;
  bool print_trial = false;
  po::options_description desc("options (defaults in parentheses)");
  AddLogFlags(&desc, &f, BareFidelity::kEvaluateAt);
  desc.add_options()("print-trial", po::bool_switch(&print_trial),
                     "also print the suggestion's trial number, as a second line 'trial N' "
                     "(observe --trial N takes it); in a study of fidelities after the "
                     "'fidelity NAME' line");
  po::variables_map vm;
  if (!ParseArguments("suggest",
                      "(--log runs.jsonl | --storage URL [--study NAME]) [--bounds 0:1,0:10 | "
                      "--param kp=log:0.1:100 ... | --space space.json] [--context z] "
                      "[--print-trial] [options]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  NoteDeclarationFlags(vm, &f.declaration);
  f.study.worker_fidelity = ToldFidelityName(f.fidelity);
  std::unique_ptr<Optimizer> optimizer = OpenOptimizer(f, vm);
  long trial = -1;
  const bool fidelities = optimizer->options().fidelities.active();
  std::string fidelity_name;
  Eigen::VectorXd x;
  if (fidelities) {
    FidelityPoint p = optimizer->AskFidelity(ContextArg(f));
    x = p.x;
    trial = p.trial;
    fidelity_name = p.fidelity_name;
  } else {
    x = optimizer->Ask(ContextArg(f), &trial);
  }
  // The point stays stdout's first line (scripts read it); a study of fidelities says where to
  // evaluate it on a second line; the trial goes on the next only when asked for.
  streams.out << SuggestionText(optimizer->domain(), x) << std::endl;
  if (fidelities) streams.out << "fidelity " << fidelity_name << std::endl;
  if (print_trial) streams.out << "trial " << trial << std::endl;
  streams.err << "[suggest] trial " << trial
              << (fidelities ? ", fidelity " + fidelity_name : std::string()) << ", round "
              << optimizer->rounds() << ", " << optimizer->num_accepted()
              << " observations, strategy " << optimizer->strategy_name() << "\n";
  return kExitOk;
}

int ObserveCommand(const std::vector<std::string>& args, Streams streams) {
  LogFlags f;
  std::vector<std::string> x_texts;
  std::string g_text, y_text;
  long trial = -1;
  bool clear_pending = false;
  po::options_description desc("options (defaults in parentheses)");
  AddLogFlags(&desc, &f, BareFidelity::kTold);
  desc.add_options()("x", po::value(&x_texts)->required(),
                     "the action tried, x1,x2,...; with named parameters its name=value pairs, "
                     "as suggest prints them, in one --x or several")(
      "y", po::value(&y_text)->required(),
      "the value observed: a reward (higher is better), or a cost under --sense minimize; in a "
      "study of several outcomes (--objective, --constraint) every outcome by name, "
      "itae=0.3,tv=4.2")("g", po::value(&g_text),
                         "the measured constraint signals g1,g2,... (safe-opt with "
                         "constraint_thresholds)")(
      "trial", po::value(&trial),
      "the trial number suggest gave (suggest --print-trial, gpbandit pending): releases that "
      "suggestion's pending point whatever --x is (e.g. rounded)")(
      "clear-pending", po::bool_switch(&clear_pending),
      "forget suggestions that were never observed (e.g. abandoned), every worker's");
  po::variables_map vm;
  if (!ParseArguments("observe",
                      "(--log runs.jsonl | --storage URL [--study NAME]) (--x 0.3,4.2 | --x "
                      "'kp=3.2 taps=7 mode=pid') (--y 1.7 | --y itae=0.3,tv=4.2) "
                      "[--trial N] [--fidelity sim] [--context z] [options]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  NoteDeclarationFlags(vm, &f.declaration);
  std::unique_ptr<Optimizer> optimizer = OpenOptimizer(f, vm);
  const Eigen::VectorXd x = ParsePoint(optimizer->domain(), "x", x_texts);
  const Eigen::VectorXd g = g_text.empty() ? Eigen::VectorXd() : ParseDoubleList("g", g_text);
  // Every check before the first write: a refused observation leaves the study as it was.
  const Eigen::VectorXd values = ParseOutcomeFlag(*optimizer, "--y", y_text);
  RequireTellableOutcomes(*optimizer, values, "--y");
  const bool outcomes = DeclaresOutcomes(*optimizer);
  if (outcomes && g.size() > 0)
    throw UsageError(
        "--g tells safe-opt's measured signals; this study's constraints are "
        "outcomes, told in --y (" +
        DescribeOutcomes(optimizer->options().outcomes, optimizer->options().sense) + ")");
  long answered = -1;
  if (vm.count("trial")) {
    RequirePendingTrial(*optimizer, trial, DescribeStudy(f.study));
    answered = trial;
  } else {
    // The suggestion as suggest printed it (a bound snapped) answers its pending point.
    answered =
        FindPendingPrintedAs(optimizer->pending_points(), optimizer->domain(), x, ContextArg(f));
  }
  const int fidelity = ToldFidelity(*optimizer, f, answered, x);
  if (fidelity >= 0 && g.size() > 0)
    throw UsageError("--g tells safe-opt's measured signals; a study of fidelities has none");
  if (outcomes) {
    if (answered >= 0) {
      optimizer->TellTrialOutcomes(answered, x, ContextArg(f), values);
    } else {
      optimizer->TellOutcomes(x, ContextArg(f), values);
    }
  } else if (fidelity >= 0 && answered >= 0) {
    optimizer->TellTrialFidelity(answered, x, ContextArg(f), values(0), fidelity);
  } else if (fidelity >= 0) {
    optimizer->TellFidelity(x, ContextArg(f), values(0), fidelity);
  } else if (answered >= 0) {
    optimizer->TellTrial(answered, x, ContextArg(f), values(0), g);
  } else {
    optimizer->Tell(x, ContextArg(f), values(0), g);
  }
  if (clear_pending) optimizer->ClearPending();
  streams.err << "[observe] recorded "
              << (outcomes ? OutcomeText(optimizer->options().outcomes, values)
                           : "y = " + FormatDouble(values(0)))
              << (fidelity >= 0
                      ? " at fidelity " + optimizer->options().fidelities.levels[fidelity].name
                      : std::string())
              << "; " << optimizer->num_accepted() << " observations in " << DescribeStudy(f.study)
              << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
