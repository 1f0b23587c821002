#include "study/options_json_legacy.h"

#include <limits>
#include <string>

namespace gpbandit {
namespace internal {
namespace {

using nlohmann::json;

constexpr int kAll = std::numeric_limits<int>::max();  // "every observation", "every fit"
constexpr LegacyScope kOptimizer = LegacyScope::kOptimizer;
constexpr LegacyScope kStrategy = LegacyScope::kStrategy;
constexpr LegacyScope kSignalModels = LegacyScope::kSafeOptSignalModels;

// The fields added after version 9 was written, and the behaviour before them, are the rows
// with absent_through 9; docs/log_format.md says what each kept.
std::vector<LegacyValue> MakeTable() {
  return {
      // Logged during version 1: every fit restarted, the best 3 observed points started the
      // maximizer, at the box maximizer's own tolerance, and the fit's start ranges were those
      // of fit.h then (no version-1 kernel had a period).
      {1, kOptimizer, "", "/fit_restarts_until", kAll},
      {1, kOptimizer, "", "/maximizer_observed_starts", 3},
      {1, kOptimizer, "", "/maximizer_function_tolerance", 1e-10},
      {1, kOptimizer, "", "/fit/start_min_lengthscale", 0.03},
      {1, kOptimizer, "", "/fit/start_max_lengthscale", 3.0},
      {1, kOptimizer, "", "/fit/start_min_signal_variance", 0.1},
      {1, kOptimizer, "", "/fit/start_max_signal_variance", 10.0},
      {1, kOptimizer, "", "/fit/start_min_noise_variance", 1e-4},
      {1, kOptimizer, "", "/fit/start_max_noise_variance", 0.3},
      {1, kOptimizer, "", "/fit/min_period", 1e-2},
      {1, kOptimizer, "", "/fit/max_period", 10.0},
      {1, kOptimizer, "", "/fit/start_min_period", 0.1},
      {1, kOptimizer, "", "/fit/start_max_period", 1.0},
      // The only raw-sample design before version 3.
      {2, kOptimizer, "", "/maximizer_raw_sample_design", "latin-hypercube"},
      // Version 5 gave PI a margin and safe-opt calibrated signal models and its goal-directed
      // rule by default: older headers ran with no margin, the caller's units and Sui et al.'s
      // rule.
      {4, kStrategy, "pi", "/relative_xi", 0.0},
      {4, kStrategy, "safe-opt", "/calibrated", false},
      {4, kStrategy, "safe-opt", "/rule", "safeopt"},
      // Version 7: the context lengthscales stayed at most their initial values, and r-gp-ucb
      // restarted at the paper's fixed epochs.
      {6, kSignalModels, "", "/context_lengthscale_cap", 0.0},
      {6, kStrategy, "r-gp-ucb", "/restart", "epochs"},
      // Version 8: no floor on a signal model's prior standard deviation.
      {7, kSignalModels, "", "/stddev_covers_measured", false},
      // Version 9: no per-dimension margin for PI.
      {8, kStrategy, "pi", "/relative_xi_per_dim", 0.0},
      // Added without a version (the code that read these headers took the same values): the
      // optimizer's sense, the registered parameter kinds (none), the fit's time limit (none),
      // the exact GP on every observation (the local model whole: it was never used), the
      // local model's anchor and trust box before they were options, the integer search before
      // parameter spaces (no integers to search) and the exact GP on finite sets.
      {9, kOptimizer, "", "/sense", "maximize"},
      {9,
       kOptimizer,
       "",
       "/outcomes",
       {{"objectives", json::array()},
        {"constraints", json::array()},
        {"reference_point", json::array()},
        {"feasibility_confidence", 0.95},
        {"scalarization", "chebyshev"}}},
      // One source of the objective (no fidelities).
      {9,
       kOptimizer,
       "",
       "/fidelities",
       {{"levels", json::array()},
        {"model", "autoregressive"},
        {"rule", "information"},
        {"min_correlation", 0.3},
        {"fit_function_tolerance", "inf"}}},
      // The fits of a study with fidelities stopped at fit.function_tolerance alone.
      {9, kOptimizer, "", "/fidelities/fit_function_tolerance", "inf"},
      {9, kOptimizer, "", "/fit/kind_ranges", json::object()},
      {9, kOptimizer, "", "/fit/max_seconds", "inf"},
      {9, kOptimizer, "", "/fit_max_observations", kAll},
      {9,
       kOptimizer,
       "",
       "/local_model",
       {{"exact_until", kAll},
        {"size", 500},
        {"regions", 3},
        {"anchor", "highest-output"},
        {"trust_box_scale", 0.7}}},
      {9, kOptimizer, "", "/local_model/anchor", "highest-output"},
      {9, kOptimizer, "", "/local_model/trust_box_scale", 1.0},
      {9, kOptimizer, "", "/maximizer_integer_search", "relax-then-search"},
      {9, kOptimizer, "", "/finite_set_rank_one_updates", false},
      // The acquisition alone chose every model-driven point of a parameter space.
      {9, kOptimizer, "", "/label_probes", false},
      // The GP's prior mean was the rewards' sample mean.
      {9, kOptimizer, "", "/gp/prior_mean", "sample-mean"},
      // tv-gp-ucb's exploration bonus read the whole posterior variance (no cap).
      {9, kStrategy, "tv-gp-ucb", "/variance_cap", 1.0},
      // tv-gp-ucb's bonus had no tighter cap while the model predicted well.
      {9, kStrategy, "tv-gp-ucb", "/settled_variance_cap", 1.0},
      // tv-gp-ucb's model reverted to the rewards' sample mean.
      {9, kStrategy, "tv-gp-ucb", "/prior_mean", "sample-mean"},
  };
}

void FillIfAbsent(const LegacyValue& row, json* object) {
  const json::json_pointer path(row.path);
  if (!object->contains(path)) (*object)[path] = row.value;
}

// The signal models kSafeOptSignalModels rows fill, or nullptr if the header has none.
json* SafeOptSignalModels(json* header) {
  json& options = header->at("strategy_options");
  if (header->at("strategy") != "safe-opt" || !options.is_object() ||
      !options.value("calibrated", true))
    return nullptr;
  json& models = options["signal_models"];
  if (!models.is_array() || models.empty()) {
    const std::size_t constraints =
        options.contains("constraint_thresholds") ? options["constraint_thresholds"].size() : 0;
    models = json::array();
    for (std::size_t i = 0; i < 1 + constraints; ++i) models.push_back(json::object());
  }
  return &models;
}

}  // namespace

const std::vector<LegacyValue>& LegacyValues() {
  static const std::vector<LegacyValue> table = MakeTable();
  return table;
}

void FillLegacyValues(int version, json* header) {
  for (const LegacyValue& row : LegacyValues()) {
    if (row.absent_through < version) continue;
    switch (row.scope) {
      case LegacyScope::kOptimizer:
        FillIfAbsent(row, &header->at("options"));
        break;
      case LegacyScope::kStrategy:
        if (header->at("strategy") == row.strategy && header->at("strategy_options").is_object())
          FillIfAbsent(row, &header->at("strategy_options"));
        break;
      case LegacyScope::kSafeOptSignalModels:
        if (json* models = SafeOptSignalModels(header))
          for (json& model : *models) FillIfAbsent(row, &model);
        break;
    }
  }
}

}  // namespace internal
}  // namespace gpbandit
