// SafeOpt's choice on a finite set of points (Sui, Gotovos, Burdick & Krause, ICML 2015,
// "Safe exploration for optimization with Gaussian processes", Algorithm 1; in the form without
// a Lipschitz constant and with several safety signals of Berkenkamp, Krause & Schoellig 2016,
// "Bayesian optimization with safety constraints: safe and automatic parameter tuning in
// robotics", SafeOpt-MC).
//
// Signals i = 0..m: each a GP with confidence interval [l_i(x), u_i(x)] = mu_i(x) -+ beta
// sigma_i(x) and, if it is a safety signal, a threshold h_i. On the points X:
//   safe set       S = {x : l_i(x) >= h_i for every safety signal i} (plus points declared safe);
//   maximizers     M = {x in S : u_0(x) >= max_{x' in S} l_0(x')}, signal 0 the objective;
//   expanders      G = {x in S : observing u_i(x) for every safety signal i at x (with the
//                       GP's noise) would put some x' not in S into S};
//   choice         argmax over G u M of the width max_i (u_i(x) - l_i(x)) / width_scale_i.
// The widths of signals in different units are compared after dividing by width_scale_i (the
// optimizer passes each GP's prior standard deviation), as the SafeOpt library's "scaling".
//
// The bounds are those of the current posteriors (no intersection with earlier rounds'
// intervals): after a refit the safe set may shrink, never grow on stale evidence.
//
// A safety signal may cap the mean its lower bound starts from (max_mean): l_i(x) =
// min(mu_i(x), max_mean_i) - beta sigma_i(x). The Optimizer caps each at the largest value the
// signal was measured at: a GP extrapolating a trend promises, beyond its data, more margin
// than was ever seen; the cap keeps those points out of the safe set until an evaluation shows
// the margin (docs/robot_tuning.md, "No more margin than was measured").
//
// Cost: one batched prediction per signal (O(N t^2)); the expander test visits the safe points
// in order of decreasing width and stops at the first maximizer or expander; each test needs the
// posterior covariances between the point and the unsafe points that could become safe (only
// those with u_i(x') >= h_i for all i can: l_i after the update is <= u_i before it).
//
// Thread-safety: pure functions of const GPs.
#ifndef GPBANDIT_SAFE_SAFE_SET_H_
#define GPBANDIT_SAFE_SAFE_SET_H_

#include <Eigen/Core>
#include <limits>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"

namespace gpbandit {

struct SafeSignal {
  // The model of the signal (outputs in the units of threshold). Not owned; must outlive use.
  const GaussianProcess* gp = nullptr;
  // h_i: the signal must be >= it for a point to be safe. NaN: not a safety signal (its bounds
  // only enter maximizers, for signal 0, and the widths).
  double threshold = std::numeric_limits<double>::quiet_NaN();
  // The divisor of its confidence width in the choice; > 0. Default 1.
  double width_scale = 1.0;
  // The model whose variance gives the widths (pending points hallucinated); nullptr = gp.
  const GaussianProcess* gp_for_widths = nullptr;
  // The cap on the mean of the lower bound (see above). Default +infinity (none).
  double max_mean = std::numeric_limits<double>::infinity();
};

// Every signal's posterior (mean, stddev of f) and bounds at the points: rows = signals,
// columns = points.
struct SafeBounds {
  Eigen::MatrixXd mean, stddev, lower, upper;
};

SafeBounds ComputeSafeBounds(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                             double beta);

// S: true where every safety signal's lower bound is >= its threshold, or declared_safe is
// true (declared_safe: empty, or one entry per column of X).
std::vector<bool> SafeMask(const std::vector<SafeSignal>& signals, const SafeBounds& bounds,
                           const std::vector<bool>& declared_safe);

// Whether point j of X is an expander (above), given the bounds and the safe mask.
bool IsExpander(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                const SafeBounds& bounds, const std::vector<bool>& safe, int j, double beta);

struct SafeChoice {
  int index = -1;          // the chosen column of X; -1 when S is empty
  bool maximizer = false;  // it is in M
  bool expander = false;   // it is in G (tested only when it is not a maximizer)
  double width = 0.0;      // its scaled width
  int safe_set_size = 0;   // |S|
};

// max_i (u_i - l_i) / width_scale_i at every column of X, from each signal's gp_for_widths
// (bounds.stddev where a signal has none): the widths the choice compares.
Eigen::VectorXd ScaledWidths(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                             const SafeBounds& bounds, double beta);

// The bounds of further points `more` appended to those of X (and `more` to X): a choice among
// X and `more` then needs no prediction at X again.
void AppendPoints(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& more, double beta,
                  Eigen::MatrixXd* X, SafeBounds* bounds);

// The objective's optimistic value u_0(x) = mu_0(x) + beta sigma_0'(x) at every column of X,
// sigma_0' from signals[0].gp_for_widths (pending points hallucinated; bounds.stddev when none).
Eigen::VectorXd OptimisticObjective(const std::vector<SafeSignal>& signals,
                                    const Eigen::MatrixXd& X, const SafeBounds& bounds,
                                    double beta);

// The goal-directed choice (safe-opt's rule "ucb"): the point of the safe set S with the
// highest optimistic objective (OptimisticObjective; the first of equal ones). It is in M
// (above), but no expander is sought: S grows where the objective may improve, at no cost in
// safety (every choice is in S either way; docs/benchmarks.md, section "Safe tuning on a plant
// family"); unlike Sui et al.'s rule it may stop short of an optimum that only a detour through
// low rewards leads to.
SafeChoice ChooseOptimistic(const std::vector<SafeSignal>& signals, const SafeBounds& bounds,
                            const Eigen::VectorXd& optimistic,
                            const std::vector<bool>& declared_safe);

// SafeOpt's choice among the columns of X given their bounds and widths (ComputeSafeBounds,
// ScaledWidths); ChooseSafePoint computes them first.
SafeChoice ChooseAmong(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                       const SafeBounds& bounds, const Eigen::VectorXd& widths,
                       const std::vector<bool>& declared_safe, double beta);

// SafeOpt's choice among the columns of X (input_dim x N). signals: at least one; signals[0]
// is the objective. beta > 0 (the multiplier of sigma, Sui et al.'s beta_t^{1/2}). Throws
// std::invalid_argument for an empty signal list, a null GP, a non-positive width_scale or
// beta, a NaN max_mean, or a declared_safe of the wrong size.
SafeChoice ChooseSafePoint(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                           const std::vector<bool>& declared_safe, double beta);

}  // namespace gpbandit

#endif  // GPBANDIT_SAFE_SAFE_SET_H_
