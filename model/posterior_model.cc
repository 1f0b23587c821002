#include "model/posterior_model.h"

namespace gpbandit {

void PosteriorModel::SearchRegions(int /*action_dim*/, const Eigen::VectorXd& lower,
                                   const Eigen::VectorXd& upper, Eigen::MatrixXd* region_lower,
                                   Eigen::MatrixXd* region_upper,
                                   Eigen::MatrixXd* region_starts) const {
  region_lower->resize(lower.size(), 0);
  region_upper->resize(upper.size(), 0);
  region_starts->resize(lower.size(), 0);
}

std::vector<int> EvenlySpacedRows(int n, int count) {
  std::vector<int> rows;
  const int kept = count < n ? count : n;
  for (long long i = 0; i < kept; ++i)
    rows.push_back(count >= n ? static_cast<int>(i) : static_cast<int>(i * n / count));
  return rows;
}

}  // namespace gpbandit
