#include "gpbandit/numerics/random.h"

#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"
#include "numerics/cholesky.h"
#include "numerics/seed_sequence.h"

namespace gpbandit {
Rng SeededRng(std::initializer_list<std::uint64_t> keys) {
  SeedSequence seq = SeedSequence::FromKeys(keys);
  return Rng(seq);
}

std::uint64_t DerivedSeed(std::initializer_list<std::uint64_t> keys) {
  std::uint32_t out[2];
  SeedSequence::FromKeys(keys).generate(out, out + 2);
  return static_cast<std::uint64_t>(out[0]) | (static_cast<std::uint64_t>(out[1]) << 32);
}

Eigen::VectorXd StandardNormalVector(int n, Rng& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::VectorXd z(n);
  for (int i = 0; i < n; ++i) z(i) = normal(rng);
  return z;
}

Eigen::MatrixXd StandardNormalMatrix(int rows, int cols, Rng& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd z(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) z(i, j) = normal(rng);
  return z;
}

Eigen::VectorXd SampleMultivariateNormal(const Eigen::MatrixXd& covariance, Rng& rng,
                                         double max_relative_jitter) {
  if (covariance.rows() != covariance.cols())
    throw std::invalid_argument("SampleMultivariateNormal: the covariance is " +
                                std::to_string(covariance.rows()) + " x " +
                                std::to_string(covariance.cols()) + ", not square");
  if (!(max_relative_jitter > 0.0 && max_relative_jitter <= 1.0))
    throw std::invalid_argument("SampleMultivariateNormal: max_relative_jitter = " +
                                FormatDouble(max_relative_jitter) + " must be in (0, 1]");
  const JitteredCholesky chol = FactorizeWithJitter(covariance, max_relative_jitter);
  if (!chol.ok)
    throw std::runtime_error(
        "SampleMultivariateNormal: the covariance is not positive semi-definite (not "
        "factorizable with a jitter of up to " +
        FormatDouble(max_relative_jitter) + " times its mean diagonal)");
  return chol.lower.triangularView<Eigen::Lower>() *
         StandardNormalVector(static_cast<int>(covariance.rows()), rng);
}

}  // namespace gpbandit
