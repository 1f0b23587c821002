#include "optimizer/observed_points.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpbandit {

Eigen::VectorXd ObservedMeans(const std::vector<Observation>& observations,
                              const Eigen::VectorXd& row_means, std::vector<int>* index,
                              int target_fidelity) {
  index->clear();
  std::vector<Eigen::Index> rows;
  Eigen::Index row = 0;
  for (int i = 0; i < static_cast<int>(observations.size()); ++i) {
    const Observation& o = observations[static_cast<std::size_t>(i)];
    if (o.in_model() && row >= row_means.size())
      throw std::logic_error("the model holds " + std::to_string(row_means.size()) +
                             " observations, fewer than the ones told to it");
    const bool at_target = target_fidelity < 0 || o.fidelity == target_fidelity;
    if (o.accepted && at_target && !std::isnan(row_means(row))) {
      index->push_back(i);
      rows.push_back(row);
    }
    if (o.in_model()) ++row;
  }
  if (rows.empty()) return Eigen::VectorXd();
  const Eigen::VectorXd& all = row_means;
  Eigen::VectorXd means(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) means(static_cast<Eigen::Index>(j)) = all(rows[j]);
  return means;
}

Eigen::MatrixXd BestStarts(const Domain& domain, const std::vector<Observation>& observations,
                           const Eigen::VectorXd& means, const std::vector<int>& index,
                           const Eigen::VectorXd& unit_z, int count) {
  std::vector<std::pair<double, int>> scored;
  for (std::size_t j = 0; j < index.size(); ++j)
    scored.emplace_back(-means(static_cast<Eigen::Index>(j)), index[j]);
  const int k = std::min<int>(count, static_cast<int>(scored.size()));
  std::partial_sort(scored.begin(), scored.begin() + k, scored.end());
  Eigen::MatrixXd starts(domain.input_dim(), k);
  for (int j = 0; j < k; ++j) {
    const Observation& o =
        observations[static_cast<std::size_t>(scored[static_cast<std::size_t>(j)].second)];
    Eigen::VectorXd u = domain.ToUnit(o.x, o.z);
    // The observed action under this round's context.
    if (domain.context_dim() > 0) u.tail(domain.context_dim()) = unit_z;
    starts.col(j) = u;
  }
  return starts;
}

}  // namespace gpbandit
