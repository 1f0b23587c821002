#include <stdexcept>

#include "optimizer/round_chooser.h"

namespace gpbandit {

AskPosterior::AskPosterior(const GaussianProcess& model) : model_(&model) {}

AskPosterior::AskPosterior(const FiniteSetBelief& belief) : belief_(&belief) {}

const GaussianProcess& AskPosterior::gp() const {
  if (copy_) return *copy_;
  if (model_ == nullptr)
    throw std::logic_error("AskPosterior::gp: the ask's posterior is the rank-one belief");
  return *model_;
}

// The copies (O(t^2), O(N^2)) are made at the first hallucination only: the common ask of one
// point with nothing pending reads the model itself.
void AskPosterior::Hallucinate(const Eigen::VectorXd& u, int candidate) {
  if (belief_ != nullptr && candidate < 0)
    throw std::logic_error("a hallucinated point of a finite set is no candidate");
  Detach();
  if (belief_copy_) {
    belief_copy_->Observe(candidate, belief_copy_->Mean(candidate));
  } else {
    copy_->AddObservation(u, copy_->Mean(u));
  }
  ++num_hallucinated_;
}

void AskPosterior::Detach() {
  if (belief_ != nullptr) {
    if (!belief_copy_) belief_copy_ = std::make_unique<FiniteSetBelief>(*belief_);
  } else if (!copy_) {
    copy_ = std::make_unique<GaussianProcess>(*model_);
  }
}

}  // namespace gpbandit
