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
// Cost: one batched prediction per signal (O(N t^2)); the expander test visits the safe points
// in order of decreasing width and stops at the first maximizer or expander; each test needs the
// posterior covariances between the point and the unsafe points that could become safe (only
// those with u_i(x') >= h_i for all i can: l_i after the update is <= u_i before it).
//
// Thread-safety: pure functions of const GPs.
#ifndef GPBANDIT_ACQUISITION_SAFE_SET_H_
#define GPBANDIT_ACQUISITION_SAFE_SET_H_

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
};

// Every signal's bounds at the points: rows = signals, columns = points.
struct SafeBounds {
  Eigen::MatrixXd lower, upper;
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

// SafeOpt's choice among the columns of X (input_dim x N). signals: at least one; signals[0]
// is the objective. beta > 0 (the multiplier of sigma, Sui et al.'s beta_t^{1/2}). Throws
// std::invalid_argument for an empty signal list, a null GP, a non-positive width_scale or
// beta, or a declared_safe of the wrong size.
SafeChoice ChooseSafePoint(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                           const std::vector<bool>& declared_safe, double beta);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_SAFE_SET_H_
