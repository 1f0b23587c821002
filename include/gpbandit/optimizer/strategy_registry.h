// The strategy registry: strategies by name, each built from its parameters (a JSON object,
// acquisition/strategy_params.h) by a factory.
//
// An entry is a name, a factory, the strategy's default options and a one-line description.
// Default() is pre-filled from the explicit table in strategy_registry.cc (gp-ucb, cgp-ucb,
// igp-ucb, gp-ts, ei, log-ei, pi, mean, variance), one line per strategy; there is no static
// self-registration (fragile in static libraries). User code adds strategies at run time:
//
//   gpbandit::StrategyRegistry::Default().Register(
//       "my-ucb", [](const gpbandit::StrategyParams& p) {
//         return std::make_unique<MyUcb>(p.at("kappa"));
//       },
//       gpbandit::StrategyParams(R"({"kappa": 2.0})"), "UCB with a fixed kappa");
//
// Create(name, options) passes the factory the default options with `options` over them, so a
// factory sees every key of its defaults. Built-in factories reject unknown keys and values of
// the wrong type (naming them), and invalid values (the options' IsValid).
//
// Thread-safety: every member function locks a mutex; factories are called outside the lock,
// so a factory may itself use the registry.
#ifndef GPBANDIT_OPTIMIZER_STRATEGY_REGISTRY_H_
#define GPBANDIT_OPTIMIZER_STRATEGY_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {

class StrategyRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Strategy>(const StrategyParams&)>;

  // An empty registry (Default() is the pre-filled one).
  StrategyRegistry() = default;
  StrategyRegistry(const StrategyRegistry&) = delete;
  StrategyRegistry& operator=(const StrategyRegistry&) = delete;

  // The process-wide registry with the built-in strategies.
  static StrategyRegistry& Default();

  // Adds a strategy. default_options: the parameters Create starts from (a built-in's are every
  // field of its options struct at its default). Throws std::invalid_argument for an empty name,
  // an empty factory, or a name already registered (the registry is then unchanged).
  void Register(const std::string& name, Factory factory,
                const StrategyParams& default_options = StrategyParams(),
                const std::string& description = "");

  // Registers a strategy like Register, replacing the entry of that name if there is one (a
  // notebook cell that registers a strategy, run again). Optimizers built before keep the
  // strategy they were built with; later ones, and Resume, use the new entry. Throws
  // std::invalid_argument for an empty name or an empty factory (the registry is then
  // unchanged).
  void Replace(const std::string& name, Factory factory,
               const StrategyParams& default_options = StrategyParams(),
               const std::string& description = "");

  // Builds a strategy from its default options with `options` over them. Throws
  // std::invalid_argument for an unknown name (the message lists the registered names), options
  // the factory rejects, or a factory returning nullptr.
  std::unique_ptr<Strategy> Create(const std::string& name,
                                   const StrategyParams& options = StrategyParams()) const;
  // What Create passes to the factory: the default options with `options` over them. Throws
  // std::invalid_argument for an unknown name.
  StrategyParams ResolveOptions(const std::string& name,
                                const StrategyParams& options = StrategyParams()) const;

  // The default options and the one-line description of a registered strategy. Throw
  // std::invalid_argument for an unknown name.
  StrategyParams DefaultOptions(const std::string& name) const;
  std::string Description(const std::string& name) const;

  // Registered names, sorted.
  std::vector<std::string> Names() const;
  bool Contains(const std::string& name) const;

 private:
  struct Entry {
    Factory factory;
    StrategyParams default_options;
    std::string description;
  };
  // A copy of the entry of `name`; throws std::invalid_argument for an unknown name.
  Entry Find(const std::string& name) const;

  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_STRATEGY_REGISTRY_H_
