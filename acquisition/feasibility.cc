#include "gpbandit/acquisition/feasibility.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "acquisition/normal_tails.h"
#include "gpbandit/acquisition/log_expected_improvement.h"
#include "gpbandit/acquisition/pareto.h"

namespace gpbandit {
namespace {

using namespace normal_tails;  // NOLINT: the shared constants and tails

void RequireSigmas(const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma, const char* m_field,
                   const char* s_field) {
  if (mean.size() != sigma.size()) {
    throw std::invalid_argument(std::string(m_field) + " has " + std::to_string(mean.size()) +
                                " entries but " + s_field + " has " + std::to_string(sigma.size()));
  }
  RequireFiniteMatrix(mean, m_field);
  RequireFiniteMatrix(sigma, s_field);
  for (Eigen::Index j = 0; j < sigma.size(); ++j) {
    if (!(sigma(j) > 0.0)) {
      std::ostringstream message;
      message << s_field << "(" << j << ") = " << sigma(j) << " must be > 0";
      throw std::invalid_argument(message.str());
    }
  }
}

}  // namespace

double FeasibleWhenNonPositive(double g, const OutcomeConstraint& constraint) {
  if (!std::isfinite(constraint.bound)) {
    std::ostringstream message;
    message << "constraint bound = " << constraint.bound << " is not finite";
    throw std::invalid_argument(message.str());
  }
  return constraint.sense == ConstraintSense::kLessEqual ? g - constraint.bound
                                                         : constraint.bound - g;
}

double LogNormalCdf(double z, double* derivative) {
  if (z > -kContinuedFractionFrom) {
    const double pdf = kInvSqrt2Pi * std::exp(-0.5 * z * z);
    if (z > 0.0) {
      // log(1 - Phi(-z)): log1p keeps the digits of a probability near 1.
      const double upper = 0.5 * std::erfc(z * kInvSqrt2);
      if (derivative != nullptr) *derivative = pdf / (1.0 - upper);
      return std::log1p(-upper);
    }
    const double cdf = 0.5 * std::erfc(-z * kInvSqrt2);
    if (derivative != nullptr) *derivative = pdf / cdf;
    return std::log(cdf);
  }
  const double u = -z;
  if (u > kAsymptoticFrom) {
    if (derivative != nullptr) *derivative = u;  // u + 1/u to the last bit
    return -0.5 * u * u - kLogSqrt2Pi - std::log(u);
  }
  // Phi(-u) = phi(u) R(u), R(u) = 1 / (u + 1/T(u)); phi / Phi = 1 / R.
  const double inverse_ratio = u + 1.0 / MillsTail(u);
  if (derivative != nullptr) *derivative = inverse_ratio;
  return -0.5 * u * u - kLogSqrt2Pi - std::log(inverse_ratio);
}

double LogProbabilityOfFeasibility(const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma,
                                   Eigen::VectorXd* d_mean, Eigen::VectorXd* d_sigma) {
  RequireSigmas(mean, sigma, "constraint_mean", "constraint_sigma");
  const Eigen::Index m = mean.size();
  if (d_mean != nullptr) d_mean->resize(m);
  if (d_sigma != nullptr) d_sigma->resize(m);
  double total = 0.0;
  for (Eigen::Index j = 0; j < m; ++j) {
    // z = -m / s; dz/dm = -1/s, dz/ds = m / s^2.
    const double z = -mean(j) / sigma(j);
    double r = 0.0;
    total += LogNormalCdf(z, &r);
    if (d_mean != nullptr) (*d_mean)(j) = -r / sigma(j);
    if (d_sigma != nullptr) (*d_sigma)(j) = r * mean(j) / (sigma(j) * sigma(j));
  }
  return total;
}

double ConstrainedLogExpectedImprovement(double mean, double sigma, double best,
                                         const Eigen::VectorXd& constraint_mean,
                                         const Eigen::VectorXd& constraint_sigma,
                                         ConstrainedScoreGradient* gradient) {
  if (std::isnan(best) || best == std::numeric_limits<double>::infinity()) {
    std::ostringstream message;
    message << "best = " << best << " must be finite or -infinity (nothing feasible observed)";
    throw std::invalid_argument(message.str());
  }
  if (!std::isfinite(mean) || !(sigma > 0.0) || !std::isfinite(sigma)) {
    std::ostringstream message;
    message << "objective mean = " << mean << ", sigma = " << sigma
            << ": mean must be finite, sigma finite and > 0";
    throw std::invalid_argument(message.str());
  }
  Eigen::VectorXd dc_mean, dc_sigma;
  double score =
      LogProbabilityOfFeasibility(constraint_mean, constraint_sigma, &dc_mean, &dc_sigma);
  double d_mean = 0.0, d_sigma = 0.0;
  if (std::isfinite(best))
    score += LogExpectedImprovementValue(mean, sigma, best, &d_mean, &d_sigma);
  if (gradient != nullptr) {
    gradient->d_mean = d_mean;
    gradient->d_sigma = d_sigma;
    gradient->d_constraint_mean = dc_mean;
    gradient->d_constraint_sigma = dc_sigma;
  }
  return score;
}

ScboChoice ChooseScbo(const Eigen::VectorXd& objective_draws,
                      const Eigen::MatrixXd& constraint_draws) {
  const Eigen::Index n = objective_draws.size();
  if (n < 1) throw std::invalid_argument("objective_draws is empty; at least one candidate needed");
  if (constraint_draws.cols() != n) {
    throw std::invalid_argument("constraint_draws has " + std::to_string(constraint_draws.cols()) +
                                " columns but objective_draws has " + std::to_string(n) +
                                " entries");
  }
  RequireFiniteMatrix(objective_draws, "objective_draws");
  RequireFiniteMatrix(constraint_draws, "constraint_draws");
  ScboChoice feasible, least_violating;
  for (Eigen::Index j = 0; j < n; ++j) {
    const double violation = constraint_draws.col(j).cwiseMax(0.0).sum();
    const int index = static_cast<int>(j);
    if (violation == 0.0) {
      if (feasible.index < 0 || objective_draws(j) > objective_draws(feasible.index))
        feasible = ScboChoice{index, true, 0.0};
    } else if (least_violating.index < 0 || violation < least_violating.total_violation) {
      least_violating = ScboChoice{index, false, violation};
    }
  }
  return feasible.index >= 0 ? feasible : least_violating;
}

}  // namespace gpbandit
