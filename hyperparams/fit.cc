#include "gpbandit/hyperparams/fit.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iomanip>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <ceres/first_order_function.h>
#include <ceres/gradient_problem.h>
#include <ceres/gradient_problem_solver.h>

#include "gpbandit/hyperparams/log_marginal_likelihood.h"

namespace gpbandit {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

// The interval of one log-param. Unbounded intervals still carry a finite range [draw_lo,
// draw_hi] for the random starts.
struct Interval {
  double lo = -kInf;
  double hi = kInf;
  double draw_lo = 0.0;
  double draw_hi = 0.0;
  bool bounded() const { return std::isfinite(lo); }
  double width() const { return hi - lo; }
};

// theta = lo + w (1 - cos(pi u / w))/2, w = hi - lo, maps all of R onto [lo, hi] smoothly and
// periodically; L-BFGS then optimizes an unconstrained u. Dividing u by w keeps the slope at
// most pi/2, so that a unit step in u moves theta by about as much as a unit step in plain log
// space would: with u in [0, 1] instead, Ceres' first step (of max-norm ~1) would sweep the whole
// interval and could land in a flat region (all lengthscales tiny: a white-noise fit).
// Unbounded entries use theta = u.
double ThetaOf(const Interval& b, double u) {
  if (!b.bounded()) return u;
  return b.lo + b.width() * 0.5 * (1.0 - std::cos(kPi * u / b.width()));
}
double DThetaDu(const Interval& b, double u) {
  if (!b.bounded()) return 1.0;
  return 0.5 * kPi * std::sin(kPi * u / b.width());
}
// The u in [0, w] of a theta, after moving theta strictly inside (a u on a bound has
// d theta / d u = 0 and would never move).
double UOf(const Interval& b, double theta) {
  if (!b.bounded()) return theta;
  const double margin = kStartMargin * b.width();
  theta = std::min(std::max(theta, b.lo + margin), b.hi - margin);
  const double c = std::min(1.0, std::max(-1.0, 1.0 - 2.0 * (theta - b.lo) / b.width()));
  return b.width() * std::acos(c) / kPi;
}

// The range random starts draw log(value) from: [log min, log max] within the bounds.
void SetDrawRange(double min, double max, Interval* b) {
  b->draw_lo = std::log(min);
  b->draw_hi = std::log(max);
  if (!b->bounded()) return;
  b->draw_lo = std::max(b->draw_lo, b->lo);
  b->draw_hi = std::min(b->draw_hi, b->hi);
  if (!(b->draw_lo < b->draw_hi)) {
    b->draw_lo = b->lo;
    b->draw_hi = b->hi;
  }
}

bool AllFinite(const Eigen::VectorXd& v) { return v.allFinite(); }

// log p(y | theta) + log prior(theta) over theta = [kernel log-params..., (log noise)].
class Objective {
 public:
  Objective(const Kernel& kernel, Eigen::MatrixXd X, Eigen::VectorXd y, bool fit_noise,
            double fixed_noise, std::vector<LogNormalPrior> priors, double max_relative_jitter,
            int num_threads)
      : kernel_(kernel.Clone()),
        X_(std::move(X)),
        y_(std::move(y)),
        fit_noise_(fit_noise),
        fixed_noise_(fixed_noise),
        priors_(std::move(priors)),
        max_relative_jitter_(max_relative_jitter),
        num_threads_(num_threads) {}

  int num_kernel_params() const { return kernel_->NumParams(); }
  int size() const { return num_kernel_params() + (fit_noise_ ? 1 : 0); }

  double noise_of(const Eigen::VectorXd& theta) const {
    return fit_noise_ ? std::exp(theta(num_kernel_params())) : fixed_noise_;
  }

