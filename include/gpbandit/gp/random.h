// The one random-number generator type of gpbandit. Every random choice draws from an Rng
// seeded by the caller, so that a seed fixes a run (independently of the thread count).
#ifndef GPBANDIT_GP_RANDOM_H_
#define GPBANDIT_GP_RANDOM_H_

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

}  // namespace gpbandit

#endif  // GPBANDIT_GP_RANDOM_H_
