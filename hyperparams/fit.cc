#include "gpbandit/hyperparams/fit.h"

#include <ceres/first_order_function.h>
#include <ceres/gradient_problem.h>
#include <ceres/gradient_problem_solver.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <iomanip>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "gpbandit/hyperparams/log_marginal_likelihood.h"
#include "numerics/math.h"
#include "numerics/thread_policy.h"

namespace gpbandit {
namespace {

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

// theta = lo + w (1 - cos(pi u / w))/2, w = hi - lo (numerics/math.h's cosine map with period w),
// maps all of R onto [lo, hi] smoothly and periodically; L-BFGS then optimizes an unconstrained
// u. The period w keeps the slope at most pi/2, so that a unit step in u moves theta by about as
// much as a unit step in plain log space would: with period 1 instead, Ceres' first step (of
// max-norm ~1) would sweep the whole interval and could land in a flat region (all lengthscales
// tiny: a white-noise fit). Unbounded entries use theta = u.
double ThetaOf(const Interval& b, double u) {
  return b.bounded() ? CosineMapToInterval(u, b.lo, b.hi, b.width()) : u;
}
double DThetaDu(const Interval& b, double u) {
  return b.bounded() ? CosineMapDerivative(u, b.lo, b.hi, b.width()) : 1.0;
}
// The u in [0, w] of a theta, after moving theta strictly inside (a u on a bound has
// d theta / d u = 0 and would never move).
double UOf(const Interval& b, double theta) {
  if (!b.bounded()) return theta;
  const double margin = kStartMargin * b.width();
  theta = std::min(std::max(theta, b.lo + margin), b.hi - margin);
  return CosineMapInverse(theta, b.lo, b.hi, b.width());
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
      const double value = objective_->Evaluate(theta, nullptr, gradient != nullptr ? &g : nullptr);
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

std::string Fixed(double v) {
  std::ostringstream out;
  out << std::setprecision(6) << v;
  return out.str();
}

// The bounds and start ranges of theta = [kernel log-params..., (log noise)].
std::vector<Interval> ThetaIntervals(const HyperparameterFitOptions& options,
                                     const std::vector<ParamKind>& kinds) {
  std::vector<Interval> bounds;
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    const ParamRange range = FitRange(options, kinds[j]);
    Interval b;
    b.lo = options.lower_log_bounds.empty() ? std::log(range.min) : options.lower_log_bounds[j];
    b.hi = options.upper_log_bounds.empty() ? std::log(range.max) : options.upper_log_bounds[j];
    SetDrawRange(range.start_min, range.start_max, &b);
    bounds.push_back(b);
  }
  if (options.fit_noise) {
    Interval b;
    b.lo = std::log(options.min_noise_variance);
    b.hi = std::log(options.max_noise_variance);
    SetDrawRange(options.start_min_noise_variance, options.start_max_noise_variance, &b);
    bounds.push_back(b);
  }
  return bounds;
}

// The priors of theta (flat where none is given).
std::vector<LogNormalPrior> ThetaPriors(const HyperparameterFitOptions& options, int p) {
  std::vector<LogNormalPrior> priors(static_cast<std::size_t>(p));
  if (!options.kernel_priors.empty()) priors = options.kernel_priors;
  if (options.fit_noise) priors.push_back(options.noise_prior);
  return priors;
}

// Start 0 is `previous`; starts 1..num_restarts draw every entry uniformly within its start
// range, a fixed number of draws per start, so that the starts of a fit with k restarts are a
// prefix of those with k + 1.
std::vector<Eigen::VectorXd> DrawStarts(const Eigen::VectorXd& previous,
                                        const std::vector<Interval>& bounds, int num_restarts,
                                        Rng& rng) {
  std::vector<Eigen::VectorXd> starts{previous};
  for (int r = 0; r < num_restarts; ++r) {
    Eigen::VectorXd theta(previous.size());
    for (Eigen::Index j = 0; j < theta.size(); ++j) {
      const Interval& b = bounds[static_cast<std::size_t>(j)];
      std::uniform_real_distribution<double> uniform(b.draw_lo, b.draw_hi);
      theta(j) = uniform(rng);
    }
    starts.push_back(theta);
  }
  return starts;
}

ceres::GradientProblemSolver::Options SolverOptions(const HyperparameterFitOptions& options) {
  ceres::GradientProblemSolver::Options solver;
  solver.line_search_direction_type = ceres::LBFGS;
  solver.max_num_iterations = options.max_iterations;
  solver.function_tolerance = options.function_tolerance;
  solver.gradient_tolerance = options.gradient_tolerance;
  solver.parameter_tolerance = options.parameter_tolerance;
  solver.logging_type = ceres::SILENT;
  solver.minimizer_progress_to_stdout = false;
  return solver;
}

// The objective at theta, -infinity (with *lml = -infinity) if it is not finite or throws.
double EvaluateSafely(const Objective& objective, const Eigen::VectorXd& theta, double* lml) {
  try {
    const double value = objective.Evaluate(theta, lml, nullptr);
    return std::isfinite(value) && std::isfinite(*lml) ? value : -kInf;
  } catch (const std::exception&) {
    *lml = -kInf;
    return -kInf;
  }
}

// A solve ends near a bound only asymptotically (d theta / d u -> 0 there): the entries within
// kBoundTolerance of the interval width whose gradient presses them against their bound are
// snapped onto it. The gradient decides, not a comparison of values: with an ill-conditioned Ky
// the roundoff of the value exceeds the first-order gain (~1e-12) of the move.
void SnapToBounds(const Objective& objective, const std::vector<Interval>& bounds,
                  Eigen::VectorXd* theta, double* value, double* lml) {
  Eigen::VectorXd gradient;
  double unused = 0.0;
  try {
    objective.Evaluate(*theta, &unused, &gradient);
  } catch (const std::exception&) {
    return;
  }
  if (gradient.size() != theta->size() || !gradient.allFinite()) return;
  Eigen::VectorXd snapped = *theta;
  bool any = false;
  for (Eigen::Index j = 0; j < theta->size(); ++j) {
    const Interval& b = bounds[static_cast<std::size_t>(j)];
    if (!b.bounded()) continue;
    const double tol = kBoundTolerance * b.width();
    if ((*theta)(j)-b.lo <= tol && gradient(j) <= 0.0) snapped(j) = b.lo, any = true;
    if (b.hi - (*theta)(j) <= tol && gradient(j) >= 0.0) snapped(j) = b.hi, any = true;
  }
  if (!any) return;
  double snapped_lml = -kInf;
  const double snapped_value = EvaluateSafely(objective, snapped, &snapped_lml);
  if (!std::isfinite(snapped_value)) return;
  *theta = snapped;
  *value = snapped_value;
  *lml = snapped_lml;
}

// What one L-BFGS start gave.
struct StartResult {
  bool ok = false;
  Eigen::VectorXd theta;
  double value = -kInf;
  double lml = -kInf;
  int iterations = 0;
  FitTermination termination = FitTermination::kFailure;
  std::string outcome;  // one line for the report
};

// A usable solve ends in CONVERGENCE or NO_CONVERGENCE (USER_SUCCESS needs an iteration
// callback, which the fit does not install); anything else is a failure.
FitTermination TerminationOf(ceres::TerminationType type) {
  switch (type) {
    case ceres::CONVERGENCE:
    case ceres::USER_SUCCESS:
      return FitTermination::kConvergence;
    case ceres::NO_CONVERGENCE:
      return FitTermination::kNoConvergence;
    default:
      return FitTermination::kFailure;
  }
}

StartResult RunStart(const Objective& objective, const std::vector<Interval>& bounds,
                     const ceres::GradientProblemSolver::Options& solver_options,
                     const Eigen::VectorXd& start, int index) {
  const int m = static_cast<int>(start.size());
  Eigen::VectorXd u(m);
  for (int j = 0; j < m; ++j) {
    // A previous noise of 0 has log -inf: start it at the floor instead.
    const double theta = std::isfinite(start(j)) ? start(j) : bounds[j].draw_lo;
    u(j) = UOf(bounds[j], theta);
  }
  // The problem owns its function; the function only borrows the objective and bounds.
  auto* function = new NegativeObjectiveInU(&objective, &bounds);
  ceres::GradientProblem problem(function);
  ceres::GradientProblemSolver::Summary summary;
  ceres::Solve(solver_options, problem, u.data(), &summary);
  StartResult result;
  result.iterations = std::max(0, static_cast<int>(summary.iterations.size()) - 1);
  result.termination = TerminationOf(summary.termination_type);
  const char* const ceres_termination = ceres::TerminationTypeToString(summary.termination_type);
  result.ok = summary.termination_type != ceres::FAILURE && summary.IsSolutionUsable();
  if (result.ok) {
    result.theta.resize(m);
    for (int j = 0; j < m; ++j) result.theta(j) = ThetaOf(bounds[j], u(j));
    result.value = EvaluateSafely(objective, result.theta, &result.lml);
    result.ok = std::isfinite(result.value) && AllFinite(result.theta);
  }
  std::ostringstream outcome;
  outcome << "start " << index << ": ";
  if (result.ok) {
    SnapToBounds(objective, bounds, &result.theta, &result.value, &result.lml);
    outcome << ceres_termination << ", " << result.iterations << " iterations, objective "
            << std::setprecision(12) << result.value;
  } else {
    outcome << "FAILED (" << ceres_termination << ": " << summary.message;
    if (!function->last_error().empty()) outcome << "; " << function->last_error();
    outcome << ")";
  }
  result.outcome = outcome.str();
  return result;
}

// "name at lower bound lo" for every entry of theta within kBoundTolerance of a bound.
std::vector<std::string> ParamsAtBound(const std::vector<Interval>& bounds,
                                       const std::vector<std::string>& names,
                                       const Eigen::VectorXd& theta) {
  std::vector<std::string> at_bound;
  for (std::size_t j = 0; j < bounds.size(); ++j) {
    const Interval& b = bounds[j];
    if (!b.bounded()) continue;
    const double tol = kBoundTolerance * b.width();
    const double value = theta(static_cast<Eigen::Index>(j));
    if (value - b.lo <= tol) {
      at_bound.push_back(names[j] + " at lower bound " + Fixed(b.lo));
    } else if (b.hi - value <= tol) {
      at_bound.push_back(names[j] + " at upper bound " + Fixed(b.hi));
    }
  }
  return at_bound;
}

// Marks *report as having kept the previous hyperparameters (at previous_theta), and why.
void KeepPrevious(const Objective& objective, const Eigen::VectorXd& previous_theta,
                  const std::string& why, FitTermination termination,
                  HyperparameterFitReport* report) {
  report->success = false;
  report->kept_previous = true;
  report->termination = termination;
  report->message = why;
  double lml = -kInf;
  const double value = EvaluateSafely(objective, previous_theta, &lml);
  report->log_marginal_likelihood = std::isfinite(lml) ? lml : -kInf;
  report->log_posterior = std::isfinite(value) ? value : -kInf;
}

// Sets the winning start's hyperparameters on *gp and completes *report; keeps the previous
// ones (and says why) when no start succeeded or the GP rejects them.
void FinishFit(const Objective& objective, const std::vector<Interval>& bounds,
               const Eigen::VectorXd& previous_theta, const StartResult& best,
               const std::string& first_failure, GaussianProcess* gp,
               HyperparameterFitReport* report) {
  if (report->best_start < 0) {
    KeepPrevious(objective, previous_theta,
                 "every one of the " + std::to_string(report->num_starts) +
                     " starts failed (non-finite objective); first: " + first_failure,
                 FitTermination::kFailure, report);
    return;
  }
  const int p = gp->kernel().NumParams();
  const double noise = objective.noise_of(best.theta);
  try {
    gp->SetHyperparameters(best.theta.head(p), noise);
  } catch (const std::exception& e) {
    KeepPrevious(objective, previous_theta,
                 std::string("the GP rejected the fitted hyperparameters: ") + e.what(),
                 FitTermination::kFailure, report);
    return;
  }
  report->success = true;
  report->kept_previous = false;
  report->log_marginal_likelihood = best.lml;
  report->log_posterior = best.value;
  report->kernel_log_params = best.theta.head(p);
  report->noise_variance = noise;
  std::vector<std::string> names = gp->kernel().ParamNames();
  names.resize(static_cast<std::size_t>(p));
  if (objective.size() > p) names.push_back("log_noise_variance");
  report->params_at_bound = ParamsAtBound(bounds, names, best.theta);
  if (!report->failed_starts.empty()) {
    report->message = std::to_string(report->failed_starts.size()) + " of " +
                      std::to_string(report->num_starts) + " starts failed";
  }
}

// Throws std::invalid_argument for a null gp, invalid options or options that do not fit the
// kernel.
void CheckFitArguments(const HyperparameterFitOptions& options, const GaussianProcess* gp) {
  if (gp == nullptr) throw std::invalid_argument("FitHyperparameters: gp is null");
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("FitHyperparameters: " + error);
  if (!FitOptionsMatchKernel(options, gp->kernel(), &error))
    throw std::invalid_argument("FitHyperparameters: HyperparameterFitOptions." + error);
}

}  // namespace

HyperparameterFitReport FitHyperparameters(const HyperparameterFitOptions& options, Rng& rng,
                                           GaussianProcess* gp) {
  CheckFitArguments(options, gp);
  const Kernel& kernel = gp->kernel();
  const int p = kernel.NumParams();
  const std::vector<Interval> bounds = ThetaIntervals(options, kernel.ParamKinds());
  const int m = static_cast<int>(bounds.size());
  const Objective objective(kernel, gp->inputs(), gp->standardized_outputs(), options.fit_noise,
                            gp->noise_variance(), ThetaPriors(options, p),
                            gp->options().max_relative_jitter, options.num_threads);
  Eigen::VectorXd previous_theta(m);
  previous_theta.head(p) = gp->kernel_log_params();
  if (options.fit_noise) previous_theta(p) = std::log(gp->noise_variance());
  HyperparameterFitReport report;
  report.kernel_log_params = gp->kernel_log_params();
  report.noise_variance = gp->noise_variance();
  if (gp->num_observations() == 0) {
    KeepPrevious(objective, previous_theta, "no observations to fit", FitTermination::kNotRun,
                 &report);
    return report;
  }
  const std::vector<Eigen::VectorXd> starts =
      DrawStarts(previous_theta, bounds, options.num_restarts, rng);
  report.num_starts = static_cast<int>(starts.size());
  ceres::GradientProblemSolver::Options solver_options = SolverOptions(options);
  const auto begin = std::chrono::steady_clock::now();
  StartResult best;
  std::string first_failure;
  for (int s = 0; s < report.num_starts; ++s) {
    if (std::isfinite(options.max_seconds)) {
      const double left =
          options.max_seconds -
          std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      if (s > 0 && left <= 0.0) {
        report.start_outcomes.push_back("start " + std::to_string(s) +
                                        ": NOT RUN (max_seconds spent)");
        continue;
      }
      solver_options.max_solver_time_in_seconds = std::max(left, 0.0);
    }
    StartResult result;
    auto run = [&] { result = RunStart(objective, bounds, solver_options, starts[s], s); };
    // glog's lazy set-up inside Ceres is not thread-safe (numerics/thread_policy.h): the process's
    // first solve runs alone, even when several fits run in threads.
    if (!RunAsFirstSolve(run)) run();
    report.iterations += result.iterations;
    report.start_outcomes.push_back(result.outcome);
    if (!result.ok) {
      report.failed_starts.push_back(s);
      if (first_failure.empty()) first_failure = result.outcome;
    } else if (result.value > best.value) {
      report.best_start = s;
      report.termination = result.termination;
      best = std::move(result);
    }
  }
  FinishFit(objective, bounds, previous_theta, best, first_failure, gp, &report);
  return report;
}

}  // namespace gpbandit
