// Strategy variants of the optimization studies: a method label that runs a registered strategy
// with options, given on the command line as --variants 'LABEL=STRATEGY:{json};...'. The JSON
// holds the strategy's options (keys in its header), and optionally "initial_design_size",
// which sets OptimizerOptions::initial_design_size instead, or "initial_design_per_dim" a,
// which sets it to ceil(a (d + 1)) on a d-dimensional problem.
#ifndef GPBANDIT_BENCH_VARIANTS_H_
#define GPBANDIT_BENCH_VARIANTS_H_

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {
namespace bench {

struct Variant {
  std::string strategy;
  StrategyParams params;
  int initial_design_size = -1;
  double initial_design_per_dim = 0.0;  // > 0: overrides initial_design_size

  // OptimizerOptions::initial_design_size on a problem with `dim` action coordinates.
  int InitialDesignSize(int dim) const {
    return initial_design_per_dim > 0.0
               ? static_cast<int>(std::ceil(initial_design_per_dim * (dim + 1)))
               : initial_design_size;
  }
};
using Variants = std::map<std::string, Variant>;

// "LABEL=STRATEGY:{json};..." -> the variants. Throws std::invalid_argument for an item of
// another form, an unknown strategy or JSON that is not an object.
inline Variants ParseVariants(const std::string& text) {
  Variants variants;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ';');) {
    if (item.empty()) continue;
    const std::size_t eq = item.find('='), colon = item.find(':');
    if (eq == std::string::npos || colon == std::string::npos || colon < eq)
      throw std::invalid_argument("--variants: '" + item + "' is not LABEL=STRATEGY:{json}");
    Variant v;
    v.strategy = item.substr(eq + 1, colon - eq - 1);
    if (!StrategyRegistry::Default().Contains(v.strategy))
      throw std::invalid_argument("--variants: unknown strategy '" + v.strategy + "'");
    nlohmann::json options = nlohmann::json::parse(item.substr(colon + 1));
    if (!options.is_object())
      throw std::invalid_argument("--variants: '" + item + "': the options must be an object");
    if (options.contains("initial_design_size")) {
      v.initial_design_size = options.at("initial_design_size").get<int>();
      options.erase("initial_design_size");
    }
    if (options.contains("initial_design_per_dim")) {
      v.initial_design_per_dim = options.at("initial_design_per_dim").get<double>();
      options.erase("initial_design_per_dim");
    }
    v.params = StrategyParams(options.dump());
    variants[item.substr(0, eq)] = v;
  }
  return variants;
}

// The strategy, its options and the optimizer options of `method`: a variant's, or the
// registered strategy `method` with its defaults. options.initial_design_size is set by a
// variant that gives it.
inline Variant ResolveMethod(const std::string& method, const Variants& variants) {
  const auto it = variants.find(method);
  if (it != variants.end()) return it->second;
  Variant plain;
  plain.strategy = method;
  return plain;
}

inline bool IsGpbanditMethod(const std::string& method, const Variants& variants) {
  return variants.count(method) > 0 || StrategyRegistry::Default().Contains(method);
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_VARIANTS_H_
