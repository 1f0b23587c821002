// The one random-number generator type of gpbandit. Every random choice draws from an Rng
// seeded by the caller, so that a seed fixes a run (independently of the thread count).
#ifndef GPBANDIT_NUMERICS_RANDOM_H_
#define GPBANDIT_NUMERICS_RANDOM_H_

#include <Eigen/Core>
#include <cstdint>
#include <initializer_list>
#include <random>

namespace gpbandit {

using Rng = std::mt19937_64;

// A generator seeded from several keys (e.g. a run's seed, a trial index, a stream number)
// through std::seed_seq, each 64-bit key given as two 32-bit words. Unlike Rng(seed + trial),
// keys that differ anywhere give unrelated streams: (seed 1, trial 2) and (seed 2, trial 1) do
// not share a problem instance. The same keys give the same stream on every platform
// (seed_seq's algorithm is specified by the C++ standard).
Rng SeededRng(std::initializer_list<std::uint64_t> keys);
// A 64-bit seed derived from keys the same way, for interfaces that take a seed
// (OptimizerOptions::seed).
std::uint64_t DerivedSeed(std::initializer_list<std::uint64_t> keys);

// n independent standard normal draws.
Eigen::VectorXd StandardNormalVector(int n, Rng& rng);
// rows x cols independent standard normal draws (filled column by column).
Eigen::MatrixXd StandardNormalMatrix(int rows, int cols, Rng& rng);

// One draw of N(0, covariance): L z, where L is the lower Cholesky factor of covariance + j I
// and z = StandardNormalVector(n, rng). The jitter j climbs the ladder of the Gaussian process
// (gaussian_process.h: 0, then 1e-10, 1e-9, ... times the mean of the diagonal, up to
// max_relative_jitter times it), so that a rank-deficient covariance (a kernel's Gram matrix on
// a fine grid) still gives a draw whose covariance is off by at most j. covariance: n x n,
// symmetric positive semi-definite (only its lower triangle is read). For drawing a function
// from a GP prior at given points, e.g. a test problem f ~ GP(0, k) (GaussianProcess::SampleJoint
// draws from a posterior). Throws std::invalid_argument for a matrix that is not square or a
// max_relative_jitter outside (0, 1], std::runtime_error when even the largest jitter leaves
// the matrix not factorizable. O(n^3).
Eigen::VectorXd SampleMultivariateNormal(const Eigen::MatrixXd& covariance, Rng& rng,
                                         double max_relative_jitter = 1e-2);

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_RANDOM_H_
