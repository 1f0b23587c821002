#include "optimizer/ask_check.h"

#include <cmath>

#include "study/pending_book.h"

namespace gpbandit {
namespace {

// The posterior variance in the model's standardized units: a hallucinated point also moves the
// outputs' standardization (their spread), which scales every variance alike and says nothing of
// how much the point bears on another.
double StandardizedVariance(const GaussianProcess& gp, const Eigen::VectorXd& u) {
  return gp.Variance(u) / (gp.output_scale() * gp.output_scale());
}

}  // namespace

AskCheck::AskCheck(const AskCall& call, std::unique_ptr<AskPosterior> posterior,
                   const std::vector<PendingPoint>& in_progress, double now, double tolerance,
                   bool strict, Inputs inputs)
    : call_(call),
      posterior_(std::move(posterior)),
      now_(now),
      tolerance_(tolerance),
      strict_(strict),
      inputs_(std::move(inputs)) {
  for (const PendingPoint& p : in_progress)
    if (PendingBook::Active(p, now_)) known_.push_back(p);
  for (Eigen::Index i = 0; i < call_.chosen.cols(); ++i) {
    if (call_.design_index[static_cast<std::size_t>(i)] >= 0) continue;
    model_slots_.push_back(static_cast<int>(i));
    slot_inputs_.push_back(inputs_.model_input(call_.chosen.col(i), call_.z, call_.round));
  }
  if (model_slots_.empty()) return;
  posterior_->Detach();
  for (const Eigen::VectorXd& u : slot_inputs_) {
    slot_stddevs_.push_back(std::sqrt(StandardizedVariance(posterior_->gp(), u)));
    prior_stddevs_.push_back(std::sqrt(posterior_->gp().kernel().Value(u, u)));
  }
}

void AskCheck::Refuse(const std::string& why) {
  if (reason_.empty()) reason_ = why;
}

void AskCheck::Invalidate(const std::string& why) { Refuse(why); }

bool AskCheck::Known(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  for (auto it = known_.begin(); it != known_.end(); ++it) {
    if (SameVector(it->x, x) && SameVector(it->z, z)) {
      known_.erase(it);
      return true;
    }
  }
  return false;
}

void AskCheck::AddUnknown(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round) {
  if (!keeps_points()) return;
  if (strict_) return Refuse("others handed out or told points meanwhile");
  for (Eigen::Index i = 0; i < call_.chosen.cols(); ++i)
    if (SameVector(call_.chosen.col(i), x) && SameVector(call_.z, z))
      return Refuse("another worker handed out or told the same point meanwhile");
  if (model_slots_.empty()) return;
  const Eigen::VectorXd u = inputs_.model_input(x, z, round);
  posterior_->Hallucinate(u, -1);
}

void AskCheck::Examine(const std::vector<LogRecord>& arrived) {
  bool added = false;
  for (const LogRecord& r : arrived) {
    switch (r.type) {
      case LogRecordType::kPending:
        if (!PendingBook::Active({r.x, r.z, r.round, r.worker, r.lease_until}, now_)) break;
        AddUnknown(r.x, r.z, r.round);
        known_.push_back({r.x, r.z, r.round, r.worker, r.lease_until});
        added = true;
        break;
      case LogRecordType::kTell:
        if (strict_) Refuse("others told observations meanwhile");
        if (Known(r.x, r.z)) break;  // feedback on a point in progress for the ask
        AddUnknown(r.x, r.z, r.round >= 0 ? r.round : call_.round);
        added = true;
        break;
      case LogRecordType::kFit:
        others_refitted_ = true;
        if (strict_) Refuse("another worker refitted meanwhile");
        break;
      case LogRecordType::kRelease:  // still in the posterior the ask chose from
      case LogRecordType::kClearPending:
      case LogRecordType::kHeader:
        break;
    }
  }
  if (!added || !keeps_points()) return;
  // GP-BUCB's margin: the acquisition at a slot fell by what its standard deviation lost.
  for (std::size_t i = 0; i < slot_inputs_.size(); ++i) {
    const double now = std::sqrt(StandardizedVariance(posterior_->gp(), slot_inputs_[i]));
    if (slot_stddevs_[i] - now > tolerance_ * prior_stddevs_[i])
      return Refuse("points handed out meanwhile bear on slot " + std::to_string(model_slots_[i]));
  }
}

}  // namespace gpbandit
