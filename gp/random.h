// The one random-number generator type of gpbandit. Every random choice draws from an Rng
// seeded by the caller, so that a seed fixes a run (independently of the thread count).
#ifndef GPBANDIT_GP_RANDOM_H_
#define GPBANDIT_GP_RANDOM_H_

#include <cstdint>
#include <random>

#include <Eigen/Core>

namespace gpbandit {

using Rng = std::mt19937_64;

// n independent standard normal draws.
Eigen::VectorXd StandardNormalVector(int n, Rng& rng);
// rows x cols independent standard normal draws (filled column by column).
Eigen::MatrixXd StandardNormalMatrix(int rows, int cols, Rng& rng);

}  // namespace gpbandit

#endif  // GPBANDIT_GP_RANDOM_H_
