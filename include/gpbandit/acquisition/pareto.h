// Pareto dominance for several objectives, all to be maximized (gpbandit's convention: an
// objective to be minimized is negated once, where it enters). A point a dominates b when
// a_i >= b_i for every objective i and a_j > b_j for at least one j; equal points (duplicates)
// do not dominate each other.
//
// Points are the columns of a k x n matrix (k objectives, n points), in the objectives' own
// units; nothing here rescales them.
//
// NonDominatedSorting is the fast non-dominated sorting of Deb, Pratap, Agarwal & Meyarivan
// (IEEE TEC 2002, NSGA-II) with its crowding distance, as pagmo's fast_non_dominated_sorting and
// crowding_distance compute them for minimization, mirrored here for maximization: front 0 holds
// the points no other point dominates, front r + 1 those dominated only by points of fronts
// 0..r. Duplicates share a front. Crowding distance (within a front): for each objective, the
// front's points sorted by it (stably, ties by index), the two extremes get +infinity and every
// other point the gap between its neighbours divided by the front's range in that objective (an
// objective whose range is 0 adds nothing); summed over objectives. Fronts of one or two points
// are all +infinity.
//
// Contract: every entry finite (NaN or infinity throws std::invalid_argument naming the entry);
// k >= 1; n may be 0. O(k n^2) time.
//
// Thread-safety: free functions without shared state; safe to call concurrently.
#ifndef GPBANDIT_ACQUISITION_PARETO_H_
#define GPBANDIT_ACQUISITION_PARETO_H_

#include <Eigen/Core>
#include <string>
#include <vector>

namespace gpbandit {

// Whether a dominates b (maximization). Sizes must match.
bool Dominates(const Eigen::Ref<const Eigen::VectorXd>& a,
               const Eigen::Ref<const Eigen::VectorXd>& b);

// What the non-dominated filter does with equal non-dominated points.
enum class Duplicates {
  kKeepAll,    // every copy is returned (none dominates another)
  kKeepFirst,  // only the copy with the smallest index
};

// Indices (ascending) of the columns of points that no other column dominates.
std::vector<int> NonDominatedIndices(const Eigen::MatrixXd& points,
                                     Duplicates duplicates = Duplicates::kKeepAll);

struct NonDominatedSortingResult {
  // fronts[r]: the indices of the points of rank r, ascending.
  std::vector<std::vector<int>> fronts;
  // rank[j]: the front of point j (0 = non-dominated).
  std::vector<int> rank;
  // crowding_distance[j]: within the front of point j, as stated above.
  std::vector<double> crowding_distance;
};

NonDominatedSortingResult NonDominatedSorting(const Eigen::MatrixXd& points);

// The crowding distances of the points of one front (any set of columns), in the order of
// `front`.
std::vector<double> CrowdingDistance(const Eigen::MatrixXd& points, const std::vector<int>& front);

// Throws std::invalid_argument naming `field` and the first non-finite entry of m, if any.
void RequireFiniteMatrix(const Eigen::MatrixXd& m, const std::string& field);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_PARETO_H_
