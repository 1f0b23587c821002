#include "gpbandit/acquisition/scalarization.h"

#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "gpbandit/acquisition/pareto.h"

namespace gpbandit {
namespace {

void RequireSize(const Eigen::VectorXd& v, Eigen::Index size, const char* field) {
  if (v.size() != size) {
    throw std::invalid_argument(std::string(field) + " has " + std::to_string(v.size()) +
                                " entries; expected " + std::to_string(size));
  }
  RequireFiniteMatrix(v, field);
}

void RequireArguments(const Eigen::VectorXd& weights, const ObjectiveNormalization& normalization,
                      Eigen::Index k) {
  RequireSize(weights, k, "weights");
  RequireSize(normalization.lower, k, "normalization.lower");
  RequireSize(normalization.upper, k, "normalization.upper");
  for (Eigen::Index i = 0; i < k; ++i) {
    std::ostringstream message;
    if (weights(i) < 0.0) {
      message << "weights(" << i << ") = " << weights(i) << " must be >= 0";
      throw std::invalid_argument(message.str());
    }
    if (!(normalization.upper(i) > normalization.lower(i))) {
      message << "normalization.upper(" << i << ") = " << normalization.upper(i)
              << " must be > normalization.lower(" << i << ") = " << normalization.lower(i);
      throw std::invalid_argument(message.str());
    }
  }
}

// s(y) and ds/dy, arguments already checked.
double ScalarizeChecked(Scalarization kind, const Eigen::VectorXd& weights,
                        const ObjectiveNormalization& normalization, const Eigen::VectorXd& y,
                        Eigen::VectorXd* d_y) {
  const Eigen::ArrayXd range = normalization.upper - normalization.lower;
  const Eigen::ArrayXd terms = weights.array() * (y - normalization.lower).array() / range;
  if (kind == Scalarization::kLinear) {
    if (d_y != nullptr) *d_y = (weights.array() / range).matrix();
    return terms.sum();
  }
  Eigen::Index smallest = 0;
  for (Eigen::Index i = 1; i < terms.size(); ++i)
    if (terms(i) < terms(smallest)) smallest = i;
  if (d_y != nullptr) {
    *d_y = Eigen::VectorXd::Zero(terms.size());
    (*d_y)(smallest) = weights(smallest) / range(smallest);
  }
  return terms(smallest);
}

}  // namespace

Eigen::MatrixXd SampleScalarizationWeights(int objectives, int count, Rng& rng,
                                           WeightDistribution distribution) {
  if (objectives < 1 || count < 0) {
    throw std::invalid_argument("objectives = " + std::to_string(objectives) + ", count = " +
                                std::to_string(count) + ": need objectives >= 1, count >= 0");
  }
  Eigen::MatrixXd weights(objectives, count);
  std::exponential_distribution<double> exponential(1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int c = 0; c < count; ++c) {
    // A draw of all zeros (probability 0 for Exp(1); possible only by underflow) is redrawn.
    do {
      for (int i = 0; i < objectives; ++i) {
        weights(i, c) =
            distribution == WeightDistribution::kSimplex ? exponential(rng) : std::abs(normal(rng));
      }
    } while (!(weights.col(c).sum() > 0.0));
    if (distribution == WeightDistribution::kSimplex)
      weights.col(c) /= weights.col(c).sum();
    else
      weights.col(c).normalize();
  }
  return weights;
}

ObjectiveNormalization ObjectiveNormalization::FromObservations(const Eigen::MatrixXd& values) {
  if (values.rows() < 1 || values.cols() < 1) {
    throw std::invalid_argument("values is " + std::to_string(values.rows()) + " x " +
                                std::to_string(values.cols()) +
                                "; need at least one objective and one observation");
  }
  RequireFiniteMatrix(values, "values");
  ObjectiveNormalization normalization;
  normalization.lower = values.rowwise().minCoeff();
  normalization.upper = values.rowwise().maxCoeff();
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    if (!(normalization.upper(i) > normalization.lower(i)))
      normalization.upper(i) = normalization.lower(i) + 1.0;
  }
  return normalization;
}

double Scalarize(Scalarization kind, const Eigen::VectorXd& weights,
                 const ObjectiveNormalization& normalization, const Eigen::VectorXd& y,
                 Eigen::VectorXd* d_y) {
  RequireArguments(weights, normalization, weights.size());
  RequireSize(y, weights.size(), "y");
  return ScalarizeChecked(kind, weights, normalization, y, d_y);
}

Eigen::VectorXd ScalarizeColumns(Scalarization kind, const Eigen::VectorXd& weights,
                                 const ObjectiveNormalization& normalization,
                                 const Eigen::MatrixXd& values) {
  RequireArguments(weights, normalization, weights.size());
  if (values.rows() != weights.size()) {
    throw std::invalid_argument("values has " + std::to_string(values.rows()) +
                                " objectives (rows); weights has " +
                                std::to_string(weights.size()));
  }
  RequireFiniteMatrix(values, "values");
  Eigen::VectorXd result(values.cols());
  for (Eigen::Index j = 0; j < values.cols(); ++j)
    result(j) = ScalarizeChecked(kind, weights, normalization, values.col(j), nullptr);
  return result;
}

double ScalarizedUpperConfidenceBound(Scalarization kind, const Eigen::VectorXd& weights,
                                      const ObjectiveNormalization& normalization,
                                      const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma,
                                      double sqrt_beta, Eigen::VectorXd* d_mean,
                                      Eigen::VectorXd* d_sigma) {
  RequireArguments(weights, normalization, weights.size());
  RequireSize(mean, weights.size(), "mean");
  RequireSize(sigma, weights.size(), "sigma");
  if (!(sqrt_beta >= 0.0) || !std::isfinite(sqrt_beta)) {
    std::ostringstream message;
    message << "sqrt_beta = " << sqrt_beta << " must be finite and >= 0";
    throw std::invalid_argument(message.str());
  }
  for (Eigen::Index i = 0; i < sigma.size(); ++i) {
    if (sigma(i) < 0.0) {
      std::ostringstream message;
      message << "sigma(" << i << ") = " << sigma(i) << " must be >= 0";
      throw std::invalid_argument(message.str());
    }
  }
  Eigen::VectorXd d_y;
  const double value =
      ScalarizeChecked(kind, weights, normalization, mean + sqrt_beta * sigma, &d_y);
  if (d_mean != nullptr) *d_mean = d_y;
  if (d_sigma != nullptr) *d_sigma = sqrt_beta * d_y;
  return value;
}

}  // namespace gpbandit
