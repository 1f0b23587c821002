// The hypervolume indicator (Zitzler & Thiele 1998) for objectives to be maximized: the
// Lebesgue measure of the region dominated by a set P and dominating a reference point r,
//   HV(P; r) = vol( union_{p in P} [r, p] ),
// in the product of the objectives' units. And the decomposition of the region that P does NOT
// dominate, {z >= r : no p in P has p >= z}, into disjoint axis-aligned boxes, the cells over
// which expected hypervolume improvement has a closed form (ehvi.h).
//
// Points are the columns of a k x n matrix; reference has k entries. Contract (all functions):
// every entry finite, reference.size() == points.rows(), and every point weakly dominates the
// reference (p_i >= r_i for all i; pagmo's hypervolume asks the same of its reference point);
// anything else throws std::invalid_argument naming the field, the entry and its value. A point
// equal to r in some objective contributes nothing. PointsDominatingReference selects the
// points that may be given (an optimizer's front early in a run may have none).
//
// Algorithms:
//  - Hypervolume: exact by slicing along the last objective (Hypervolume by Slicing Objectives,
//    While, Hingston, Barone & Huband, IEEE TEC 2006), down to the 2-D sweep. O(n log n) for
//    k = 2, O(n^2 log n) for k = 3, O(n^(k-1) log n) in general: exact for every k, practical
//    up to k = 4 or 5 with n ~ 100.
//  - HypervolumeInclusionExclusion: sum over the non-empty subsets S of P of
//    (-1)^(|S|+1) prod_i (min_{p in S} p_i - r_i); an independent exact value for testing,
//    O(2^n k), refused for n > 20.
//  - HypervolumeMonteCarlo: uniform samples in the box [r, max_p p]; the estimate and its
//    standard error, for many objectives.
//  - NonDominatedBoxes: the same slicing, each slice's (k-1)-dimensional boxes extended across
//    consecutive slices when unchanged. Boxes are disjoint (up to their faces), cover the
//    non-dominated region exactly, and are unbounded above (upper = +infinity) where the region
//    is. O(n^(k-1)) boxes; for k <= 3 (the sizes EHVI uses), at most (n + 1)^2 boxes.
//
// Thread-safety: free functions without shared state (HypervolumeMonteCarlo draws from the
// caller's generator, which must not be shared); safe to call concurrently.
#ifndef GPBANDIT_ACQUISITION_HYPERVOLUME_H_
#define GPBANDIT_ACQUISITION_HYPERVOLUME_H_

#include <Eigen/Core>

#include "gpbandit/numerics/random.h"

namespace gpbandit {

// The columns of points that strictly dominate the reference in every objective (the ones that
// contribute hypervolume), in their order. Only sizes and finiteness are checked.
Eigen::MatrixXd PointsDominatingReference(const Eigen::MatrixXd& points,
                                          const Eigen::VectorXd& reference);

double Hypervolume(const Eigen::MatrixXd& points, const Eigen::VectorXd& reference);

double HypervolumeInclusionExclusion(const Eigen::MatrixXd& points,
                                     const Eigen::VectorXd& reference);

// The hypervolume that y adds to points: HV(P u {y}) - HV(P), computed as
// vol([r, y]) - HV({min(p, y) : p in P}). Zero when y does not strictly dominate r. y need not
// dominate r (it is a candidate outcome); points must, as above.
double HypervolumeImprovement(const Eigen::VectorXd& y, const Eigen::MatrixXd& points,
                              const Eigen::VectorXd& reference);

struct MonteCarloEstimate {
  double value = 0.0;
  double standard_error = 0.0;
};

// samples >= 1 uniform draws in [r, max_p p].
MonteCarloEstimate HypervolumeMonteCarlo(const Eigen::MatrixXd& points,
                                         const Eigen::VectorXd& reference, int samples, Rng& rng);

// Box j is [lower.col(j), upper.col(j)] (k x B each; upper entries may be +infinity).
struct BoxDecomposition {
  Eigen::MatrixXd lower;
  Eigen::MatrixXd upper;
  int size() const { return static_cast<int>(lower.cols()); }
};

// The boxes of the region not dominated by points (above the reference); 1 <= k <= 3.
BoxDecomposition NonDominatedBoxes(const Eigen::MatrixXd& points, const Eigen::VectorXd& reference);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_HYPERVOLUME_H_