  // Evaluates at theta; *lml gets the likelihood part. May throw (a kernel rejecting
  // log-params); the caller decides what a throw means.
  double Evaluate(const Eigen::VectorXd& theta, double* lml, Eigen::VectorXd* gradient) const {
    const int p = num_kernel_params();
    kernel_->SetLogParams(theta.head(p));
    Eigen::VectorXd full_gradient;
    const double value = LogMarginalLikelihood(*kernel_, X_, y_, noise_of(theta),
                                               gradient != nullptr ? &full_gradient : nullptr,
                                               max_relative_jitter_, num_threads_);
    if (lml != nullptr) *lml = value;
    double objective = value;
    if (gradient != nullptr) *gradient = full_gradient.head(size());
    for (int j = 0; j < size(); ++j) {
      const LogNormalPrior& prior = priors_[j];
      if (!std::isfinite(prior.stddev_log)) continue;
      // The normal density of the log-param, constants included, so that the reported
      // log posterior is a true log density.
      const double z = (theta(j) - prior.mean_log) / prior.stddev_log;
      objective += -0.5 * z * z - std::log(prior.stddev_log) - 0.5 * std::log(2.0 * kPi);
      if (gradient != nullptr) (*gradient)(j) -= z / prior.stddev_log;
    }
    return objective;
  }

 private:
  std::unique_ptr<Kernel> kernel_;  // mutated by Evaluate: one Objective per thread
  Eigen::MatrixXd X_;
  Eigen::VectorXd y_;
  bool fit_noise_;
  double fixed_noise_;
  std::vector<LogNormalPrior> priors_;  // size(), flat entries have stddev_log = inf
  double max_relative_jitter_;
  int num_threads_;
};

// The Ceres view of the objective: cost = -objective(theta(u)). Returns false (so that the
// line search backtracks) on any non-finite value or exception; nothing escapes.
class NegativeObjectiveInU : public ceres::FirstOrderFunction {
 public:
  NegativeObjectiveInU(const Objective* objective, const std::vector<Interval>* bounds)
      : objective_(objective), bounds_(bounds) {}

  bool Evaluate(const double* u, double* cost, double* gradient) const override {
    try {
      const int m = objective_->size();
      Eigen::VectorXd theta(m);
      for (int j = 0; j < m; ++j) theta(j) = ThetaOf((*bounds_)[j], u[j]);
      Eigen::VectorXd g;
      const double value =
          objective_->Evaluate(theta, nullptr, gradient != nullptr ? &g : nullptr);
      if (!std::isfinite(value)) return false;
      if (gradient != nullptr) {
        if (!AllFinite(g)) return false;
        for (int j = 0; j < m; ++j) gradient[j] = -g(j) * DThetaDu((*bounds_)[j], u[j]);
      }
      *cost = -value;
      return true;
    } catch (const std::exception& e) {
      if (last_error_.empty()) last_error_ = e.what();
      return false;
    } catch (...) {
      if (last_error_.empty()) last_error_ = "unknown exception";
      return false;
    }
  }

  int NumParameters() const override { return objective_->size(); }
  const std::string& last_error() const { return last_error_; }

 private:
  const Objective* objective_;
  const std::vector<Interval>* bounds_;
  mutable std::string last_error_;
};

// Ceres' line search logs through glog, whose lazy set-up is not thread-safe: one tiny solve
// before any concurrent use.
class Quadratic : public ceres::FirstOrderFunction {
 public:
  bool Evaluate(const double* x, double* cost, double* gradient) const override {
    *cost = 0.5 * x[0] * x[0];
    if (gradient != nullptr) gradient[0] = x[0];
    return true;
  }
  int NumParameters() const override { return 1; }
};

void WarmUpCeresOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    ceres::GradientProblem problem(new Quadratic);
    ceres::GradientProblemSolver::Options options;
    options.logging_type = ceres::SILENT;
    ceres::GradientProblemSolver::Summary summary;
    double x = 1.0;
    ceres::Solve(options, problem, &x, &summary);
  });
}

std::string FieldError(const std::string& field, double value, const std::string& requirement) {
  std::ostringstream out;
  out << "HyperparameterFitOptions." << field << " must be " << requirement << ", got "
      << value;
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
    *message = FieldError(hi_field, hi, "finite and > " + lo_field + " (" +
                                            std::to_string(lo) + ")");
    return false;
  }
  return true;
}

