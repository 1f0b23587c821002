#include "model/finite_set_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"
#include "numerics/cholesky.h"

namespace gpbandit {
namespace {

std::vector<double> Key(const Eigen::VectorXd& u) { return {u.data(), u.data() + u.size()}; }

double CheckedNoise(double noise_variance) {
  if (!(noise_variance > 0.0) || !std::isfinite(noise_variance))
    throw std::invalid_argument("FiniteSetModel: noise_variance = " + FormatDouble(noise_variance) +
                                " must be finite and > 0");
  return noise_variance;
}

}  // namespace

// The candidates observed so far, the Cholesky factor of K_mm + diag(lambda / n_c) over them,
// and the weights (K_mm + Lambda)^-1 (ybar - c).
struct FiniteSetModel::SufficientFactor {
  Eigen::MatrixXd inputs;  // input_dim x m
  Eigen::MatrixXd lower;
  Eigen::VectorXd weights;
};

FiniteSetModel::FiniteSetModel(std::unique_ptr<Kernel> kernel,
                               const Eigen::MatrixXd& unit_candidates,
                               const GaussianProcessOptions& options)
    : kernel_(std::move(kernel)),
      unit_candidates_(unit_candidates),
      options_(options),
      candidate_diagonal_(kernel_->Diagonal(unit_candidates)),
      belief_(*kernel_, unit_candidates, CheckedNoise(options.noise_variance),
              options.standardize_outputs),
      tally_(static_cast<int>(unit_candidates.cols())) {
  for (Eigen::Index j = 0; j < unit_candidates.cols(); ++j)
    index_.emplace(Key(unit_candidates.col(j)), static_cast<int>(j));
}

FiniteSetModel::FiniteSetModel(const FiniteSetModel& other)
    : kernel_(other.kernel_->Clone()),
      unit_candidates_(other.unit_candidates_),
      index_(other.index_),
      options_(other.options_),
      candidate_diagonal_(other.candidate_diagonal_),
      belief_(other.belief_),
      tally_(other.tally_),
      factor_(other.factor_) {}

FiniteSetModel& FiniteSetModel::operator=(const FiniteSetModel& other) {
  if (this != &other) {
    FiniteSetModel copy(other);
    *this = std::move(copy);
  }
  return *this;
}

FiniteSetModel::FiniteSetModel(FiniteSetModel&&) noexcept = default;
FiniteSetModel& FiniteSetModel::operator=(FiniteSetModel&&) noexcept = default;
FiniteSetModel::~FiniteSetModel() = default;

int FiniteSetModel::CandidateIndex(const Eigen::VectorXd& u) const {
  const auto it = index_.find(Key(u));
  return it == index_.end() ? -1 : it->second;
}

void FiniteSetModel::AddObservation(int index, double y, bool accepted) {
  const double variance = index >= 0 && index < num_candidates()
                              ? std::max(belief_.posterior().covariance()(index, index), 0.0)
                              : 0.0;
  belief_.Observe(index, y);  // checks index and y before any change
  tally_.Add(index, y, y - belief_.reference(), variance, candidate_diagonal_(index), accepted);
  factor_.reset();
}

void FiniteSetModel::ScaleOutputs(int exponent) {
  belief_.ScaleOutputs(exponent);
  tally_.Scale(exponent);
  factor_.reset();
}

void FiniteSetModel::SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                        double noise_variance) {
  std::unique_ptr<Kernel> kernel = kernel_->Clone();
  kernel->SetLogParams(kernel_log_params);  // validates
  GaussianProcessOptions options = options_;
  options.noise_variance = CheckedNoise(noise_variance);
  FiniteSetModel rebuilt(std::move(kernel), unit_candidates_, options);
  for (std::size_t i = 0; i < tally_.rows.size(); ++i)
    rebuilt.AddObservation(tally_.rows[i], tally_.outputs[i], false);
  rebuilt.tally_.accepted = tally_.accepted;
  rebuilt.tally_.accepted_candidates = tally_.accepted_candidates;
  *this = std::move(rebuilt);
}

Eigen::VectorXd FiniteSetModel::SequentialVariances() const {
  return Eigen::Map<const Eigen::VectorXd>(
      tally_.sequential_variances.data(),
      static_cast<Eigen::Index>(tally_.sequential_variances.size()));
}

double FiniteSetModel::MeanKernelDiagonal() const {
  if (tally_.rows.empty()) return std::numeric_limits<double>::quiet_NaN();
  return tally_.diagonal_sum / static_cast<double>(tally_.rows.size());
}

