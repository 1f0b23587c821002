// A generated family of minimization problems for choosing defaults on one half and reporting
// them on the other (bench/pagmo_heldout_study.cc). Every problem is a box and a function to
// minimize, made from a kind, a dimension and an instance seed; the instance seed decides the
// half: even seeds are the tuning half, odd seeds the held-out half. Each half holds two
// instances of every kind, one in 2-5 dimensions and one in 6-10 (the dimension is drawn from
// the instance seed), so the halves cover the same kinds on different random instances and
// dimensions.
//
// Kinds (f* = the minimum over the box):
// - ackley, rastrigin, rosenbrock, levy: the classic function (Surjanovic & Bingham's forms and
//   boxes: [-32.768, 32.768], [-5.12, 5.12], [-5, 10], [-10, 10]) randomly rotated and shifted:
//   f(x) = g(R (x - s) + z*), R a Haar-random rotation, s uniform in the middle 60% of the box,
//   z* g's own minimizer; f* = 0 at x = s.
// - quadratic: (x - s)' Q' diag(lambda) Q (x - s), Q a random rotation, lambda log-spaced over a
//   condition number 10^3..10^6 drawn per instance, on [-5, 5]; f* = 0.
// - face, corner: convex quadratics (condition number 10..100) plus a linear term whose minimum
//   over [0, 1]^d is a point p on the boundary: on a face (1..d/2 coordinates at a bound) or at
//   a vertex. f(x) = (x - p)' H (x - p) + g'(x - p) with g_i pointing out of the box on the
//   bound coordinates and 0 elsewhere, so p satisfies the KKT conditions of a convex problem;
//   f* = 0.
// - styblinski-face: Styblinski-Tang, 0.5 sum(x^4 - 16 x^2 + 5 x), separable, on
//   [l_i, 5] with l_i uniform in [-3.5, -1.5]: each coordinate's minimum is at its lower bound
//   or at the interior local minimum 2.7468, whichever is lower; f* computed per coordinate.
// - gp-se, gp-matern: a sample path of a zero-mean GP with a squared-exponential or Matern-5/2
//   kernel (signal variance 1, lengthscales log-uniform in [0.1, 0.4] per coordinate) on
//   [0, 1]^d, drawn through 512 random Fourier features; f* not known (NaN).
// - gp-se-noisy, rosenbrock-noisy, corner-noisy: as above, observed with Gaussian noise of
//   standard deviation 0.02 x the function's standard deviation over the box (estimated on 1000
//   uniform points of the instance).
//
// Names: "<kind>-<d>d-<seed>", e.g. "levy-7d-13". MakeFamilyProblem(name) rebuilds the same
// problem from its name alone, bit for bit on one platform.
#ifndef GPBANDIT_BENCH_PROBLEM_FAMILY_H_
#define GPBANDIT_BENCH_PROBLEM_FAMILY_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpbandit {
namespace bench {

struct GeneratedProblem {
  std::string name, kind;
  int dim = 0;
  unsigned instance_seed = 0;
  Eigen::VectorXd lower, upper;
  // The noise-free value to minimize at a point of the box.
  std::function<double(const Eigen::VectorXd&)> value;
  // Standard deviation of the observation noise; 0 for noiseless kinds.
  double noise_sd = 0.0;
  // The minimum over the box and a point of the box where f takes it, when known; else NaN and
  // empty.
  double min_value = 0.0;
  Eigen::VectorXd argmin;
};

enum class FamilyHalf { kTuning, kHeldOut };

// "tuning" or "heldout" (throws std::invalid_argument naming the value otherwise).
FamilyHalf ParseFamilyHalf(const std::string& text);
// Every kind, in the order of the tables.
const std::vector<std::string>& FamilyKinds();
// The problems of one half: two instances per kind (2-5 and 6-10 dimensions).
std::vector<std::string> FamilyProblemNames(FamilyHalf half);
// The half a problem's name belongs to (its seed's parity).
FamilyHalf HalfOf(const std::string& name);
// "<kind>-<d>d-<seed>" split into its parts; throws std::invalid_argument naming the text unless
// the kind is one of `kinds` and 1 <= d <= max_dim.
struct ProblemName {
  std::string kind;
  int dim = 0;
  unsigned seed = 0;
};
ProblemName ParseProblemName(const std::string& name, const std::vector<std::string>& kinds,
                             int max_dim);
// Two names per kind for one half: kind k's instance i (0 or 1) has the seed 4k + 2i + (0 for
// the tuning half, 1 for the held-out half) and a dimension drawn from that seed, in
// [low_min, low_max] for instance 0 and [high_min, high_max] for instance 1.
std::vector<std::string> HalfNames(const std::vector<std::string>& kinds, FamilyHalf half,
                                   int low_min, int low_max, int high_min, int high_max);
// Builds a problem from its name; throws std::invalid_argument for a name that is not
// "<known kind>-<d>d-<seed>" with 1 <= d <= 20.
GeneratedProblem MakeFamilyProblem(const std::string& name);

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_PROBLEM_FAMILY_H_
