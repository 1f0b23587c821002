// gpbandit suggest / observe: the ask/tell Optimizer driven by hand, one call per process, its
// state kept in the Optimizer's own JSON-Lines log (plugin/observation_log.h). The first call
// creates the log from --bounds and --strategy; later calls rebuild the optimizer from the log
// alone (Optimizer::Resume), so the log remembers bounds, strategy and options.
#include <sys/stat.h>

#include <memory>
#include <ostream>

#include "gpbandit/examples/cli/commands.h"
#include "gpbandit/plugin/optimizer.h"

namespace gpbandit {
namespace cli {
namespace {

bool NonEmptyFile(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && info.st_size > 0;
}

struct LogFlags {
  std::string log_path, bounds, strategy = "gp-ucb", context, context_bounds;
  std::vector<std::string> options;
  std::uint64_t seed = OptimizerOptions().seed;
};

void AddLogFlags(po::options_description* desc, LogFlags* f) {
  desc->add_options()
      ("log", po::value(&f->log_path)->required(), "the JSON-Lines log (created on first use)")
      ("bounds", po::value(&f->bounds),
       "action box lower:upper,... (first call; later calls must match or omit it)")
      ("strategy", po::value(&f->strategy)->default_value(f->strategy),
       "registry name (first call; remembered by the log)")
      ("context", po::value(&f->context), "this round's context z1,z2,... (contextual problems)")
      ("context-bounds", po::value(&f->context_bounds),
       "context box lower:upper,... (first call, optional)")
      ("option", po::value(&f->options),
       "key=value: a strategy option, repeatable (first call; remembered by the log; "
       "gpbandit strategies lists each strategy's options and defaults)")
      ("seed", po::value(&f->seed)->default_value(f->seed), "seed (first call)");
}

Eigen::VectorXd ContextArg(const LogFlags& f) {
  return f.context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", f.context);
}

// Resumes the optimizer of an existing log (checking --bounds/--strategy against it), or
// creates a new one and its log.
std::unique_ptr<Optimizer> OpenOptimizer(const LogFlags& f, const po::variables_map& vm) {
  Eigen::VectorXd lower, upper;
  if (!f.bounds.empty()) ParseBounds("bounds", f.bounds, &lower, &upper);
  if (NonEmptyFile(f.log_path)) {
    std::unique_ptr<Optimizer> optimizer;
    try {
      optimizer = Optimizer::Resume(f.log_path);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("cannot resume from the log: ") + e.what());
    }
    const Domain& domain = optimizer->domain();
    if (!f.bounds.empty() && (lower.size() != domain.lower().size() ||
                              lower != domain.lower() || upper != domain.upper()))
      throw UsageError("--bounds " + f.bounds + " differ from the log's bounds " +
                       FormatVector(domain.lower(), " ") + " .. " +
                       FormatVector(domain.upper(), " ") + " (" + f.log_path +
                       "); omit --bounds or use a new log");
    if (!vm["strategy"].defaulted() && f.strategy != optimizer->strategy_name())
      throw UsageError("--strategy " + f.strategy + " differs from the log's strategy " +
                       optimizer->strategy_name() + " (" + f.log_path + ")");
    const StrategyParams& logged = optimizer->strategy_options();
    if (logged.MergedWith(ParseOptionFlags(f.options)) != logged)
      throw UsageError("--option values differ from the log's strategy options " + logged.json() +
                       " (" + f.log_path + "); omit --option or use a new log");
    return optimizer;
  }
  if (f.bounds.empty())
    throw UsageError("--bounds is required on the first call (no log at " + f.log_path + " yet)");
  Domain domain = Domain::Box(lower, upper);
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
  options.log_path = f.log_path;
  // A person types rewards by hand: a typo like "nan" should be refused, not recorded.
  options.non_finite_rewards = NonFiniteRewardPolicy::kThrow;
  return std::make_unique<Optimizer>(domain, nullptr, f.strategy, ParseOptionFlags(f.options),
                                     options);
}

}  // namespace

int SuggestCommand(const std::vector<std::string>& args, Streams streams) {
  LogFlags f;
  po::options_description desc("options (defaults in brackets)");
  AddLogFlags(&desc, &f);
  po::variables_map vm;
  if (!ParseArguments("suggest", "--log runs.jsonl [--bounds 0:1,0:10] [--context z] [options]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  std::unique_ptr<Optimizer> optimizer = OpenOptimizer(f, vm);
  const Eigen::VectorXd x = optimizer->Ask(ContextArg(f));
  streams.out << FormatVector(x) << std::endl;
  streams.err << "[suggest] round " << optimizer->rounds() << ", " << optimizer->num_accepted()
              << " observations, strategy " << optimizer->strategy_name() << "\n";
  return kExitOk;
}

int ObserveCommand(const std::vector<std::string>& args, Streams streams) {
  LogFlags f;
  std::string x_text;
  double y = 0;
  bool clear_pending = false;
  po::options_description desc("options (defaults in brackets)");
  AddLogFlags(&desc, &f);
  desc.add_options()
      ("x", po::value(&x_text)->required(), "the action tried, x1,x2,...")
      ("y", po::value(&y)->required(), "the reward observed (higher is better)")
      ("clear-pending", po::bool_switch(&clear_pending),
       "forget suggestions that were never observed (e.g. abandoned)");
  po::variables_map vm;
  if (!ParseArguments("observe", "--log runs.jsonl --x 0.3,4.2 --y 1.7 [--context z] [options]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  const Eigen::VectorXd x = ParseDoubleList("x", x_text);
  std::unique_ptr<Optimizer> optimizer = OpenOptimizer(f, vm);
  optimizer->Tell(x, ContextArg(f), y);
  if (clear_pending) optimizer->ClearPending();
  streams.err << "[observe] recorded y = " << y << "; " << optimizer->num_accepted()
              << " observations in " << f.log_path << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
