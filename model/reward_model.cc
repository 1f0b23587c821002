#include "model/reward_model.h"

#include <numeric>
#include <stdexcept>
#include <vector>

namespace gpbandit {

RewardModel::RewardModel(std::unique_ptr<Kernel> kernel, int input_dim,
                         const GaussianProcessOptions& options,
                         const LocalModelOptions& local_options, bool local_allowed)
    : local_options_(local_options),
      local_allowed_(local_allowed),
      exact_(std::make_unique<GaussianProcess>(std::move(kernel), input_dim, options)) {}

RewardModel::RewardModel(const RewardModel& other)
    : local_options_(other.local_options_),
      local_allowed_(other.local_allowed_),
      exact_(other.exact_ ? std::make_unique<GaussianProcess>(*other.exact_) : nullptr),
      local_(other.local_ ? std::make_unique<LocalGaussianProcess>(*other.local_) : nullptr),
      finite_(other.finite_ ? std::make_unique<FiniteSetModel>(*other.finite_) : nullptr) {}

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
  if (finite_)
    throw std::logic_error(
        "the model is the rank-one posterior over the finite set's candidates "
        "(OptimizerOptions::finite_set_rank_one_updates): no exact GP is kept");
  return local_ ? local_->local() : *exact_;
}

int RewardModel::num_observations() const {
  if (finite_) return finite_->num_observations();
  return local_ ? local_->num_observations() : exact_->num_observations();
}

const Kernel& RewardModel::kernel() const {
  if (finite_) return finite_->kernel();
  return local_ ? local_->kernel() : exact_->kernel();
}

double RewardModel::noise_variance() const {
  if (finite_) return finite_->noise_variance();
  return local_ ? local_->noise_variance() : exact_->noise_variance();
}

const GaussianProcessOptions& RewardModel::options() const {
  if (finite_) return finite_->options();
  return local_ ? local_->options() : exact_->options();
}

void RewardModel::UseRankOne(const Eigen::MatrixXd& unit_candidates) {
  if (!exact_ || exact_->num_observations() > 0)
    throw std::logic_error("RewardModel::UseRankOne: only before the first observation");
  GaussianProcessOptions options = exact_->options();
  options.noise_variance = exact_->noise_variance();
  finite_ = std::make_unique<FiniteSetModel>(exact_->kernel().Clone(), unit_candidates, options);
  exact_.reset();
}

// A told point that is not a candidate: the exact GP on every observation takes over for good.
void RewardModel::AddToRankOne(const Eigen::VectorXd& u, double y, bool accepted) {
  const int candidate = finite_->CandidateIndex(u);
  if (candidate >= 0) {
    finite_->AddObservation(candidate, y, accepted);
    return;
  }
  auto exact = std::make_unique<GaussianProcess>(finite_->ExactModel());
  exact->AddObservation(u, y);
  exact_ = std::move(exact);
  finite_.reset();
}

void RewardModel::AddObservation(const Eigen::VectorXd& u, double y, bool accepted) {
  if (finite_) {
    AddToRankOne(u, y, accepted);
    return;
  }
  if (local_) {
    local_->AddObservation(u, y);
    return;
  }
  if (!local_allowed_ || exact_->num_observations() < local_options_.exact_until) {
    exact_->AddObservation(u, y);
    return;
  }
  // The observation that crosses the threshold: the local model takes over with every
  // observation and the exact GP's hyperparameters; the exact GP (O(t^2) memory) is dropped.
  auto local = std::make_unique<LocalGaussianProcess>(
      *exact_, local_options_.size, local_options_.regions, local_options_.anchor);
  local->AddObservation(u, y);
  local_ = std::move(local);
  exact_.reset();
}

void RewardModel::ScaleOutputs(int exponent) {
  if (finite_)
    finite_->ScaleOutputs(exponent);
  else if (local_)
    local_->ScaleOutputs(exponent);
  else
    exact_->ScaleOutputs(exponent);
}

void RewardModel::SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                     double noise_variance) {
  if (finite_)
    finite_->SetHyperparameters(kernel_log_params, noise_variance);
  else if (local_)
    local_->SetHyperparameters(kernel_log_params, noise_variance);
  else
    exact_->SetHyperparameters(kernel_log_params, noise_variance);
}

Eigen::VectorXd RewardModel::MeansAtObservations() const {
  if (finite_) return finite_->MeansAtObservations();
  return local_ ? local_->MeansAtObservations() : exact_->MeansAtObservations();
}

namespace {

// `count` of `rows` spread evenly over their order: rows[floor(i n / count)], i < count.
std::vector<int> EvenlySpaced(const std::vector<int>& rows, int count) {
  const auto n = static_cast<long long>(rows.size());
  if (count >= n) return rows;
  std::vector<int> spaced;
  for (long long i = 0; i < count; ++i)
    spaced.push_back(rows[static_cast<std::size_t>(i * n / count)]);
  return spaced;
}

}  // namespace

GaussianProcess RewardModel::FitData(int max_observations) const {
  if (finite_) {
    std::vector<int> rows(static_cast<std::size_t>(finite_->num_observations()));
    std::iota(rows.begin(), rows.end(), 0);
    return finite_->ModelOn(EvenlySpaced(rows, max_observations));
  }
  if (!local_ && exact_->num_observations() <= max_observations) return *exact_;
  // A systematic sample over the whole study (its space-filling start and its later
  // concentration alike): the exact GP is global, and the local one predicts where the exact
  // one would, with its hyperparameters (fitted near the incumbent alone, they took noise for
  // signal there). The copy of the observations costs O(t d), the fit O(max^3) per evaluation.
  const LocalGaussianProcess observations =
      local_ ? *local_ : LocalGaussianProcess(*exact_, /*size=*/1);
  std::vector<int> rows(static_cast<std::size_t>(observations.num_observations()));
  std::iota(rows.begin(), rows.end(), 0);
  return observations.ModelOn(EvenlySpaced(rows, max_observations));
}

void RewardModel::SearchRegions(int action_dim, const Eigen::VectorXd& lower,
                                const Eigen::VectorXd& upper, Eigen::MatrixXd* region_lower,
                                Eigen::MatrixXd* region_upper,
                                Eigen::MatrixXd* region_starts) const {
  if (!local_) {
    region_lower->resize(lower.size(), 0);
    region_upper->resize(upper.size(), 0);
    region_starts->resize(lower.size(), 0);
    return;
  }
  const std::vector<int>& anchors = local_->anchors();
  const auto regions = static_cast<Eigen::Index>(anchors.size());
  region_lower->resize(lower.size(), regions);
  region_upper->resize(upper.size(), regions);
  region_starts->resize(lower.size(), regions);
  for (Eigen::Index j = 0; j < regions; ++j) {
    Eigen::VectorXd l = lower, u = upper;
    local_->LocalTrustBox(static_cast<int>(j), action_dim, &l, &u, local_options_.trust_box_scale);
    region_lower->col(j) = l;
    region_upper->col(j) = u;
    region_starts->col(j) = local_->input(anchors[static_cast<std::size_t>(j)]);
  }
}

}  // namespace gpbandit
