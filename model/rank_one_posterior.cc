#include "model/rank_one_posterior.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gpbandit {

RankOnePosterior::RankOnePosterior(std::unique_ptr<Kernel> kernel,
                                   const Eigen::MatrixXd& unit_candidates,
                                   const GaussianProcessOptions& options)
    : model_(std::move(kernel), unit_candidates, options) {}

std::unique_ptr<PosteriorModel> RankOnePosterior::Clone() const {
  return std::make_unique<RankOnePosterior>(*this);
}

void RankOnePosterior::Posterior(const Eigen::MatrixXd& inputs, Eigen::VectorXd* means,
                                 Eigen::VectorXd* variances) const {
  Eigen::VectorXd m(inputs.cols()), v(inputs.cols());
  for (Eigen::Index j = 0; j < inputs.cols(); ++j) model_.Predict(inputs.col(j), &m(j), &v(j));
  *means = std::move(m);
  *variances = std::move(v);
}

void RankOnePosterior::RoundStatistics(bool sequential, RoundState* state) const {
  const FiniteSetBelief& belief = model_.belief();
  const double scale2 = belief.output_scale() * belief.output_scale();
  state->information_gain = model_.InformationGain();
  if (sequential) state->sequential_variances = model_.SequentialVariances() * scale2;
  state->noise_variance = belief.noise_variance() * scale2;
  const double diagonal = model_.MeanKernelDiagonal();
  state->signal_variance =
      std::clamp(std::isfinite(diagonal) && diagonal > 0.0 ? diagonal * scale2 : scale2,
                 std::numeric_limits<double>::min(), std::numeric_limits<double>::max());
  state->best_observed = model_.best_output();
  int candidate = -1;
  state->incumbent = model_.Incumbent(&candidate);
}

void RankOnePosterior::AddObservation(const Eigen::VectorXd& u, double y, bool accepted) {
  const int candidate = model_.CandidateIndex(u);
  if (candidate < 0)
    throw std::invalid_argument(
        "RankOnePosterior::AddObservation: u is none of the finite set's candidates");
  model_.AddObservation(candidate, y, accepted);
}

void RankOnePosterior::SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                          double noise_variance) {
  model_.SetHyperparameters(kernel_log_params, noise_variance);
}

GaussianProcess RankOnePosterior::FitData(int max_observations) const {
  return model_.ModelOn(EvenlySpacedRows(model_.num_observations(), max_observations));
}

}  // namespace gpbandit
