#include "gpbandit/gp/random.h"

namespace gpbandit {

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

}  // namespace gpbandit
