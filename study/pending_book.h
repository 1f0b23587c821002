// The points handed out and not yet told, released or cleared (GP-BUCB's pending set,
// Desautels, Krause & Burdick 2014), in the order handed out. A point counts as in progress
// while its lease lasts (WorkerOptions::pending_lease_seconds): only then is it hallucinated
// and does it hold back the initial design. Matching is by trial number, or by exact equality
// of action and context. Internal to study/; not thread-safe (the Optimizer serializes calls).
#ifndef GPBANDIT_STUDY_PENDING_BOOK_H_
#define GPBANDIT_STUDY_PENDING_BOOK_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/study/optimizer_types.h"

namespace gpbandit {

class PendingBook {
 public:
  const std::vector<PendingPoint>& points() const { return points_; }
  std::size_t size() const { return points_.size(); }
  // Adds points handed out, numbering those without a trial number (PendingPoint::trial) on
  // from the last one seen, as every worker replaying the same records does.
  void Add(const std::vector<PendingPoint>& points);
  void Add(PendingPoint point);
  void Clear() { points_.clear(); }
  // The trial number the next point handed out gets.
  long next_trial() const { return next_trial_; }
  // The index of the first point equal to (x, z), or -1.
  int IndexOf(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // The index of the point of trial `trial`, or -1.
  int IndexOfTrial(long trial) const;
  // Removes the first point equal to (x, z); false if there is none.
  bool Remove(const Eigen::VectorXd& x, const Eigen::VectorXd& z);
  // Removes the point of trial `trial`; false if there is none.
  bool RemoveTrial(long trial);
  // Whether a point's lease lasts beyond `now` (seconds on the study's clock).
  static bool Active(const PendingPoint& p, double now) { return p.lease_until > now; }
  // The number of points whose lease lasts beyond `now`.
  long CountActive(double now) const;
  // Whether an active point equals (x, z).
  bool HasActive(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double now) const;

 private:
  std::vector<PendingPoint> points_;
  long next_trial_ = 0;
};

// Equal sizes and equal coefficients (two empty vectors are equal).
bool SameVector(const Eigen::VectorXd& a, const Eigen::VectorXd& b);

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_PENDING_BOOK_H_
