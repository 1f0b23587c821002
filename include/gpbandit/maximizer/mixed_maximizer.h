// Maximizes a ContinuousAcquisition over a box some of whose coordinates take discrete levels
// only: integers (ordered levels) and categories (unordered levels). The point it returns is
// legal: each discrete coordinate exactly at one of its levels, every coordinate inside
// [lower, upper]. Under IntegerSearch::kLocalSearch so is every point it evaluates; the other
// integer searches climb through relaxed integers and evaluate their rounded ends.
//
// Algorithm:
// 1. Raw points: a seeded Latin hypercube in the box (options.box.num_raw_samples points),
//    each discrete coordinate moved to a level: an ordered one to the nearest level (so a
//    log-spaced integer is sampled log-uniformly, as its model coordinate is), an unordered
//    one to level floor(s L) for its position s in [0, 1) (uniform over the L labels). With
//    the extra starts (e.g. the best observed points, moved to their levels likewise) they are
//    scored through EvaluateMany.
// 2. Starts: the extra starts, the best distinct raw points up to options.box.num_starts in
//    all, and, when the discrete coordinates have at most options.enumerate_up_to
//    combinations, the best raw point of each combination (a missing combination takes the
//    best raw point's continuous coordinates): every small categorical product is climbed.
// 3. Each start alternates, at most options.max_alternations times, until the local search
//    moves nothing:
//    (a) L-BFGS (ClimbInBox, box_maximizer.h) on the continuous coordinates, the categories
//        held, and the integers either held (kLocalSearch) or relaxed to continuous ones and
//        then rounded to their nearest levels (kRelaxThenSearch, kRelaxAndRound), the rounded
//        point kept only if it gains;
//    (b) a local search on the discrete coordinates with the continuous ones held: each sweep
//        scores every single-coordinate move (an integer to the levels +-1, +-2, +-4, ...
//        away, skipped under kRelaxAndRound; a category to every other label) and takes the
//        best while it gains, at most options.max_sweeps moves.
//    Every candidate is thus scored at a legal point: the effect of Garrido-Merchan &
//    Hernandez-Lobato's rounding inside the kernel (Neurocomputing 2020), which makes the GP,
//    and the acquisition, constant within each integer's cell, without the flat regions a
//    gradient cannot cross; the relaxed climb follows the acquisition's trend across many
//    integers at once, the local search makes the last steps exactly. The default,
//    kRelaxThenSearch, was chosen over either alone by measurement (docs/benchmarks.md, "Mixed
//    spaces").
// 4. The best point found wins (ties: the lowest start). If nothing finite came out, the first
//    candidate is returned with value NaN.
//
// Coordinates with lower == upper are fixed (a context). Determinism: every random number is
// drawn before the starts, which run under OpenMP (the process's first Ceres solve alone on
// the calling thread) and are independent, so the result does not depend on the thread count;
// an exception thrown by the acquisition is rethrown after the parallel region (the first by
// start index).
#ifndef GPBANDIT_MAXIMIZER_MIXED_MAXIMIZER_H_
#define GPBANDIT_MAXIMIZER_MIXED_MAXIMIZER_H_

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/maximizer/box_maximizer.h"
#include "gpbandit/maximizer/integer_search.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {

// One coordinate of the box that takes discrete levels only.
struct DiscreteCoordinate {
  int dim = 0;               // the input coordinate, free in the box (lower < upper)
  long long num_levels = 1;  // L >= 1
  // true: an integer, whose levels are ordered (neighbours are nearby levels); false: a
  // category, whose levels are all neighbours of one another.
  bool ordered = true;
  // The coordinate's value at level l in [0, L), inside [lower, upper] of dim; strictly
  // increasing in l when ordered. Must be callable concurrently.
  std::function<double(long long)> value_of_level;
};

struct MixedMaximizerOptions {
  // Raw points, starts, each L-BFGS climb's limits and the threads (box_maximizer.h).
  BoxMaximizerOptions box;
  // Alternations of L-BFGS and local search per start. >= 1. Default 3.
  int max_alternations = 3;
  // Moves of one local search. >= 1. Default 32: an integer of L levels is crossed in at most
  // about log2(L) moves of +-2^k.
  int max_sweeps = 32;
  // Every combination of discrete levels gets a start when there are at most this many
  // combinations (0: never). >= 0. Default 16.
  long long enumerate_up_to = 16;
  // integer_search.h. Default kRelaxThenSearch.
  IntegerSearch integer_search = IntegerSearch::kRelaxThenSearch;

  bool IsValid(std::string* error) const;
};

struct MixedMaximizerResult {
  Eigen::VectorXd x;        // the argmax found: legal, inside [lower, upper]
  double value = 0.0;       // the acquisition at x
  int starts_run = 0;       // starts climbed
  int num_evaluations = 0;  // acquisition evaluations in all

  std::string BriefReport() const;
};

// lower, upper: the box (dim), finite, lower <= upper. discrete: distinct free coordinates of
// the box, each with L >= 1 levels inside its bounds. extra_starts: dim x k (k >= 0). Throws
// std::invalid_argument (field, value) on bad input or invalid options.
MixedMaximizerResult MaximizeOverMixed(const ContinuousAcquisition& acquisition,
                                       const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                       const std::vector<DiscreteCoordinate>& discrete,
                                       const Eigen::MatrixXd& extra_starts,
                                       const MixedMaximizerOptions& options, Rng& rng);

// The level of an ordered coordinate nearest to value v (ties: the lower level), by bisection
// over value_of_level.
long long NearestLevel(const DiscreteCoordinate& coordinate, double v);

}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_MIXED_MAXIMIZER_H_
