#include <stdexcept>

#include "plugin/round_chooser.h"

namespace gpbandit {

AskPosterior::AskPosterior(const GaussianProcess& model, const FiniteSetPosterior* finite,
                           double reference)
    : model_(model), finite_(finite), reference_(reference) {}

// The copies (O(t^2), O(N^2)) are made at the first hallucination only: the common ask of one
// point with nothing pending reads the model itself.
void AskPosterior::Hallucinate(const Eigen::VectorXd& u, int candidate) {
  Detach();
  const double mean = copy_->Mean(u);
  copy_->AddObservation(u, mean);
  ++num_hallucinated_;
  if (!finite_copy_) return;
  if (candidate < 0) throw std::logic_error("a hallucinated point of a finite set is no candidate");
  finite_copy_->Observe(candidate, mean - reference_);
}

void AskPosterior::Detach() {
  if (copy_) return;
  copy_ = std::make_unique<GaussianProcess>(model_);
  if (finite_ != nullptr) finite_copy_ = std::make_unique<FiniteSetPosterior>(*finite_);
}

}  // namespace gpbandit