std::string Fixed(double v) {
  std::ostringstream out;
  out << std::setprecision(6) << v;
  return out.str();
}

}  // namespace

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
  if (!CheckRange(min_noise_variance, max_noise_variance, "min_noise_variance",
                  "max_noise_variance", &message) ||
      !CheckRange(min_lengthscale, max_lengthscale, "min_lengthscale", "max_lengthscale",
                  &message) ||
      !CheckRange(min_signal_variance, max_signal_variance, "min_signal_variance",
                  "max_signal_variance", &message) ||
      !CheckRange(start_min_lengthscale, start_max_lengthscale, "start_min_lengthscale",
                  "start_max_lengthscale", &message) ||
      !CheckRange(start_min_signal_variance, start_max_signal_variance,
                  "start_min_signal_variance", "start_max_signal_variance", &message) ||
      !CheckRange(start_min_noise_variance, start_max_noise_variance, "start_min_noise_variance",
                  "start_max_noise_variance", &message))
    return fail(message);
  if (lower_log_bounds.size() != upper_log_bounds.size()) {
    std::ostringstream out;
    out << "HyperparameterFitOptions.lower_log_bounds has " << lower_log_bounds.size()
        << " entries but upper_log_bounds has " << upper_log_bounds.size();
    return fail(out.str());
  }
  for (size_t j = 0; j < lower_log_bounds.size(); ++j) {
    const double lo = lower_log_bounds[j], hi = upper_log_bounds[j];
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
  out << ", starts = " << num_starts << " (best " << best_start << ", "
      << failed_starts.size() << " failed), iterations = " << iterations
      << ", termination = " << termination;
  if (!params_at_bound.empty()) {
    out << ", at bound:";
    for (const std::string& p : params_at_bound) out << " [" << p << "]";
  }
  if (!message.empty()) out << ". " << message;
  return out.str();
}

