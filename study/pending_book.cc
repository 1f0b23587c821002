#include "study/pending_book.h"

#include <algorithm>

namespace gpbandit {

bool SameVector(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && (a.size() == 0 || a == b);
}

void PendingBook::Add(const std::vector<PendingPoint>& points) {
  for (const PendingPoint& p : points) Add(p);
}

void PendingBook::Add(PendingPoint point) {
  if (point.trial < 0) point.trial = next_trial_;
  next_trial_ = std::max(next_trial_, point.trial + 1);
  points_.push_back(std::move(point));
}

int PendingBook::IndexOf(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  for (std::size_t j = 0; j < points_.size(); ++j)
    if (SameVector(points_[j].x, x) && SameVector(points_[j].z, z)) return static_cast<int>(j);
  return -1;
}

int PendingBook::IndexOfTrial(long trial) const {
  for (std::size_t j = 0; j < points_.size(); ++j)
    if (points_[j].trial == trial) return static_cast<int>(j);
  return -1;
}

bool PendingBook::Remove(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  const int j = IndexOf(x, z);
  if (j >= 0) points_.erase(points_.begin() + j);
  return j >= 0;
}

bool PendingBook::RemoveTrial(long trial) {
  const int j = IndexOfTrial(trial);
  if (j >= 0) points_.erase(points_.begin() + j);
  return j >= 0;
}

long PendingBook::CountActive(double now) const {
  return std::count_if(points_.begin(), points_.end(),
                       [now](const PendingPoint& p) { return Active(p, now); });
}

bool PendingBook::HasActive(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double now) const {
  return std::any_of(points_.begin(), points_.end(), [&](const PendingPoint& p) {
    return Active(p, now) && SameVector(p.x, x) && SameVector(p.z, z);
  });
}

}  // namespace gpbandit
