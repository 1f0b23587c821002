// Fitting a GP's kernel hyperparameters (and noise variance) by maximizing the log marginal
// likelihood, or the log posterior under log-normal priors (MAP), with Ceres' L-BFGS
// (GradientProblemSolver) and restarts.
//
// Parameterization: every hyperparameter is optimized in log space, theta = log(value), the same
// parameterization scikit-learn's GaussianProcessRegressor uses (kernel.theta). Bounds
// [lo, hi] on theta are imposed by the smooth transform theta = lo + w (1 - cos(pi u / w))/2,
// w = hi - lo, of an unconstrained u, so that L-BFGS never sees a constraint (dividing by w keeps
// a unit step in u about as large as a unit step in plain log space). A start exactly on a
// bound would never move (d theta / d u = 0 there), so every start is moved strictly inside by
// kStartMargin of the interval width.
//
// Restarts: start 0 is the GP's current hyperparameters (clamped into the bounds); starts
// 1..num_restarts draw theta uniformly within the start ranges (options) from the caller's Rng,
// a fixed number of draws per start, so that the starts of a fit with k restarts are a prefix of
// those with k + 1 restarts under the same seed (more restarts can never give a lower optimum).
//
// Cost: every objective evaluation is O(t^3) time and O(t^2) memory (log_marginal_likelihood.h);
// a fit makes at most max_iterations L-BFGS iterations in each of its 1 + num_restarts starts.
// At large t, refit every few observations, or with num_restarts = 0 between full refits.
// Timings by t and d: docs/benchmarks.md, "Hyperparameter fits".
//
// Faults: an evaluation that is non-finite (or throws) is reported to Ceres as failed, and Ceres
// backtracks; no exception crosses the Ceres callback. A start whose first evaluation fails,
// whose solve fails, or whose result is non-finite is recorded as failed. If every start fails
// the GP keeps its previous hyperparameters untouched, report.kept_previous is true and
// report.message says why. The GP is never left with NaN or half-updated hyperparameters.
//
// Thread safety: FitHyperparameters mutates only *gp and rng; distinct GPs may be fitted
// concurrently (the first call performs a one-time warm-up solve under std::call_once, because
// glog's lazy initialization inside Ceres is not thread-safe). Deterministic for a given seed.
#ifndef GPBANDIT_HYPERPARAMS_FIT_H_
#define GPBANDIT_HYPERPARAMS_FIT_H_

#include <Eigen/Core>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {

// A normal prior on one log-hyperparameter, i.e. a log-normal prior on the hyperparameter:
// log(value) ~ N(mean_log, stddev_log^2). stddev_log = +infinity means no prior (flat).
struct LogNormalPrior {
  // Mean of log(value). Finite. Default 0 (value 1).
  double mean_log = 0.0;
  // Standard deviation of log(value). > 0; +infinity (the default) switches the prior off.
  double stddev_log = std::numeric_limits<double>::infinity();
};

struct HyperparameterFitOptions {
  // Random restarts in addition to start 0 (the current hyperparameters): 1 + num_restarts
  // L-BFGS solves in all, as scikit-learn's n_restarts_optimizer. >= 0. Default 5.
  int num_restarts = 5;
  // L-BFGS iterations per start. >= 1. Default 200.
  int max_iterations = 200;
  // OpenMP threads of each likelihood evaluation (log_marginal_likelihood.h); 0 = the OpenMP
  // default. The fit does not depend on it. >= 0. Default 0.
  int num_threads = 0;
  // Ceres convergence tolerances, per start: relative change of the objective, max-norm of the
  // gradient (in the transformed variables), relative step size. Each finite and > 0. The
  // defaults (1e-10, 1e-6, 1e-10) put the objective within ~1e-8 of a local optimum (the fit
  // must reach scikit-learn's optimum to 1e-6); loosen them for speed at large t.
  double function_tolerance = 1e-10;
  double gradient_tolerance = 1e-6;
  double parameter_tolerance = 1e-10;
  // Wall-clock budget of the whole fit, in seconds: each start's L-BFGS stops when the budget is
  // spent (Ceres' max_solver_time_in_seconds, checked between iterations, so a fit may overrun
  // by one iteration), and starts not begun by then are skipped (report.start_outcomes says
  // so). Start 0 always runs. A finite budget makes the result depend on the machine's speed
  // and load (the Optimizer logs every fit's result, so a resumed run is exact regardless).
  // > 0; default infinity (no budget).
  double max_seconds = std::numeric_limits<double>::infinity();

  // Also fit the noise variance. If false the GP's current noise_variance is kept (it may lie
  // outside [min_noise_variance, max_noise_variance]). Default true.
  bool fit_noise = true;
  // Bounds on the fitted noise variance (standardized output units). The lower one is the noise
  // floor that keeps K + noise I well conditioned with duplicate points (BoTorch uses 1e-4,
  // scikit-learn's WhiteKernel 1e-5). 0 < min_noise_variance < max_noise_variance < infinity.
  // Defaults 1e-6 and 10 (the standardized outputs have variance 1).
  double min_noise_variance = 1e-6;
  double max_noise_variance = 10.0;

