#include "optimizer/initial_design.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gpbandit/maximizer/box_maximizer.h"
#include "gpbandit/space/space_transform.h"
#include "study/round_rng.h"

namespace gpbandit {

int InitialDesign::Size(const Domain& domain, int requested, bool safe_strategy) {
  if (safe_strategy) return 0;
  int n = requested;
  if (n < 0) n = std::max(2, domain.action_dim() + 1);
  if (domain.kind() == DomainKind::kFiniteSet) n = std::min(n, domain.num_candidates());
  return n;
}

InitialDesign::InitialDesign(const Domain& domain, int size, const Eigen::VectorXd& unit_upper,
                             std::uint64_t seed) {
  Rng rng = RoundRng(seed, 0, kStreamDesign);
  if (size == 0) return;
  if (domain.kind() == DomainKind::kBox) {
    points_ = LatinHypercube(Eigen::VectorXd::Zero(domain.action_dim()), unit_upper, size, rng);
    return;
  }
  if (domain.kind() == DomainKind::kSpace) {  // uniform positions, legal through FromUniform
    points_ = LatinHypercube(Eigen::VectorXd::Zero(domain.action_dim()),
                             Eigen::VectorXd::Ones(domain.action_dim()), size, rng);
    return;
  }
  // A random subset of the candidates (Fisher-Yates on the index list).
  std::vector<int> index(static_cast<std::size_t>(domain.num_candidates()));
  std::iota(index.begin(), index.end(), 0);
  for (int i = static_cast<int>(index.size()) - 1; i > 0; --i) {
    std::uniform_int_distribution<int> pick(0, i);
    std::swap(index[static_cast<std::size_t>(i)], index[static_cast<std::size_t>(pick(rng))]);
  }
  points_.resize(1, size);
  for (int j = 0; j < size; ++j) points_(0, j) = index[static_cast<std::size_t>(j)];
}

void InitialDesign::Take(const Domain& domain, long told, long active_pending,
                         AskCall* call) const {
  call->design_next = handed_out_;
  const long design_size = points_.cols();
  const int q = static_cast<int>(call->chosen.cols());
  for (int i = 0; i < q; ++i) {
    const long in_flight = told + active_pending + i;
    if (call->design_next >= design_size || in_flight >= design_size) {
      ++call->num_model;
      continue;
    }
    call->design_index[static_cast<std::size_t>(i)] = call->design_next;
    if (domain.kind() == DomainKind::kBox) {
      Eigen::VectorXd u(domain.input_dim());
      u.head(domain.action_dim()) = points_.col(call->design_next);
      call->chosen.col(i) = domain.ActionFromUnit(u);
    } else if (domain.kind() == DomainKind::kSpace) {
      call->chosen.col(i) = domain.action_transform()->FromUniform(points_.col(call->design_next));
    } else {
      const int c = static_cast<int>(points_(0, call->design_next));
      call->chosen.col(i) = domain.candidates().col(c);
      call->chosen_candidate.push_back(c);
    }
    ++call->design_next;
  }
}

}  // namespace gpbandit
