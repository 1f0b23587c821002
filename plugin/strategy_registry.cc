#include "gpbandit/plugin/strategy_registry.h"

#include <cmath>
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
#include "gpbandit/acquisition/variance_only.h"

namespace gpbandit {
namespace {

GammaOptions ToGamma(const StrategyOptions& o) {
  GammaOptions g;
  g.source = o.gamma_source;
  g.dim = o.gamma_dim;
  g.nu = o.gamma_nu;
  g.scale = o.gamma_scale;
  return g;
}

GpUcbOptions ToGpUcb(const StrategyOptions& o) {
  GpUcbOptions u;
  u.beta.kind = o.beta_schedule;
  u.beta.delta = o.delta;
  u.beta.a = o.a;
  u.beta.b = o.b;
  u.beta.r = o.r;
  u.beta.rkhs_bound = o.rkhs_bound;
  u.beta.constant_beta = o.constant_beta;
  u.beta.scale = o.beta_scale;
  u.gamma = ToGamma(o);
  return u;
}

IgpUcbOptions ToIgpUcb(const StrategyOptions& o) {
  IgpUcbOptions u;
  u.rkhs_bound = o.rkhs_bound;
  u.noise_bound = o.noise_bound;
  u.delta = o.delta;
  u.gamma = ToGamma(o);
  return u;
}

GpTsOptions ToGpTs(const StrategyOptions& o) {
  GpTsOptions u;
  u.rkhs_bound = o.rkhs_bound;
  u.noise_bound = o.noise_bound;
  u.delta = o.delta;
  u.gamma = ToGamma(o);
  u.fixed_scale = o.ts_fixed_scale;
  u.num_features = o.ts_num_features;
  return u;
}

ImprovementOptions ToImprovement(const StrategyOptions& o) {
  ImprovementOptions u;
  u.xi = o.xi;
  return u;
}

// The built-in strategies: the one explicit table (a new strategy adds one line here).
const std::pair<const char*, StrategyRegistry::Factory> kBuiltIns[] = {
    {"gp-ucb", [](const StrategyOptions& o) -> std::unique_ptr<Strategy> {
       return std::make_unique<GpUcb>(ToGpUcb(o));
     }},
    {"cgp-ucb", [](const StrategyOptions& o) -> std::unique_ptr<Strategy> {
       return std::make_unique<CgpUcb>(ToGpUcb(o));
     }},
    {"igp-ucb", [](const StrategyOptions& o) -> std::unique_ptr<Strategy> {
       return std::make_unique<IgpUcb>(ToIgpUcb(o));
     }},
    {"gp-ts", [](const StrategyOptions& o) -> std::unique_ptr<Strategy> {
       return std::make_unique<GpTs>(ToGpTs(o));
     }},
    {"ei", [](const StrategyOptions& o) -> std::unique_ptr<Strategy> {
       return std::make_unique<ExpectedImprovement>(ToImprovement(o));
     }},
    {"log-ei", [](const StrategyOptions& o) -> std::unique_ptr<Strategy> {
       return std::make_unique<LogExpectedImprovement>(ToImprovement(o));
     }},
    {"pi", [](const StrategyOptions& o) -> std::unique_ptr<Strategy> {
       return std::make_unique<ProbabilityOfImprovement>(ToImprovement(o));
     }},
    {"mean", [](const StrategyOptions&) -> std::unique_ptr<Strategy> {
       return std::make_unique<MeanOnly>();
     }},
    {"variance", [](const StrategyOptions&) -> std::unique_ptr<Strategy> {
       return std::make_unique<VarianceOnly>();
     }},
};

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

bool StrategyOptions::IsValid(std::string* error) const {
  // The per-strategy option structs own the range rules; reuse them so they live in one place.
  if (!ToGpUcb(*this).IsValid(error)) return false;
  if (!ToIgpUcb(*this).IsValid(error)) return false;
  if (!ToGpTs(*this).IsValid(error)) return false;
  if (!ToImprovement(*this).IsValid(error)) return false;
  if (horizon < 0) {
    if (error != nullptr) *error = "horizon = " + std::to_string(horizon) + ": must be >= 0";
    return false;
  }
  for (const auto& [key, value] : extra) {
    if (!std::isfinite(value)) {
      if (error != nullptr) *error = "extra[" + key + "] = " + std::to_string(value) + ": must be finite";
      return false;
    }
  }
  return true;
}

StrategyRegistry& StrategyRegistry::Default() {
  // A function-local static: initialized once, thread-safely, on first use.
  static StrategyRegistry* registry = [] {
    auto* r = new StrategyRegistry();
    for (const auto& [name, factory] : kBuiltIns) r->Register(name, factory);
    return r;
  }();
  return *registry;
}

void StrategyRegistry::Register(const std::string& name, Factory factory) {
  if (name.empty()) throw std::invalid_argument("name: empty strategy name");
  if (!factory) throw std::invalid_argument("factory: empty factory for strategy '" + name + "'");
  std::lock_guard<std::mutex> lock(mutex_);
  if (factories_.count(name) > 0)
    throw std::invalid_argument("name = '" + name + "': a strategy of this name is already registered");
  factories_.emplace(name, std::move(factory));
}

std::unique_ptr<Strategy> StrategyRegistry::Create(const std::string& name,
                                                   const StrategyOptions& options) const {
  Factory factory;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = factories_.find(name);
    if (it == factories_.end()) {
      std::vector<std::string> names;
      for (const auto& entry : factories_) names.push_back(entry.first);
      throw std::invalid_argument("strategy = '" + name + "': unknown; registered: " +
                                  JoinNames(names));
    }
    factory = it->second;
  }
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("StrategyOptions: " + error);
  std::unique_ptr<Strategy> strategy = factory(options);
  if (strategy == nullptr)
    throw std::invalid_argument("strategy = '" + name + "': its factory returned nullptr");
  return strategy;
}

std::vector<std::string> StrategyRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : factories_) names.push_back(entry.first);
  return names;  // std::map keeps them sorted
}

bool StrategyRegistry::Contains(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return factories_.count(name) > 0;
}

}  // namespace gpbandit
