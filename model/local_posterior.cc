#include "model/local_posterior.h"

#include <vector>

#include "model/exact_posterior.h"

namespace gpbandit {

LocalPosterior::LocalPosterior(const GaussianProcess& exact, const LocalModelOptions& options)
    : local_(exact, options.size, options.regions, options.anchor),
      trust_box_scale_(options.trust_box_scale) {}

std::unique_ptr<PosteriorModel> LocalPosterior::Clone() const {
  return std::make_unique<LocalPosterior>(*this);
}

void LocalPosterior::Posterior(const Eigen::MatrixXd& inputs, Eigen::VectorXd* means,
                               Eigen::VectorXd* variances) const {
  const GaussianProcess& gp = local_.local();
  Eigen::VectorXd m(inputs.cols()), v(inputs.cols());
  for (Eigen::Index j = 0; j < inputs.cols(); ++j) gp.MeanAndVariance(inputs.col(j), &m(j), &v(j));
  *means = std::move(m);
  *variances = std::move(v);
}

void LocalPosterior::RoundStatistics(bool sequential, RoundState* state) const {
  GaussianProcessRoundStatistics(local_.local(), sequential, state);
}

void LocalPosterior::SearchRegions(int action_dim, const Eigen::VectorXd& lower,
                                   const Eigen::VectorXd& upper, Eigen::MatrixXd* region_lower,
                                   Eigen::MatrixXd* region_upper,
                                   Eigen::MatrixXd* region_starts) const {
  const std::vector<int>& anchors = local_.anchors();
  const auto regions = static_cast<Eigen::Index>(anchors.size());
  region_lower->resize(lower.size(), regions);
  region_upper->resize(upper.size(), regions);
  region_starts->resize(lower.size(), regions);
  for (Eigen::Index j = 0; j < regions; ++j) {
    Eigen::VectorXd l = lower, u = upper;
    local_.LocalTrustBox(static_cast<int>(j), action_dim, &l, &u, trust_box_scale_);
    region_lower->col(j) = l;
    region_upper->col(j) = u;
    region_starts->col(j) = local_.input(anchors[static_cast<std::size_t>(j)]);
  }
}

void LocalPosterior::AddObservation(const Eigen::VectorXd& u, double y, bool /*accepted*/) {
  local_.AddObservation(u, y);
}

void LocalPosterior::SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                        double noise_variance) {
  local_.SetHyperparameters(kernel_log_params, noise_variance);
}

GaussianProcess LocalPosterior::FitData(int max_observations) const {
  return local_.ModelOn(EvenlySpacedRows(local_.num_observations(), max_observations));
}

}  // namespace gpbandit
