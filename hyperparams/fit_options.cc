#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpbandit/hyperparams/fit.h"

namespace gpbandit {
namespace {

std::string FieldError(const std::string& field, double value, const std::string& requirement) {
  std::ostringstream out;
  out << "HyperparameterFitOptions." << field << " must be " << requirement << ", got " << value;
  return out.str();
}

bool CheckPrior(const LogNormalPrior& prior, const std::string& field, std::string* message) {
  if (!std::isfinite(prior.mean_log)) {
    *message = FieldError(field + ".mean_log", prior.mean_log, "finite");
    return false;
  }
  if (!(prior.stddev_log > 0.0)) {
    *message = FieldError(field + ".stddev_log", prior.stddev_log, "> 0 (infinity = no prior)");
    return false;
  }
  return true;
}

bool CheckRange(double lo, double hi, const std::string& lo_field, const std::string& hi_field,
                std::string* message) {
  if (!(lo > 0.0) || !std::isfinite(lo)) {
    *message = FieldError(lo_field, lo, "finite and > 0");
    return false;
  }
  if (!(hi > lo) || !std::isfinite(hi)) {
    *message =
        FieldError(hi_field, hi, "finite and > " + lo_field + " (" + std::to_string(lo) + ")");
    return false;
  }
  return true;
}

// lower_log_bounds and upper_log_bounds: the same size, no NaN, each pair both finite with
// lower < upper or both infinite (-inf, +inf).
bool CheckExplicitBounds(const std::vector<double>& lower, const std::vector<double>& upper,
                         std::string* message) {
  auto fail = [&](const std::string& m) {
    *message = m;
    return false;
  };
  if (lower.size() != upper.size()) {
    std::ostringstream out;
    out << "HyperparameterFitOptions.lower_log_bounds has " << lower.size()
        << " entries but upper_log_bounds has " << upper.size();
    return fail(out.str());
  }
  for (size_t j = 0; j < lower.size(); ++j) {
    const double lo = lower[j], hi = upper[j];
    const std::string index = "[" + std::to_string(j) + "]";
    if (std::isnan(lo)) return fail(FieldError("lower_log_bounds" + index, lo, "not NaN"));
    if (std::isnan(hi)) return fail(FieldError("upper_log_bounds" + index, hi, "not NaN"));
    if (std::isfinite(lo) != std::isfinite(hi)) {
      std::ostringstream out;
      out << "HyperparameterFitOptions.lower_log_bounds" << index << " = " << lo
          << " and upper_log_bounds" << index << " = " << hi
          << " must be both finite or both infinite";
      return fail(out.str());
    }
    if (std::isfinite(lo) ? !(lo < hi) : !(lo < 0.0 && hi > 0.0)) {
      std::ostringstream out;
      out << "HyperparameterFitOptions.lower_log_bounds" << index << " = " << lo
          << " must be below upper_log_bounds" << index << " = " << hi;
      return fail(out.str());
    }
  }
  return true;
}

// The fields of HyperparameterFitOptions that override the built-in kinds' default ranges: one
// row per kind that has them. Kinds registered at run time have none (kind_ranges serves them).
struct KindFields {
  ParamKind kind;
  double HyperparameterFitOptions::*min;
  double HyperparameterFitOptions::*max;
  double HyperparameterFitOptions::*start_min;
  double HyperparameterFitOptions::*start_max;
};

using O = HyperparameterFitOptions;
const KindFields kKindFields[] = {
    {ParamKind::kSignalVariance, &O::min_signal_variance, &O::max_signal_variance,
     &O::start_min_signal_variance, &O::start_max_signal_variance},
    {ParamKind::kLengthscale, &O::min_lengthscale, &O::max_lengthscale, &O::start_min_lengthscale,
     &O::start_max_lengthscale},
    {ParamKind::kPeriod, &O::min_period, &O::max_period, &O::start_min_period,
     &O::start_max_period},
    // kOther shares the signal variance's fields (fit.h).
    {ParamKind::kOther, &O::min_signal_variance, &O::max_signal_variance,
     &O::start_min_signal_variance, &O::start_max_signal_variance},
};

bool CheckKindRanges(const std::map<std::string, ParamRange>& ranges, std::string* message) {
  for (const auto& [name, range] : ranges) {
    const std::string field = "HyperparameterFitOptions.kind_ranges[\"" + name + "\"]";
    if (!ParamKind::IsRegistered(name)) {
      *message = field + " names no registered parameter kind";
      return false;
    }
    if (!range.IsValid(field, message)) return false;
  }
  return true;
}

}  // namespace

ParamRange FitRange(const HyperparameterFitOptions& options, ParamKind kind) {
  const auto given = options.kind_ranges.find(kind.name());
  if (given != options.kind_ranges.end()) return given->second;
  for (const KindFields& fields : kKindFields) {
    if (fields.kind == kind)
      return {options.*fields.min, options.*fields.max, options.*fields.start_min,
              options.*fields.start_max};
  }
  return kind.info().default_range;
}

void DefaultLogBounds(const HyperparameterFitOptions& options, const std::vector<ParamKind>& kinds,
                      std::vector<double>* lower, std::vector<double>* upper) {
  lower->clear();
  upper->clear();
  for (ParamKind kind : kinds) {
    const ParamRange range = FitRange(options, kind);
    lower->push_back(std::log(range.min));
    upper->push_back(std::log(range.max));
  }
}

void CautiousLogBounds(const HyperparameterFitOptions& options, const std::vector<ParamKind>& kinds,
                       const Eigen::VectorXd& initial_log_params, std::vector<double>* lower,
                       std::vector<double>* upper) {
  if (initial_log_params.size() != static_cast<Eigen::Index>(kinds.size()))
    throw std::invalid_argument("CautiousLogBounds: initial_log_params has " +
                                std::to_string(initial_log_params.size()) + " entries but " +
                                std::to_string(kinds.size()) + " kinds were given");
  DefaultLogBounds(options, kinds, lower, upper);
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    const double initial = initial_log_params(static_cast<Eigen::Index>(j));
    const CautiousDirection direction = kinds[j].info().cautious_direction;
    double& lo = (*lower)[j];
    double& hi = (*upper)[j];
    if (direction == CautiousDirection::kOnlyShrink) hi = std::min(hi, initial);
    if (direction == CautiousDirection::kOnlyGrow) lo = std::max(lo, initial);
    // An initial value beyond the default range: the range reaches it from the cautious side.
    if (!(lo < hi)) {
      if (direction == CautiousDirection::kOnlyShrink)
        lo = hi - 1.0;
      else
        hi = lo + 1.0;
    }
  }
}

