#include "gpbandit/study/optimizer_options.h"

#include <cmath>
#include <string>

#include "gpbandit/numerics/format.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace {

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

HyperparameterFitOptions DefaultOptimizerFitOptions() {
  HyperparameterFitOptions fit;
  fit.num_restarts = 1;
  fit.max_iterations = 50;
  fit.function_tolerance = 1e-4;
  fit.min_noise_variance = 1e-10;
  return fit;
}

std::string ObjectiveSenseName(ObjectiveSense sense) {
  return sense == ObjectiveSense::kMinimize ? "minimize" : "maximize";
}

bool WorkerOptions::IsValid(std::string* error) const {
  if (!(pending_lease_seconds > 0.0))
    return Fail(error, "pending_lease_seconds must be > 0 (or infinity), got " +
                           FormatDouble(pending_lease_seconds));
  if (!(reconnect_timeout_seconds >= 0.0) || std::isinf(reconnect_timeout_seconds))
    return Fail(error, "reconnect_timeout_seconds must be finite and >= 0, got " +
                           FormatDouble(reconnect_timeout_seconds));
  if (!(lock_lease_seconds > 0.0))
    return Fail(error, "lock_lease_seconds must be > 0 (or infinity), got " +
                           FormatDouble(lock_lease_seconds));
  if (!(ask_tolerance >= 0.0 && ask_tolerance <= 1.0))
    return Fail(error, "ask_tolerance must be in [0, 1], got " + FormatDouble(ask_tolerance));
  return true;
}

bool LocalModelOptions::IsValid(std::string* error) const {
  if (exact_until < 1)
    return Fail(error, "exact_until must be >= 1, got " + std::to_string(exact_until));
  if (size < 1) return Fail(error, "size must be >= 1, got " + std::to_string(size));
  if (regions < 1 || regions > size)
    return Fail(error, "regions must be in [1, size = " + std::to_string(size) + "], got " +
                           std::to_string(regions));
  if (anchor != LocalAnchor::kHighestOutput && anchor != LocalAnchor::kHighestMean)
    return Fail(error, "anchor must be kHighestOutput or kHighestMean, got " +
                           std::to_string(static_cast<int>(anchor)));
  if (!(trust_box_scale > 0.0 && trust_box_scale <= 1.0))
    return Fail(error, "trust_box_scale must be in (0, 1], got " + FormatDouble(trust_box_scale));
  return true;
}

bool OptimizerOptions::IsValid(std::string* error) const {
  if (initial_design_size < -1)
    return Fail(error,
                "initial_design_size must be >= -1, got " + std::to_string(initial_design_size));
  if (maximizer_raw_samples < 1)
    return Fail(error,
                "maximizer_raw_samples must be >= 1, got " + std::to_string(maximizer_raw_samples));
  if (maximizer_starts < 1)
    return Fail(error, "maximizer_starts must be >= 1, got " + std::to_string(maximizer_starts));
  if (fit_restarts_until < 0)
    return Fail(error,
                "fit_restarts_until must be >= 0, got " + std::to_string(fit_restarts_until));
  if (fit_max_observations < 1)
    return Fail(error,
                "fit_max_observations must be >= 1, got " + std::to_string(fit_max_observations));
  if (maximizer_observed_starts < 0)
    return Fail(error, "maximizer_observed_starts must be >= 0, got " +
                           std::to_string(maximizer_observed_starts));
  if (maximizer_iterations < 1)
    return Fail(error,
                "maximizer_iterations must be >= 1, got " + std::to_string(maximizer_iterations));
  if (!(std::isfinite(maximizer_function_tolerance) && maximizer_function_tolerance > 0.0))
    return Fail(error, "maximizer_function_tolerance must be finite and > 0, got " +
                           FormatDouble(maximizer_function_tolerance));
  if (sense != ObjectiveSense::kMaximize && sense != ObjectiveSense::kMinimize)
    return Fail(error, "sense must be kMaximize or kMinimize, got " +
                           std::to_string(static_cast<int>(sense)));
  if (num_threads < 0)
    return Fail(error, "num_threads must be >= 0, got " + std::to_string(num_threads));
  if (!log_path.empty() && !storage.empty())
    return Fail(error, "log_path '" + RedactUrl(log_path) + "' and storage '" + RedactUrl(storage) +
                           "' are both given; give one");
  if (!study.empty() && storage.empty())
    return Fail(error, "study '" + study + "' is given without a storage");
  std::string inner;
  if (!worker.IsValid(&inner)) return Fail(error, "worker." + inner);
  if (!gp.IsValid(&inner)) return Fail(error, "gp." + inner);
  if (!local_model.IsValid(&inner)) return Fail(error, "local_model." + inner);
  if (!outcomes.IsValid(&inner)) return Fail(error, "outcomes." + inner);
  if (!fidelities.IsValid(&inner)) return Fail(error, "fidelities." + inner);
  if (!worker.fidelity.empty()) {
    const int index = fidelities.IndexOf(worker.fidelity);
    if (index < 0 || fidelities.IsSource(index))
      return Fail(error,
                  "worker.fidelity '" + worker.fidelity + "' is not " +
                      (index < 0 ? "a fidelity the study declares" : "evaluable (a source)"));
  }
  if (refit.enabled) {
    if (!refit.IsValid(&inner)) return Fail(error, "refit." + inner);
    if (!fit.IsValid(&inner)) return Fail(error, "fit." + inner);
  }
  return true;
}

}  // namespace gpbandit