HyperparameterFitReport FitHyperparameters(const HyperparameterFitOptions& options, Rng& rng,
                                           GaussianProcess* gp) {
  if (gp == nullptr) throw std::invalid_argument("FitHyperparameters: gp is null");
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("FitHyperparameters: " + error);
  const Kernel& kernel = gp->kernel();
  const int p = kernel.NumParams();
  auto check_size = [&](const std::string& field, size_t size) {
    if (size != 0 && size != static_cast<size_t>(p)) {
      std::ostringstream out;
      out << "FitHyperparameters: HyperparameterFitOptions." << field << " has " << size
          << " entries but the kernel " << kernel.Describe() << " has " << p << " log-params";
      throw std::invalid_argument(out.str());
    }
  };
  check_size("lower_log_bounds", options.lower_log_bounds.size());
  check_size("upper_log_bounds", options.upper_log_bounds.size());
  check_size("kernel_priors", options.kernel_priors.size());

  HyperparameterFitReport report;
  report.kernel_log_params = gp->kernel_log_params();
  report.noise_variance = gp->noise_variance();
  const int n = gp->num_observations();
  const double max_jitter = gp->options().max_relative_jitter;

  // The bounds and priors of theta = [kernel log-params..., (log noise)].
  const bool fit_noise = options.fit_noise;
  const int m = p + (fit_noise ? 1 : 0);
  std::vector<std::string> names = kernel.ParamNames();
  names.resize(p);
  if (fit_noise) names.push_back("log_noise_variance");
  std::vector<Interval> bounds(m);
  for (int j = 0; j < p; ++j) {
    const bool is_lengthscale = names[j].find("lengthscale") != std::string::npos;
    const double lo = std::log(is_lengthscale ? options.min_lengthscale
                                              : options.min_signal_variance);
    const double hi = std::log(is_lengthscale ? options.max_lengthscale
                                              : options.max_signal_variance);
    Interval& b = bounds[j];
    b.lo = options.lower_log_bounds.empty() ? lo : options.lower_log_bounds[j];
    b.hi = options.upper_log_bounds.empty() ? hi : options.upper_log_bounds[j];
    SetDrawRange(is_lengthscale ? options.start_min_lengthscale
                                : options.start_min_signal_variance,
                 is_lengthscale ? options.start_max_lengthscale
                                : options.start_max_signal_variance,
                 &b);
  }
  if (fit_noise) {
    Interval& b = bounds[p];
    b.lo = std::log(options.min_noise_variance);
    b.hi = std::log(options.max_noise_variance);
    SetDrawRange(options.start_min_noise_variance, options.start_max_noise_variance, &b);
  }
  std::vector<LogNormalPrior> priors(m);
  for (int j = 0; j < p && !options.kernel_priors.empty(); ++j) {
    priors[j] = options.kernel_priors[j];
  }
  if (fit_noise) priors[p] = options.noise_prior;

  const Objective objective(kernel, gp->inputs(), gp->standardized_outputs(), fit_noise,
                            gp->noise_variance(), priors, max_jitter, options.num_threads);
  auto evaluate_safely = [&](const Eigen::VectorXd& theta, double* lml) {
    try {
      const double value = objective.Evaluate(theta, lml, nullptr);
      return std::isfinite(value) && std::isfinite(*lml) ? value : -kInf;
    } catch (const std::exception&) {
      *lml = -kInf;
      return -kInf;
    }
  };

  Eigen::VectorXd previous_theta(m);
  previous_theta.head(p) = gp->kernel_log_params();
  if (fit_noise) previous_theta(p) = std::log(gp->noise_variance());
  auto keep_previous = [&](const std::string& why, const std::string& termination) {
    report.success = false;
    report.kept_previous = true;
    report.termination = termination;
    report.message = why;
    double lml = -kInf;
    const double value = evaluate_safely(previous_theta, &lml);
    report.log_marginal_likelihood = std::isfinite(lml) ? lml : -kInf;
    report.log_posterior = std::isfinite(value) ? value : -kInf;
    return report;
  };
  if (n == 0) return keep_previous("no observations to fit", "NOT_RUN");

  WarmUpCeresOnce();

  // All starts are drawn up front, a fixed number of draws per start, so that the starts of a
  // fit with k restarts are a prefix of those with k + 1.
  std::vector<Eigen::VectorXd> starts;
  starts.push_back(previous_theta);
  for (int r = 0; r < options.num_restarts; ++r) {
    Eigen::VectorXd theta(m);
    for (int j = 0; j < m; ++j) {
      std::uniform_real_distribution<double> uniform(bounds[j].draw_lo, bounds[j].draw_hi);
      theta(j) = uniform(rng);
    }
    starts.push_back(theta);
  }
  report.num_starts = static_cast<int>(starts.size());

  ceres::GradientProblemSolver::Options solver_options;
  solver_options.line_search_direction_type = ceres::LBFGS;
  solver_options.max_num_iterations = options.max_iterations;
  solver_options.function_tolerance = options.function_tolerance;
  solver_options.gradient_tolerance = options.gradient_tolerance;
  solver_options.parameter_tolerance = options.parameter_tolerance;
  solver_options.logging_type = ceres::SILENT;
  solver_options.minimizer_progress_to_stdout = false;

  double best_value = -kInf;
  double best_lml = -kInf;
  Eigen::VectorXd best_theta;
  std::string first_failure;
  for (int s = 0; s < report.num_starts; ++s) {
    Eigen::VectorXd u(m);
    for (int j = 0; j < m; ++j) {
      // A previous noise of 0 has log -inf: start it at the floor instead.
      const double theta = std::isfinite(starts[s](j)) ? starts[s](j) : bounds[j].draw_lo;
      u(j) = UOf(bounds[j], theta);
    }
    // The problem owns its function; the function only borrows the objective and bounds.
    auto* function = new NegativeObjectiveInU(&objective, &bounds);
    ceres::GradientProblem problem(function);
    ceres::GradientProblemSolver::Summary summary;
    ceres::Solve(solver_options, problem, u.data(), &summary);
    const int iterations = std::max(0, static_cast<int>(summary.iterations.size()) - 1);
    report.iterations += iterations;

    std::ostringstream outcome;
    outcome << "start " << s << ": ";
    bool failed = summary.termination_type == ceres::FAILURE || !summary.IsSolutionUsable();
    Eigen::VectorXd theta(m);
    double value = -kInf, lml = -kInf;
    if (!failed) {
      for (int j = 0; j < m; ++j) theta(j) = ThetaOf(bounds[j], u(j));
      value = evaluate_safely(theta, &lml);
      failed = !std::isfinite(value) || !AllFinite(theta);
    }
    if (!failed) {
      // A bound is only approached asymptotically through the transform (d theta / d u -> 0):
      // snap the values within the tolerance whose gradient presses them against their bound
      // onto it. The gradient decides, not a comparison of values: with an ill-conditioned Ky
      // the roundoff of the value exceeds the first-order gain (~1e-12) of the move.
      Eigen::VectorXd gradient;
      double unused = 0.0;
      bool any = false;
      Eigen::VectorXd snapped = theta;
      try {
        objective.Evaluate(theta, &unused, &gradient);
      } catch (const std::exception&) {
        gradient.resize(0);
      }
      for (int j = 0; j < m && gradient.size() == m && gradient.allFinite(); ++j) {
        const Interval& b = bounds[j];
        if (!b.bounded()) continue;
        const double tol = kBoundTolerance * b.width();
        if (theta(j) - b.lo <= tol && gradient(j) <= 0.0) snapped(j) = b.lo, any = true;
        if (b.hi - theta(j) <= tol && gradient(j) >= 0.0) snapped(j) = b.hi, any = true;
      }
      if (any) {
        double snapped_lml = -kInf;
        const double snapped_value = evaluate_safely(snapped, &snapped_lml);
        if (std::isfinite(snapped_value)) {
          theta = snapped;
          value = snapped_value;
          lml = snapped_lml;
        }
      }
      outcome << ceres::TerminationTypeToString(summary.termination_type) << ", "
              << iterations << " iterations, objective " << std::setprecision(12) << value;
      if (value > best_value) {
        best_value = value;
        best_lml = lml;
        best_theta = theta;
        report.best_start = s;
        report.termination = ceres::TerminationTypeToString(summary.termination_type);
      }
    } else {
      report.failed_starts.push_back(s);
      outcome << "FAILED (" << ceres::TerminationTypeToString(summary.termination_type) << ": "
              << summary.message;
      if (!function->last_error().empty()) outcome << "; " << function->last_error();
      outcome << ")";
      if (first_failure.empty()) first_failure = outcome.str();
    }
    report.start_outcomes.push_back(outcome.str());
  }

  if (report.best_start < 0) {
    return keep_previous("every one of the " + std::to_string(report.num_starts) +
                             " starts failed (non-finite objective); first: " + first_failure,
                         "FAILURE");
  }
  const double noise = objective.noise_of(best_theta);
  try {
    gp->SetHyperparameters(best_theta.head(p), noise);
  } catch (const std::exception& e) {
    return keep_previous(std::string("the GP rejected the fitted hyperparameters: ") + e.what(),
                         "FAILURE");
  }
  report.success = true;
  report.kept_previous = false;
  report.log_marginal_likelihood = best_lml;
  report.log_posterior = best_value;
  report.kernel_log_params = best_theta.head(p);
  report.noise_variance = noise;
  for (int j = 0; j < m; ++j) {
    const Interval& b = bounds[j];
    if (!b.bounded()) continue;
    const double tol = kBoundTolerance * b.width();
    if (best_theta(j) - b.lo <= tol) {
      report.params_at_bound.push_back(names[j] + " at lower bound " + Fixed(b.lo));
    } else if (b.hi - best_theta(j) <= tol) {
      report.params_at_bound.push_back(names[j] + " at upper bound " + Fixed(b.hi));
    }
  }
  if (!report.failed_starts.empty()) {
    report.message = std::to_string(report.failed_starts.size()) + " of " +
                     std::to_string(report.num_starts) + " starts failed";
  }
  return report;
}

}  // namespace gpbandit