std::string FitTerminationName(FitTermination termination) {
  switch (termination) {
    case FitTermination::kConvergence:
      return "CONVERGENCE";
    case FitTermination::kNoConvergence:
      return "NO_CONVERGENCE";
    case FitTermination::kFailure:
      return "FAILURE";
    case FitTermination::kNotRun:
      break;
  }
  return "NOT_RUN";
}

bool HyperparameterFitOptions::IsValid(std::string* error) const {
  std::string message;
  auto fail = [&](const std::string& m) {
    if (error != nullptr) *error = m;
    return false;
  };
  if (num_restarts < 0) return fail(FieldError("num_restarts", num_restarts, ">= 0"));
  if (max_iterations < 1) return fail(FieldError("max_iterations", max_iterations, ">= 1"));
  if (num_threads < 0) return fail(FieldError("num_threads", num_threads, ">= 0"));
  if (!(function_tolerance > 0.0) || !std::isfinite(function_tolerance))
    return fail(FieldError("function_tolerance", function_tolerance, "finite and > 0"));
  if (!(gradient_tolerance > 0.0) || !std::isfinite(gradient_tolerance))
    return fail(FieldError("gradient_tolerance", gradient_tolerance, "finite and > 0"));
  if (!(parameter_tolerance > 0.0) || !std::isfinite(parameter_tolerance))
    return fail(FieldError("parameter_tolerance", parameter_tolerance, "finite and > 0"));
  if (!(max_seconds > 0.0)) return fail(FieldError("max_seconds", max_seconds, "> 0"));
  if (!CheckRange(min_noise_variance, max_noise_variance, "min_noise_variance",
                  "max_noise_variance", &message) ||
      !CheckRange(min_lengthscale, max_lengthscale, "min_lengthscale", "max_lengthscale",
                  &message) ||
      !CheckRange(min_period, max_period, "min_period", "max_period", &message) ||
      !CheckRange(min_signal_variance, max_signal_variance, "min_signal_variance",
                  "max_signal_variance", &message) ||
      !CheckRange(start_min_lengthscale, start_max_lengthscale, "start_min_lengthscale",
                  "start_max_lengthscale", &message) ||
      !CheckRange(start_min_period, start_max_period, "start_min_period", "start_max_period",
                  &message) ||
      !CheckRange(start_min_signal_variance, start_max_signal_variance, "start_min_signal_variance",
                  "start_max_signal_variance", &message) ||
      !CheckRange(start_min_noise_variance, start_max_noise_variance, "start_min_noise_variance",
                  "start_max_noise_variance", &message))
    return fail(message);
  if (!CheckKindRanges(kind_ranges, &message)) return fail(message);
  if (!CheckExplicitBounds(lower_log_bounds, upper_log_bounds, &message)) return fail(message);
  for (size_t j = 0; j < kernel_priors.size(); ++j) {
    if (!CheckPrior(kernel_priors[j], "kernel_priors[" + std::to_string(j) + "]", &message))
      return fail(message);
  }
  if (!CheckPrior(noise_prior, "noise_prior", &message)) return fail(message);
  return true;
}

std::string HyperparameterFitReport::BriefReport() const {
  std::ostringstream out;
  out << (success ? "fit succeeded" : "fit failed");
  if (kept_previous) out << " (kept previous hyperparameters)";
  out << ": lml = " << std::setprecision(10) << log_marginal_likelihood;
  if (log_posterior != log_marginal_likelihood) out << ", log posterior = " << log_posterior;
  out << ", starts = " << num_starts << " (best " << best_start << ", " << failed_starts.size()
      << " failed), iterations = " << iterations
      << ", termination = " << FitTerminationName(termination);
  if (!params_at_bound.empty()) {
    out << ", at bound:";
    for (const std::string& p : params_at_bound) out << " [" << p << "]";
  }
  if (!message.empty()) out << ". " << message;
  return out.str();
}

bool FitOptionsMatchKernel(const HyperparameterFitOptions& options, const Kernel& kernel,
                           std::string* error) {
  const std::size_t p = static_cast<std::size_t>(kernel.NumParams());
  const std::pair<const char*, std::size_t> fields[] = {
      {"lower_log_bounds", options.lower_log_bounds.size()},
      {"upper_log_bounds", options.upper_log_bounds.size()},
      {"kernel_priors", options.kernel_priors.size()}};
  for (const auto& [field, size] : fields) {
    if (size == 0 || size == p) continue;
    if (error != nullptr) {
      std::string names;
      for (const std::string& name : kernel.ParamNames())
        names += (names.empty() ? "" : ", ") + name;
      *error = std::string(field) + " has " + std::to_string(size) + " entries but the kernel " +
               kernel.Describe() + " has " + std::to_string(p) + " log-params (" + names + ")";
    }
    return false;
  }
  return true;
}

}  // namespace gpbandit
