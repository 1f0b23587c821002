// gpbandit study create | list | show | export | import: studies in a storage (a file, a
// directory of studies, or a PostgreSQL database; storage/study_storage.h). export writes a
// study as JSON-Lines exactly as the file backend stores it, and import reads such a file, so a
// study moves between a file and a database byte for byte.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
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
#include "gpbandit/storage/file_storage.h"
#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/observation_log.h"

namespace gpbandit {
namespace cli {
namespace {

using nlohmann::json;

// The storage of a study, for export and import (no optimizer needed). Failing to reach it is a
// usage error.
std::unique_ptr<StudyStorage> StorageOf(const StudyFlags& f) {
  CheckStudyFlags(f, /*with_log=*/false);
  try {
    return OpenStudyStorage(f.storage, f.study);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
}

struct CreateFlags {
  StudyFlags study;
  SpaceFlags space;
  OutcomeFlags outcome;
  DeclarationFlags declaration;
  FidelityFlags fidelity;
  std::string bounds, strategy = "gp-ucb", context_bounds;
  std::vector<std::string> options;
  std::uint64_t seed = kDefaultSeed;
  int context_dim = 0;
};

Domain DomainFromFlags(const CreateFlags& f) {
  const std::optional<ParameterSpace> space = SpaceFromFlags(f.space, f.bounds);
  if (f.bounds.empty() && !space)
    throw UsageError("--bounds is required, or --param / --space for named parameters");
  Eigen::VectorXd lower, upper;
  if (!space) ParseBounds("bounds", f.bounds, &lower, &upper);
  Domain domain = space ? Domain::Space(*space) : Domain::Box(lower, upper);
  Eigen::VectorXd zl, zu;
  if (!f.context_bounds.empty()) ParseBounds("context-bounds", f.context_bounds, &zl, &zu);
  RequireAtLeast("--context-dim", f.context_dim, 0);
  if (f.context_dim > 0 && zl.size() > 0 && zl.size() != f.context_dim)
    throw UsageError("--context-bounds gives " + std::to_string(zl.size()) +
                     (zl.size() == 1 ? " range" : " ranges") + " but --context-dim is " +
                     std::to_string(f.context_dim));
  const int m = f.context_dim > 0 ? f.context_dim : static_cast<int>(zl.size());
  if (m > 0) domain = domain.WithContext(m, zl, zu);
  return domain;
}

int Create(const std::vector<std::string>& args, Streams streams) {
  CreateFlags f;
  po::options_description desc("options (defaults in parentheses)");
  AddStudyFlags(&desc, &f.study, /*with_log=*/false, /*with_worker=*/false);
  desc.add_options()("bounds", po::value(&f.bounds), "action box lower:upper,...");
  AddSpaceFlags(&desc, &f.space, "the study remembers them");
  desc.add_options()("strategy", ValueWithDefault(&f.strategy), "registry name")(
      "option", po::value(&f.options),
      "[strategy:]key=value, a strategy option, repeatable (gpbandit strategies lists them)")(
      "seed", ValueWithDefault(&f.seed), "seed")(
      "context-dim", ValueWithDefault(&f.context_dim),
      "number of context coordinates (contextual studies)")(
      "context-bounds", po::value(&f.context_bounds), "context box lower:upper,... (optional)");
  // Workers run commands that may crash: a crash is recorded as failed by default (under throw a
  // worker releases the point instead).
  AddOutcomeFlags(&desc, &f.outcome, "the study remembers it", NonFiniteRewardPolicy::kSkip);
  AddDeclarationFlags(&desc, &f.declaration, "the study remembers them");
  AddFidelityFlags(&desc, &f.fidelity, "the study remembers them", BareFidelity::kNone);
  po::variables_map vm;
  if (!ParseArguments("study create",
                      "--storage URL [--study NAME] (--bounds 0:1,0:10 | --param "
                      "kp=log:0.1:100 ... | --space space.json) [options]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  NoteDeclarationFlags(vm, &f.declaration);
  CheckStudyFlags(f.study, false);
  RequireRegisteredStrategy("--strategy", f.strategy);
  const StrategyParams strategy_options =
      ParseStrategyOptions(f.options, {f.strategy}).For(f.strategy, {f.strategy});
  RequireValidStrategyOptions(f.strategy, strategy_options);
  CheckStudyAccess(f.study, /*writes=*/true);
  OptimizerOptions options;
  options.seed = f.seed;
  options.sense = SenseOf(f.outcome, ObjectiveSense::kMaximize);
  options.non_finite_rewards = FailuresOf(f.outcome, NonFiniteRewardPolicy::kSkip);
  options.outcomes = OutcomesFromFlags(f.declaration, f.outcome);
  if (!options.outcomes.objectives.empty())
    options.sense = options.outcomes.objectives[0].minimize ? ObjectiveSense::kMinimize
                                                            : ObjectiveSense::kMaximize;
  if (!ToldFidelityName(f.fidelity).empty())
    throw UsageError("--fidelity " + ToldFidelityName(f.fidelity) +
                     ": a study declares its fidelities as NAME:COST (--fidelity sim:1 "
                     "--fidelity robot:20)");
  options.fidelities = FidelitiesFromFlags(f.fidelity);
  const Domain domain = DomainFromFlags(f);
  AddSourcesFromFlags(f.fidelity, domain, &options);
  std::unique_ptr<Optimizer> optimizer;
  try {
    std::unique_ptr<StudyStorage> storage = OpenStudyStorage(f.study.storage, f.study.study);
    // Sources are copied into the study when its optimizer is made, which creates the study:
    // an existing one is refused before, so that nothing is added to it.
    const bool sources = options.fidelities.num_sources() > 0;
    if (sources && !storage->Begin(LockMode::kShared)->header().empty())
      throw InputError(DescribeStudy(f.study) + " exists already");
    optimizer = std::make_unique<Optimizer>(domain, nullptr, f.strategy, strategy_options, options,
                                            std::move(storage));
    if (optimizer->CreateStudy() || sources) {
      streams.err << "[study] created " << DescribeStudy(f.study) << "\n";
      return kExitOk;
    }
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  throw InputError(DescribeStudy(f.study) + " exists already");
}

int List(const std::vector<std::string>& args, Streams streams) {
  StudyFlags f;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, false, false);
  po::variables_map vm;
  if (!ParseArguments("study list", "--storage URL", args, desc, &vm, streams.out)) return kExitOk;
  if (f.storage.empty()) throw UsageError("--storage is required");
  CheckStudyAccess(f, /*writes=*/false);
  if (IsLocalStorage(f.storage) && access(FilePathOf(f.storage).c_str(), F_OK) != 0)
    throw InputError("--storage " + f.storage + ": no such file or directory");
  std::vector<StudySummary> studies;
  try {
    studies = ListStudies(f.storage);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  streams.out << "study\trecords\n";
  for (const StudySummary& s : studies)
    streams.out << (s.name.empty() ? f.storage : s.name) << "\t" << s.records << "\n";
  return kExitOk;
}

// The declared outcomes, as in the study's header.
json OutcomesJson(const Optimizer& optimizer) {
  const OutcomeOptions& o = optimizer.options().outcomes;
  json objectives = json::array(), constraints = json::array();
  for (const ObjectiveSpec& s : o.objectives)
    objectives.push_back({{"name", s.name}, {"sense", s.minimize ? "minimize" : "maximize"}});
  for (const ConstraintSpec& c : o.constraints)
    constraints.push_back(
        {{"name", c.name}, {"sense", ConstraintSenseSymbol(c.sense)}, {"bound", c.bound}});
  return {{"objectives", objectives},
          {"constraints", constraints},
          {"reference_point", o.reference_point},
          {"feasibility_confidence", o.feasibility_confidence},
          {"scalarization", ScalarizationRuleName(o.scalarization)}};
}

// The declared fidelities, their model and rule, and what every fidelity's tells cost so far.
json FidelitiesJson(const Optimizer& optimizer) {
  const FidelityOptions& o = optimizer.options().fidelities;
  std::vector<long> told(o.levels.size(), 0);
  for (const Observation& obs : optimizer.observations())
    if (obs.fidelity >= 0 && obs.fidelity < o.num_fidelities()) ++told[obs.fidelity];
  json levels = json::array();
  for (std::size_t i = 0; i < o.levels.size(); ++i)
    levels.push_back({{"name", o.levels[i].name}, {"cost", o.levels[i].cost}, {"told", told[i]}});
  return {{"levels", levels},
          {"target", o.levels.back().name},
          {"model", FidelityModelName(o.model)},
          {"rule", FidelityRuleName(o.rule)},
          {"min_correlation", o.min_correlation}};
}

json SummaryJson(const Optimizer& optimizer, double now) {
  const std::vector<PendingPoint> pending = optimizer.pending_points();
  int expired = 0;
  for (const PendingPoint& p : pending) expired += p.lease_until <= now;
  const Domain& d = optimizer.domain();
  json j = {{"domain", d.Describe()},
            {"strategy", optimizer.strategy_name()},
            {"strategy_options", json::parse(optimizer.strategy_options().json())},
            {"seed", optimizer.options().seed},
            {"sense", ObjectiveSenseName(optimizer.options().sense)},
            {"failures", FailuresName(optimizer.options().non_finite_rewards)},
            {"told", optimizer.observations().size()},
            {"accepted", optimizer.num_accepted()},
            {"failed", optimizer.num_failed()},
            {"pending", pending.size()},
            {"pending_expired", expired},
            {"rounds", optimizer.rounds()}};
  const OutcomeOptions& outcomes = optimizer.options().outcomes;
  if (DeclaresOutcomes(optimizer)) j["outcomes"] = OutcomesJson(optimizer);
  if (optimizer.options().fidelities.active()) {
    j["fidelities"] = FidelitiesJson(optimizer);
    j["cost_spent"] = optimizer.CostSpent();
  }
  if (optimizer.num_accepted() == 0) return j;
  if (outcomes.num_objectives() > 1) {
    // Several objectives have no single best point: the front's size and hypervolume.
    const Eigen::VectorXd reference = optimizer.ReferencePoint();
    j["pareto_front"] = {
        {"points", optimizer.ParetoFront().size()},
        {"hypervolume", optimizer.Hypervolume()},
        {"reference_point",
         std::vector<double>(reference.data(), reference.data() + reference.size())},
        {"reference_point_given", !outcomes.reference_point.empty()}};
    return j;
  }
  try {
    // In the study's own units: the value told there, a cost under --sense minimize.
    const Recommendation best = optimizer.Best();
    const bool costs = optimizer.options().sense == ObjectiveSense::kMinimize;
    j["best"] = {{"x", SuggestionText(d, best.x)},
                 {"z", FormatVector(best.z)},
                 {"posterior_mean", best.posterior_mean},
                 {costs ? "observed_cost" : "observed_reward", best.observed_reward}};
  } catch (const std::logic_error& e) {
    // A constrained study before any point is feasible with the study's confidence.
    j["best"] = nullptr;
    j["best_missing"] = e.what();
  }
  return j;
}

int Show(const std::vector<std::string>& args, Streams streams) {
  StudyFlags f;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, false, false);
  po::variables_map vm;
  if (!ParseArguments("study show", "--storage URL [--study NAME]", args, desc, &vm, streams.out))
    return kExitOk;
  CheckStudyFlags(f, false);
  CheckStudyAccess(f, /*writes=*/false);
  const std::unique_ptr<Optimizer> optimizer = OpenExistingStudy(f);
  json j = SummaryJson(*optimizer, WallClockSeconds());
  j["study"] = DescribeStudy(f);
  streams.out << j.dump(2) << "\n";
  return kExitOk;
}

int Export(const std::vector<std::string>& args, Streams streams) {
  StudyFlags f;
  std::string out_path;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, false, false);
  desc.add_options()("out", po::value(&out_path), "the JSON-Lines file to write [stdout]");
  po::variables_map vm;
  if (!ParseArguments("study export", "--storage URL [--study NAME] [--out FILE]", args, desc, &vm,
                      streams.out))
    return kExitOk;
  if (!out_path.empty()) RequireWritableFile("--out", out_path);
  CheckStudyAccess(f, /*writes=*/false);
  const std::unique_ptr<StudyStorage> storage = StorageOf(f);
  const std::unique_ptr<StudySession> session = storage->Begin(LockMode::kShared);
  if (session->header().empty()) throw InputError("no study " + DescribeStudy(f));
  std::string text = session->header() + "\n";
  for (const StudyRecord& r : session->ReadAfter(0)) text += r.json + "\n";
  if (out_path.empty()) {
    streams.out << text;
    return kExitOk;
  }
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write '" + out_path + "'");
  streams.err << "[study] exported " << DescribeStudy(f) << " to " << out_path << "\n";
  return kExitOk;
}

int Import(const std::vector<std::string>& args, Streams streams) {
  StudyFlags f;
  std::string in_path;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, false, false);
  desc.add_options()("in", po::value(&in_path)->required(), "the JSON-Lines log to import");
  po::variables_map vm;
  if (!ParseArguments("study import", "--storage URL [--study NAME] --in FILE", args, desc, &vm,
                      streams.out))
    return kExitOk;
  if (access(in_path.c_str(), R_OK) != 0)
    throw InputError("--in " + in_path + ": cannot read it: " + std::strerror(errno));
  CheckStudyAccess(f, /*writes=*/true);
  // The file must resume as a study: header, registered strategy, every record replayable.
  try {
    Optimizer::Resume(in_path);
  } catch (const std::runtime_error& e) {
    throw InputError("cannot import '" + in_path + "': " + e.what());
  }
  const LogContents contents = ReadLog(in_path);
  const std::unique_ptr<StudyStorage> storage = StorageOf(f);
  const std::unique_ptr<StudySession> session = storage->Begin(LockMode::kExclusive);
  if (!session->header().empty()) throw InputError(DescribeStudy(f) + " exists already");
  session->CreateStudy(contents.records.front().json);
  for (std::size_t i = 1; i < contents.records.size(); ++i)
    session->Append(contents.records[i].json);
  session->Commit(Durability::kDurable);
  streams.err << "[study] imported " << contents.records.size() - 1 << " records into "
              << DescribeStudy(f) << "\n";
  return kExitOk;
}

}  // namespace

int StudyCommand(const std::vector<std::string>& args, Streams streams) {
  const std::vector<std::pair<std::string, int (*)(const std::vector<std::string>&, Streams)>>
      subcommands = {{"create", Create},
                     {"list", List},
                     {"show", Show},
                     {"export", Export},
                     {"import", Import}};
  const std::string usage =
      "usage: gpbandit study <create|list|show|export|import> --storage URL [--study NAME] "
      "[options]\n  (gpbandit study <subcommand> --help for its options)\n";
  if (args.empty()) throw UsageError("a subcommand is required\n" + usage);
  if (args[0] == "--help" || args[0] == "-h") {
    streams.out << usage;
    return kExitOk;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& [name, run] : subcommands) {
    if (name == args[0])
      return RunReportingErrors(
          "study " + name, [&, run = run] { return run(rest, streams); }, streams);
  }
  throw UsageError("unknown subcommand '" + args[0] + "'\n" + usage);
}

}  // namespace cli
}  // namespace gpbandit