  // Default bounds, used for the kernel log-params when lower_log_bounds/upper_log_bounds are
  // empty, chosen by each log-param's kind (Kernel::ParamKinds(), gp/param_kind.h; FitRange
  // below): the kind's registered default range, which the fields below override for the
  // built-in kinds (lengthscales get [log min_lengthscale, log max_lengthscale], periods
  // [log min_period, log max_period], signal variances, an index kernel's scale and a constant
  // kernel's variance included, and log-params of kind kOther [log min_signal_variance,
  // log max_signal_variance]) and kind_ranges overrides for any kind. The defaults (the built-in
  // kinds' registered ranges, kDefaultLengthscaleRange etc.) suit inputs in the unit cube and
  // standardized outputs: lengthscales in [1e-3, 1e2], periods in [1e-2, 10] (from 100 periods
  // across the cube to a tenth of one), variances in [1e-3, 1e3]. Each range must satisfy
  // 0 < min < max < infinity.
  double min_lengthscale = kDefaultLengthscaleRange.min;
  double max_lengthscale = kDefaultLengthscaleRange.max;
  double min_period = kDefaultPeriodRange.min;
  double max_period = kDefaultPeriodRange.max;
  double min_signal_variance = kDefaultSignalVarianceRange.min;
  double max_signal_variance = kDefaultSignalVarianceRange.max;

  // Where the random starts are drawn: log-uniformly within these ranges (by kind, as above),
  // intersected with each log-param's bounds (the whole bound interval if they do not overlap).
  // Narrower than the bounds because starts with tiny lengthscales or a huge noise sit in flat
  // regions (the white-noise fit) that L-BFGS cannot leave. Each 0 < min < max < infinity.
  // Defaults: lengthscales [0.03, 3], periods [0.1, 1], signal variances [0.1, 10], noise
  // variance [1e-4, 0.3]. The likelihood is very multimodal in a period: with a known period,
  // set a tight prior (kernel_priors) rather than rely on the starts.
  double start_min_lengthscale = kDefaultLengthscaleRange.start_min;
  double start_max_lengthscale = kDefaultLengthscaleRange.start_max;
  double start_min_period = kDefaultPeriodRange.start_min;
  double start_max_period = kDefaultPeriodRange.start_max;
  double start_min_signal_variance = kDefaultSignalVarianceRange.start_min;
  double start_max_signal_variance = kDefaultSignalVarianceRange.start_max;
  double start_min_noise_variance = 1e-4;
  double start_max_noise_variance = 0.3;

  // Bounds and start ranges by kind name (ParamKindInfo::name), over everything above: for a
  // kind registered at run time, whose range has no field of its own, or to override a
  // built-in kind's fields. Each name a registered kind, each range valid
  // (ParamRange::IsValid). Default empty.
  std::map<std::string, ParamRange> kind_ranges;

  // Explicit bounds on the kernel log-params (log space, in the order of the kernel's
  // GetLogParams()). Either both empty (use the defaults above) or both of size
  // kernel.NumParams() with lower < upper, each pair either both finite or both infinite (an
  // infinite pair leaves that log-param unbounded; its random starts then use the start range).
  // A size mismatch with the kernel is reported by FitOptionsMatchKernel (below) and
  // FitHyperparameters (it throws std::invalid_argument). Default empty.
  std::vector<double> lower_log_bounds;
  std::vector<double> upper_log_bounds;

  // Log-normal priors (MAP) on the kernel log-params, in GetLogParams() order: empty (the
  // default) for none, or one per kernel log-param (stddev_log = infinity for "no prior on this
  // one"). The noise prior applies when fit_noise. Priors on log-params are normal, so the MAP
  // objective is log p(y | theta) + sum_j log N(theta_j; mean_log_j, stddev_log_j^2).
  std::vector<LogNormalPrior> kernel_priors;
  LogNormalPrior noise_prior;

  // True if every field is in range; otherwise false and *error (if non-null) names the field
  // and its value. Sizes against the kernel are checked by FitOptionsMatchKernel.
  bool IsValid(std::string* error) const;
};

// True if the kernel-sized fields of options (lower_log_bounds, upper_log_bounds,
// kernel_priors: each empty or of kernel.NumParams() entries) fit `kernel`; otherwise false and
// *error (if non-null) names the field, its size, the kernel and its number of log-params, e.g.
// "kernel_priors has 2 entries but the kernel matern52(dims=0,1,2; ard) has 4 log-params
// (matern52.log_variance, ...)". Callers prefix the struct's name (the Optimizer checks its
// `fit` options against its kernel when it is built, so that a mismatch is refused there).
bool FitOptionsMatchKernel(const HyperparameterFitOptions& options, const Kernel& kernel,
                           std::string* error);

