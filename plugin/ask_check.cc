#include "plugin/ask_check.h"

#include <cmath>

#include "plugin/pending_book.h"

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
                   bool strict, Inputs inputs, Repair repair)
    : call_(call),
      posterior_(std::move(posterior)),
      now_(now),
      tolerance_(tolerance),
      strict_(strict),
      inputs_(std::move(inputs)),
      repair_(std::move(repair)) {
  for (const PendingPoint& p : in_progress)
    if (PendingBook::Active(p, now_)) known_.push_back(p);
  for (Eigen::Index i = 0; i < call_.chosen.cols(); ++i)
    if (call_.design_index[static_cast<std::size_t>(i)] < 0)
      model_slots_.push_back(static_cast<int>(i));
  if (model_slots_.empty()) return;
  posterior_->Detach();
  slot_inputs_.resize(model_slots_.size());
  slot_stddevs_.resize(model_slots_.size());
  prior_stddevs_.resize(model_slots_.size());
  must_move_.assign(model_slots_.size(), false);
  for (std::size_t i = 0; i < model_slots_.size(); ++i) SetBaseline(i);
}

void AskCheck::SetBaseline(std::size_t i) {
  const Eigen::VectorXd u =
      inputs_.model_input(call_.chosen.col(model_slots_[i]), call_.z, call_.round);
  slot_inputs_[i] = u;
  slot_stddevs_[i] = std::sqrt(StandardizedVariance(posterior_->gp(), u));
  prior_stddevs_[i] = std::sqrt(posterior_->gp().kernel().Value(u, u));
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

bool AskCheck::EqualsUnknown(const Eigen::VectorXd& x) const {
  for (const Eigen::VectorXd& xz : unknown_)
    if (SameVector(xz.head(x.size()), x) && SameVector(xz.tail(call_.z.size()), call_.z))
      return true;
  return false;
}

void AskCheck::AddUnknown(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round) {
  if (!keeps_points()) return;
  if (strict_) return Refuse("others handed out or told points meanwhile");
  Eigen::VectorXd xz(x.size() + z.size());
  xz << x, z;
  unknown_.push_back(xz);
  for (Eigen::Index i = 0; i < call_.chosen.cols(); ++i) {
    if (!SameVector(call_.chosen.col(i), x) || !SameVector(call_.z, z)) continue;
    if (call_.design_index[static_cast<std::size_t>(i)] >= 0)
      return Refuse("another worker handed out the same design point meanwhile");
    for (std::size_t k = 0; k < model_slots_.size(); ++k)
      if (model_slots_[k] == i) must_move_[k] = true;
  }
  if (model_slots_.empty()) return;
  const Eigen::VectorXd u = inputs_.model_input(x, z, round);
  posterior_->Hallucinate(u, inputs_.candidate ? inputs_.candidate(u) : -1);
}

void AskCheck::Move(std::size_t i, const std::string& why) {
  Eigen::VectorXd moved;
  if (!repair_ || !repair_(model_slots_[i], *posterior_, &moved))
    return Refuse(why + " (slot " + std::to_string(model_slots_[i]) + ")");
  call_.chosen.col(model_slots_[i]) = moved;
  must_move_[i] = false;
  ++repairs_;
  if (EqualsUnknown(moved)) return Refuse("moved onto a point others handed out meanwhile");
  SetBaseline(i);
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
  if (!added) return;
  // GP-BUCB's margin: the acquisition at a slot fell by what its standard deviation lost.
  for (std::size_t i = 0; i < model_slots_.size() && keeps_points(); ++i) {
    const double now = std::sqrt(StandardizedVariance(posterior_->gp(), slot_inputs_[i]));
    if (must_move_[i])
      Move(i, "another worker handed out or told the same point meanwhile");
    else if (slot_stddevs_[i] - now > tolerance_ * prior_stddevs_[i])
      Move(i, "points handed out meanwhile bear on it");
  }
}

}  // namespace gpbandit
