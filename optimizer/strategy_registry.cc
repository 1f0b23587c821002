#include "gpbandit/optimizer/strategy_registry.h"

#include <stdexcept>
#include <utility>

#include "gpbandit/acquisition/cgp_ucb.h"
#include "gpbandit/acquisition/expected_improvement.h"
#include "gpbandit/acquisition/gp_ts.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/igp_ucb.h"
#include "gpbandit/acquisition/log_expected_improvement.h"
#include "gpbandit/acquisition/mean_only.h"
#include "gpbandit/acquisition/probability_of_improvement.h"
#include "gpbandit/acquisition/r_gp_ucb.h"
#include "gpbandit/acquisition/tv_gp_ucb.h"
#include "gpbandit/acquisition/variance_only.h"
#include "gpbandit/safe/safe_opt.h"

namespace gpbandit {
namespace {

struct BuiltIn {
  const char* name;
  std::unique_ptr<Strategy> (*factory)(const StrategyParams&);
  const char* description;
  // The default options' JSON when the factory refuses empty parameters (a required option);
  // nullptr: what the factory builds from no parameters.
  std::string (*default_options)() = nullptr;
};

// The built-in strategies: the one explicit table (a new strategy adds one line here). Their
// default options are what each factory builds from no parameters.
const BuiltIn kBuiltIns[] = {
    {"gp-ucb", GpUcb::Create, "GP-UCB (Srinivas et al. 2010): mu + sqrt(beta_t) sigma"},
    {"cgp-ucb", CgpUcb::Create, "contextual GP-UCB (Krause & Ong 2011) at this round's context"},
    {"igp-ucb", IgpUcb::Create, "IGP-UCB (Chowdhury & Gopalan 2017): mu + beta_t sigma"},
    {"gp-ts", GpTs::Create,
     "GP Thompson sampling (Chowdhury & Gopalan 2017), scale v_t; on boxes only with kernels "
     "that have random features (every kernel gpbandit ships)"},
    {"ei", ExpectedImprovement::Create, "expected improvement over the incumbent + xi"},
    {"log-ei", LogExpectedImprovement::Create,
     "LogEI (Ament et al. 2023): log of expected improvement, stable far below the incumbent"},
    {"ehvi", LogExpectedHypervolumeImprovement::Create,
     "log expected hypervolume improvement (Emmerich et al. 2006, Ament et al. 2023) for several "
     "objectives, times the probability of feasibility under constraints; log EI for one"},
    {"pi", ProbabilityOfImprovement::Create, "probability of improvement over the incumbent + xi"},
    {"mean", MeanOnly::Create, "pure exploitation: the posterior mean"},
    {"variance", VarianceOnly::Create, "pure exploration: the posterior variance"},
    {"tv-gp-ucb", TvGpUcb::Create,
     "TV-GP-UCB (Bogunovic et al. 2016): GP-UCB on a model that forgets, (1-eps)^{|t-t'|/2}"},
    {"r-gp-ucb", RGpUcb::Create,
     "R-GP-UCB (Bogunovic et al. 2016): GP-UCB restarted where its residuals say the model is "
     "stale, or every N rounds"},
    {"safe-opt", SafeOpt::Create,
     "SafeOpt(-MC) (Sui et al. 2015, Berkenkamp et al. 2016): only points whose lower bounds "
     "clear the thresholds; needs threshold and seeds",
     SafeOpt::DefaultOptionsJson},
};

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void CheckEntry(const std::string& name, const StrategyRegistry::Factory& factory) {
  if (name.empty()) throw std::invalid_argument("name: empty strategy name");
  if (!factory) throw std::invalid_argument("factory: empty factory for strategy '" + name + "'");
}

}  // namespace

StrategyRegistry& StrategyRegistry::Default() {
  // A function-local static: initialized once, thread-safely, on first use.
  static StrategyRegistry* registry = [] {
    auto* r = new StrategyRegistry();
    for (const BuiltIn& b : kBuiltIns) {
      const StrategyParams defaults(b.default_options != nullptr
                                        ? b.default_options()
                                        : b.factory(StrategyParams())->OptionsJson());
      r->Register(b.name, b.factory, defaults, b.description);
    }
    return r;
  }();
  return *registry;
}

void StrategyRegistry::Register(const std::string& name, Factory factory,
                                const StrategyParams& default_options,
                                const std::string& description) {
  CheckEntry(name, factory);
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.count(name) > 0)
    throw std::invalid_argument("name = '" + name +
                                "': a strategy of this name is already registered");
  entries_.emplace(name, Entry{std::move(factory), default_options, description});
}

void StrategyRegistry::Replace(const std::string& name, Factory factory,
                               const StrategyParams& default_options,
                               const std::string& description) {
  CheckEntry(name, factory);
  std::lock_guard<std::mutex> lock(mutex_);
  entries_[name] = Entry{std::move(factory), default_options, description};
}

StrategyRegistry::Entry StrategyRegistry::Find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::vector<std::string> names;
    for (const auto& entry : entries_) names.push_back(entry.first);
    throw std::invalid_argument("strategy = '" + name +
                                "': unknown; registered: " + JoinNames(names));
  }
  return it->second;
}

std::unique_ptr<Strategy> StrategyRegistry::Create(const std::string& name,
                                                   const StrategyParams& options) const {
  const Entry entry = Find(name);
  std::unique_ptr<Strategy> strategy = entry.factory(entry.default_options.MergedWith(options));
  if (strategy == nullptr)
    throw std::invalid_argument("strategy = '" + name + "': its factory returned nullptr");
  return strategy;
}

StrategyParams StrategyRegistry::ResolveOptions(const std::string& name,
                                                const StrategyParams& options) const {
  return Find(name).default_options.MergedWith(options);
}

StrategyParams StrategyRegistry::DefaultOptions(const std::string& name) const {
  return Find(name).default_options;
}

std::string StrategyRegistry::Description(const std::string& name) const {
  return Find(name).description;
}

std::vector<std::string> StrategyRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : entries_) names.push_back(entry.first);
  return names;  // std::map keeps them sorted
}

bool StrategyRegistry::Contains(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.count(name) > 0;
}

}  // namespace gpbandit
