// The parameters of a strategy: one JSON object, such as {"beta_scale": 0.2, "delta": 0.05}.
//
// This is how options travel between a strategy and the code that builds it by name: the
// registry (optimizer/strategy_registry.h) passes the parameters to the strategy's factory, a
// strategy returns its options as such an object (Strategy::OptionsJson), and the Optimizer
// logs them so that Resume can rebuild the strategy. Built-in strategies read them into their
// options struct (GpUcbOptions, ...; each header lists its keys); a user strategy reads numbers
// directly:
//   [](const gpbandit::StrategyParams& p) { return std::make_unique<MyUcb>(p.at("kappa")); }
//
// Values are JSON values (numbers, strings, booleans, nested objects); doubles keep every bit
// through json() and back. Immutable: the With... functions return modified copies. Copies are
// cheap (the parsed object is shared) and safe to use from several threads.
#ifndef GPBANDIT_ACQUISITION_STRATEGY_PARAMS_H_
#define GPBANDIT_ACQUISITION_STRATEGY_PARAMS_H_

#include <memory>
#include <string>
#include <vector>

namespace gpbandit {

namespace internal {
struct StrategyParamsAccess;
}  // namespace internal

class StrategyParams {
 public:
  // {}: no parameters, every option at its default.
  StrategyParams();
  // Parses a JSON object. Throws std::invalid_argument if the text is not JSON or not an object.
  explicit StrategyParams(const std::string& json_object);

  // The object as compact JSON text, keys sorted: {"beta_scale":0.2,"delta":0.05}.
  std::string json() const;
  bool empty() const;
  bool contains(const std::string& key) const;
  // The keys, sorted.
  std::vector<std::string> keys() const;

  // The number at key. Throws std::invalid_argument naming the key if it is absent or not a
  // number.
  double at(const std::string& key) const;
  // The number at key, or `fallback` if key is absent. Throws std::invalid_argument naming the
  // key if it is present but not a number.
  double value(const std::string& key, double fallback) const;

  // A copy with key set to a number. Throws std::invalid_argument for a non-finite value (JSON
  // has no infinity or NaN).
  StrategyParams With(const std::string& key, double value) const;
  StrategyParams With(const std::string& key, int value) const;
  // A copy with key set from command-line text: JSON (a number, true, false or a "quoted"
  // string) when it parses as one, otherwise the text as a string, so that beta_schedule=rkhs
  // needs no quotes.
  StrategyParams WithText(const std::string& key, const std::string& value_text) const;
  // A copy with every key of `overrides` set to its value there.
  StrategyParams MergedWith(const StrategyParams& overrides) const;
  // A copy with only the keys that are also keys of `reference` (e.g. the flags common to
  // several strategies, kept where a strategy's default options have them).
  StrategyParams Intersection(const StrategyParams& reference) const;

  // Same keys with equal values.
  bool operator==(const StrategyParams& other) const;
  bool operator!=(const StrategyParams& other) const { return !(*this == other); }

 private:
  struct Impl;
  friend struct internal::StrategyParamsAccess;
  explicit StrategyParams(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_STRATEGY_PARAMS_H_