double FiniteSetModel::Incumbent(int* candidate) const {
  double best = -std::numeric_limits<double>::infinity();
  *candidate = -1;
  for (int c : tally_.accepted_candidates) {
    const double mean = belief_.Mean(c);
    if (mean > best || (mean == best && c < *candidate)) {
      best = mean;
      *candidate = c;
    }
  }
  return best;
}

Eigen::VectorXd FiniteSetModel::MeansAtObservations() const {
  const Eigen::VectorXd means = belief_.Means();
  Eigen::VectorXd at_rows(num_observations());
  for (int i = 0; i < num_observations(); ++i)
    at_rows(i) = means(tally_.rows[static_cast<std::size_t>(i)]);
  return at_rows;
}

void FiniteSetModel::Predict(const Eigen::VectorXd& u, double* mean, double* variance) const {
  if (u.size() != input_dim())
    throw std::invalid_argument("FiniteSetModel::Predict: u has dimension " +
                                std::to_string(u.size()) + ", expected " +
                                std::to_string(input_dim()));
  const int c = CandidateIndex(u);
  if (c >= 0) {
    *mean = belief_.Mean(c);
    *variance = belief_.Variance(c);
    return;
  }
  kernel_->ValidatePoint(u, "u");
  PredictFromStatistics(u, mean, variance);
}

const FiniteSetModel::SufficientFactor& FiniteSetModel::Factor() const {
  if (factor_) return *factor_;
  auto factor = std::make_shared<SufficientFactor>();
  std::vector<int> observed;
  for (int c = 0; c < num_candidates(); ++c)
    if (tally_.counts(c) > 0.0) observed.push_back(c);
  const auto m = static_cast<Eigen::Index>(observed.size());
  factor->inputs.resize(input_dim(), m);
  Eigen::VectorXd centred(m), noise(m);
  const double shift = belief_.output_offset() - belief_.reference();
  for (Eigen::Index j = 0; j < m; ++j) {
    const int c = observed[static_cast<std::size_t>(j)];
    factor->inputs.col(j) = unit_candidates_.col(c);
    centred(j) =
        tally_.sums(c) / tally_.counts(c) - shift;  // the mean output at c minus the offset
    noise(j) = options_.noise_variance / tally_.counts(c);
  }
  Eigen::MatrixXd gram = kernel_->Gram(factor->inputs);
  gram.diagonal() += noise;
  const JitteredCholesky chol = FactorizeWithJitter(gram, options_.max_relative_jitter);
  if (!chol.ok)
    throw std::runtime_error(
        "FiniteSetModel::Predict: the observed candidates' covariance "
        "cannot be factorized");
  factor->lower = chol.lower;
  factor->weights = chol.lower.triangularView<Eigen::Lower>().solve(centred);
  chol.lower.transpose().triangularView<Eigen::Upper>().solveInPlace(factor->weights);
  factor_ = std::move(factor);
  return *factor_;
}

void FiniteSetModel::PredictFromStatistics(const Eigen::VectorXd& u, double* mean,
                                           double* variance) const {
  const double scale = belief_.output_scale();
  const double prior = kernel_->Value(u, u);
  if (tally_.rows.empty()) {
    *mean = belief_.output_offset();
    *variance = scale * scale * std::max(prior, 0.0);
    return;
  }
  const SufficientFactor& factor = Factor();
  const Eigen::VectorXd cross = kernel_->Cross(factor.inputs, u).col(0);
  *mean = belief_.output_offset() + cross.dot(factor.weights);
  const Eigen::VectorXd v = factor.lower.triangularView<Eigen::Lower>().solve(cross);
  *variance = scale * scale * std::max(prior - v.squaredNorm(), 0.0);
}

GaussianProcess FiniteSetModel::ModelOn(const std::vector<int>& rows) const {
  GaussianProcess gp(kernel_->Clone(), input_dim(), options_);
  Eigen::MatrixXd X(input_dim(), static_cast<Eigen::Index>(rows.size()));
  Eigen::VectorXd y(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const int row = rows[j];
    if (row < 0 || row >= num_observations())
      throw std::invalid_argument("FiniteSetModel::ModelOn: row " + std::to_string(row) +
                                  " outside [0, " + std::to_string(num_observations()) + ")");
    X.col(static_cast<Eigen::Index>(j)) =
        unit_candidates_.col(tally_.rows[static_cast<std::size_t>(row)]);
    y(static_cast<Eigen::Index>(j)) = tally_.outputs[static_cast<std::size_t>(row)];
  }
  gp.AddObservations(X, y);
  return gp;
}

GaussianProcess FiniteSetModel::ExactModel() const {
  std::vector<int> rows(tally_.rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int>(i);
  return ModelOn(rows);
}

}  // namespace gpbandit
