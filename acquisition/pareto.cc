#include "gpbandit/acquisition/pareto.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace gpbandit {
namespace {

bool EqualColumns(const Eigen::MatrixXd& points, int a, int b) {
  return (points.col(a).array() == points.col(b).array()).all();
}

}  // namespace

void RequireFiniteMatrix(const Eigen::MatrixXd& m, const std::string& field) {
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      if (!std::isfinite(m(i, j))) {
        std::ostringstream message;
        message << field << "(" << i << ", " << j << ") = " << m(i, j) << " is not finite";
        throw std::invalid_argument(message.str());
      }
    }
  }
}

bool Dominates(const Eigen::Ref<const Eigen::VectorXd>& a,
               const Eigen::Ref<const Eigen::VectorXd>& b) {
  if (a.size() != b.size()) {
    throw std::invalid_argument("Dominates: a has " + std::to_string(a.size()) +
                                " objectives but b has " + std::to_string(b.size()));
  }
  bool strictly_better_somewhere = false;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    if (a(i) < b(i)) return false;
    if (a(i) > b(i)) strictly_better_somewhere = true;
  }
  return strictly_better_somewhere;
}

std::vector<int> NonDominatedIndices(const Eigen::MatrixXd& points, Duplicates duplicates) {
  RequireFiniteMatrix(points, "points");
  const int n = static_cast<int>(points.cols());
  std::vector<int> kept;
  for (int j = 0; j < n; ++j) {
    bool keep = true;
    for (int other = 0; other < n && keep; ++other) {
      if (other == j) continue;
      if (Dominates(points.col(other), points.col(j))) keep = false;
      // The earlier of two equal points represents both.
      if (duplicates == Duplicates::kKeepFirst && other < j && EqualColumns(points, other, j))
        keep = false;
    }
    if (keep) kept.push_back(j);
  }
  return kept;
}

std::vector<double> CrowdingDistance(const Eigen::MatrixXd& points, const std::vector<int>& front) {
  const int size = static_cast<int>(front.size());
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<double> distance(size, 0.0);
  if (size <= 2) return std::vector<double>(size, infinity);
  std::vector<int> order(size);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return points(i, front[a]) < points(i, front[b]); });
    const double low = points(i, front[order.front()]);
    const double range = points(i, front[order.back()]) - low;
    distance[order.front()] = infinity;
    distance[order.back()] = infinity;
    if (range == 0.0) continue;  // as pagmo: a flat objective separates nothing
    for (int r = 1; r + 1 < size; ++r) {
      const double gap = points(i, front[order[r + 1]]) - points(i, front[order[r - 1]]);
      distance[order[r]] += gap / range;
    }
  }
  return distance;
}

NonDominatedSortingResult NonDominatedSorting(const Eigen::MatrixXd& points) {
  RequireFiniteMatrix(points, "points");
  const int n = static_cast<int>(points.cols());
  NonDominatedSortingResult result;
  result.rank.assign(n, -1);
  result.crowding_distance.assign(n, 0.0);
  // Deb's bookkeeping: who each point dominates, and by how many it is dominated.
  std::vector<std::vector<int>> dominated(n);
  std::vector<int> domination_count(n, 0);
  std::vector<int> current;
  for (int p = 0; p < n; ++p) {
    for (int q = 0; q < n; ++q) {
      if (p == q) continue;
      if (Dominates(points.col(p), points.col(q)))
        dominated[p].push_back(q);
      else if (Dominates(points.col(q), points.col(p)))
        ++domination_count[p];
    }
    if (domination_count[p] == 0) current.push_back(p);
  }
  while (!current.empty()) {
    std::sort(current.begin(), current.end());
    const int rank = static_cast<int>(result.fronts.size());
    std::vector<int> next;
    for (int p : current) {
      result.rank[p] = rank;
      for (int q : dominated[p])
        if (--domination_count[q] == 0) next.push_back(q);
    }
    const std::vector<double> crowding = CrowdingDistance(points, current);
    for (size_t r = 0; r < current.size(); ++r) result.crowding_distance[current[r]] = crowding[r];
    result.fronts.push_back(current);
    current = std::move(next);
  }
  return result;
}

}  // namespace gpbandit