// The bounds and start range of a kernel log-param of `kind` in a fit with `options` (values,
// not logs): options.kind_ranges[kind's name] if given, else the fields of options for the
// built-in kinds (min_lengthscale, ...; kOther shares the signal variance's), else the kind's
// registered default range.
ParamRange FitRange(const HyperparameterFitOptions& options, ParamKind kind);

// The default bounds of kernel log-params of the given kinds (log space, one pair per kind:
// the logs of FitRange's min and max): what a fit with empty lower_log_bounds and
// upper_log_bounds uses. A caller that must narrow one log-param's bounds (the Optimizer, for a
// forgetting kernel's log(epsilon) < 0, or a safe strategy's cautious refits) starts from these.
void DefaultLogBounds(const HyperparameterFitOptions& options, const std::vector<ParamKind>& kinds,
                      std::vector<double>* lower, std::vector<double>* upper);

// DefaultLogBounds narrowed for a safe strategy's refits, which must never make the model more
// confident than the one it started from (initial_log_params, one per kind): each log-param's
// kind's cautious direction (param_kind.h) moves one bound to the initial value (lengthscales:
// upper bound = min(upper, initial), may only shrink; signal variances: lower bound =
// max(lower, initial), may only grow; kFree kinds keep both). An initial value beyond the
// default range on the cautious side gets a range of width 1 (in log space) reaching it from
// that side. Throws std::invalid_argument unless initial_log_params has one entry per kind.
void CautiousLogBounds(const HyperparameterFitOptions& options, const std::vector<ParamKind>& kinds,
                       const Eigen::VectorXd& initial_log_params, std::vector<double>* lower,
                       std::vector<double>* upper);

// How a fit ended (after Ceres' TerminationType).
enum class FitTermination {
  kConvergence,    // the winning start met a convergence tolerance
  kNoConvergence,  // the winning start ran out of iterations; its result is used all the same
  kFailure,        // every start failed: the GP kept its previous hyperparameters
  kNotRun,         // nothing to fit (no observations)
};
// "CONVERGENCE", "NO_CONVERGENCE", "FAILURE", "NOT_RUN" (Ceres' spelling).
std::string FitTerminationName(FitTermination termination);

struct HyperparameterFitReport {
  // True if at least one start succeeded and its hyperparameters were set on the GP.
  bool success = false;
  // True if the GP kept the hyperparameters it had (every start failed, or no data).
  bool kept_previous = false;
  // log p(y | X, theta) at the hyperparameters the GP holds after the fit (standardized outputs);
  // -infinity if it cannot be evaluated there (only possible when kept_previous).
  double log_marginal_likelihood = -std::numeric_limits<double>::infinity();
  // The maximized objective: log_marginal_likelihood plus the log priors (equal to it when no
  // prior is set), at the returned hyperparameters.
  double log_posterior = -std::numeric_limits<double>::infinity();
  // L-BFGS iterations summed over all starts, and the number of starts run (1 + num_restarts).
  int iterations = 0;
  int num_starts = 0;
  // The start that won (0 = the previous hyperparameters), -1 if none succeeded.
  int best_start = -1;
  // One line per start: its outcome, iterations and final objective.
  std::vector<std::string> start_outcomes;
  // Indices of the starts that failed.
  std::vector<int> failed_starts;
  // How the winning start's L-BFGS solve ended (kConvergence or kNoConvergence), or kFailure
  // when every start failed, kNotRun when there was nothing to fit.
  FitTermination termination = FitTermination::kNotRun;
  // Names (Kernel::ParamNames(), and "log_noise_variance") of the log-params that ended within
  // kBoundTolerance of the interval width of a bound, with the bound, e.g.
  // "se.log_lengthscale[1] at upper bound 4.60517".
  std::vector<std::string> params_at_bound;
  // The hyperparameters the GP holds after the fit (the previous ones if kept_previous).
  Eigen::VectorXd kernel_log_params;
  double noise_variance = 0.0;
  // A human-readable summary of what happened (why every start failed, when kept_previous).
  std::string message;

  // One line: success, LML, starts, failures, iterations, termination, params at bounds.
  std::string BriefReport() const;
};

// Fits gp's kernel log-params (and its noise variance, if options.fit_noise) to gp's data: its
// inputs() and standardized_outputs(). On success sets them on *gp (SetHyperparameters, one
// refactorization); if every start fails (or the GP has no observations) keeps the previous
// ones, sets kept_previous and says why. Random starts draw from rng.
// Throws std::invalid_argument (and leaves *gp and rng untouched) for a null gp, invalid options
// (the message names the field and value), or bounds/priors whose size does not match
// gp->kernel().NumParams().
HyperparameterFitReport FitHyperparameters(const HyperparameterFitOptions& options, Rng& rng,
                                           GaussianProcess* gp);

// The fraction of a bound interval by which starts are moved inside, and within which a final
// value counts as "at the bound" (and is snapped exactly onto it when the gradient presses it
// against that bound).
constexpr double kStartMargin = 1e-6;
constexpr double kBoundTolerance = 1e-4;

}  // namespace gpbandit

#endif  // GPBANDIT_HYPERPARAMS_FIT_H_
