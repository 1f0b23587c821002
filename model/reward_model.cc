#include "model/reward_model.h"

#include <stdexcept>

#include "model/exact_posterior.h"
#include "model/local_posterior.h"
#include "model/rank_one_posterior.h"

namespace gpbandit {

RewardModel::RewardModel(std::unique_ptr<Kernel> kernel, int input_dim,
                         const GaussianProcessOptions& options,
                         const LocalModelOptions& local_options, bool local_allowed)
    : local_options_(local_options),
      local_allowed_(local_allowed),
      model_(std::make_unique<ExactPosterior>(std::move(kernel), input_dim, options)) {}

RewardModel::RewardModel(const RewardModel& other)
    : local_options_(other.local_options_),
      local_allowed_(other.local_allowed_),
      model_(other.model_->Clone()) {}

RewardModel& RewardModel::operator=(const RewardModel& other) {
  if (this != &other) {
    RewardModel copy(other);
    *this = std::move(copy);
  }
  return *this;
}

RewardModel::RewardModel(RewardModel&&) noexcept = default;
RewardModel& RewardModel::operator=(RewardModel&&) noexcept = default;

RewardModel::~RewardModel() = default;

const GaussianProcess& RewardModel::gp() const {
  const GaussianProcess* gp = model_->gp();
  if (gp == nullptr)
    throw std::logic_error(
        "the model is the rank-one posterior over the finite set's candidates "
        "(OptimizerOptions::finite_set_rank_one_updates): no exact GP is kept");
  return *gp;
}

const FiniteSetModel* RewardModel::rank_one() const {
  if (model_->kind() != PosteriorKind::kRankOne) return nullptr;
  return &static_cast<const RankOnePosterior&>(*model_).model();
}

void RewardModel::UseRankOne(const Eigen::MatrixXd& unit_candidates) {
  if (model_->kind() != PosteriorKind::kExact || model_->num_observations() > 0)
    throw std::logic_error("RewardModel::UseRankOne: only before the first observation");
  GaussianProcessOptions options = model_->options();
  options.noise_variance = model_->noise_variance();
  model_ = std::make_unique<RankOnePosterior>(model_->kernel().Clone(), unit_candidates, options);
}

std::unique_ptr<PosteriorModel> RewardModel::Successor(const Eigen::VectorXd& u) const {
  switch (model_->kind()) {
    case PosteriorKind::kRankOne: {
      // A told point that is not a candidate: the exact GP on every observation takes over for
      // good.
      const FiniteSetModel& finite = *rank_one();
      if (finite.CandidateIndex(u) >= 0) return nullptr;
      return std::make_unique<ExactPosterior>(finite.ExactModel());
    }
    case PosteriorKind::kExact:
      // The observation that crosses the threshold: the local model takes over with every
      // observation and the exact GP's hyperparameters; the exact GP (O(t^2) memory) is
      // dropped.
      if (!local_allowed_ || model_->num_observations() < local_options_.exact_until)
        return nullptr;
      return std::make_unique<LocalPosterior>(*model_->gp(), local_options_);
    case PosteriorKind::kLocal:
      return nullptr;
  }
  return nullptr;
}

void RewardModel::AddObservation(const Eigen::VectorXd& u, double y, bool accepted) {
  std::unique_ptr<PosteriorModel> next = Successor(u);
  if (next == nullptr) {
    model_->AddObservation(u, y, accepted);
    return;
  }
  next->AddObservation(u, y, accepted);
  model_ = std::move(next);
}

}  // namespace gpbandit
