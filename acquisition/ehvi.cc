#include "gpbandit/acquisition/ehvi.h"

#include <algorithm>
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

constexpr double kLn2 = 0.69314718055994530942;

// log(1 - exp(x)) for x <= 0 without cancellation (Maechler 2012: two branches at -log 2).
double Log1mExp(double x) {
  return x > -kLn2 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x));
}

void RequireVector(const Eigen::VectorXd& v, Eigen::Index size, const char* field) {
  if (v.size() != size) {
    throw std::invalid_argument(std::string(field) + " has " + std::to_string(v.size()) +
                                " entries; expected " + std::to_string(size));
  }
  RequireFiniteMatrix(v, field);
}

int CutIndex(const std::vector<double>& cuts, double value) {
  if (std::isinf(value)) return -1;
  return static_cast<int>(std::lower_bound(cuts.begin(), cuts.end(), value) - cuts.begin());
}

// log h at one cut, in one objective: z, log h(z) and d log h / dz = Phi(z) / h(z).
struct CutTerm {
  double z = 0.0, log_h = 0.0, g = 0.0;
};

// log T and its derivatives from the terms at the box's lower cut and (upper != nullptr) its
// upper cut: with D = log h(z_u) - log h(z_l) <= 0,
//   log T = log s + log h(z_l) + log(1 - e^D),
//   d log T / dm = (g_l - g_u e^D) / ((1 - e^D) s),
//   d log T / ds = (1 - (g_l z_l - g_u z_u e^D) / (1 - e^D)) / s.
double LogFactorFromTerms(const CutTerm& lower, const CutTerm* upper, double sigma,
                          double log_sigma, double* d_mean, double* d_sigma) {
  if (upper == nullptr) {
    *d_mean = lower.g / sigma;
    *d_sigma = (1.0 - lower.z * lower.g) / sigma;
    return log_sigma + lower.log_h;
  }
  const double d = upper->log_h - lower.log_h;
  const double e = std::exp(d), one_minus = -std::expm1(d);
  *d_mean = (lower.g - upper->g * e) / (one_minus * sigma);
  *d_sigma = (1.0 - (lower.g * lower.z - upper->g * upper->z * e) / one_minus) / sigma;
  return log_sigma + lower.log_h + Log1mExp(d);
}

CutTerm MakeCutTerm(double cut, double mean, double sigma) {
  CutTerm term;
  term.z = (mean - cut) / sigma;
  term.log_h = LogImprovementFactor(term.z, &term.g);
  return term;
}

}  // namespace

double LogBoxFactor(double lower, double upper, double mean, double sigma, double* d_mean,
                    double* d_sigma) {
  const CutTerm low = MakeCutTerm(lower, mean, sigma);
  const CutTerm high = std::isinf(upper) ? CutTerm() : MakeCutTerm(upper, mean, sigma);
  double dm = 0.0, ds = 0.0;
  const double value = LogFactorFromTerms(low, std::isinf(upper) ? nullptr : &high, sigma,
                                          std::log(sigma), &dm, &ds);
  if (d_mean != nullptr) *d_mean = dm;
  if (d_sigma != nullptr) *d_sigma = ds;
  return value;
}

ExpectedHypervolumeImprovement::ExpectedHypervolumeImprovement(const Eigen::MatrixXd& front,
                                                               const Eigen::VectorXd& reference)
    : reference_(reference), boxes_(NonDominatedBoxes(front, reference)) {
  const int k = objectives(), count = boxes_.size();
  cuts_.assign(k, {});
  for (int i = 0; i < k; ++i) {
    std::vector<double>& cuts = cuts_[i];
    for (int b = 0; b < count; ++b) {
      cuts.push_back(boxes_.lower(i, b));
      if (std::isfinite(boxes_.upper(i, b))) cuts.push_back(boxes_.upper(i, b));
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  }
  lower_index_.resize(k, count);
  upper_index_.resize(k, count);
  for (int b = 0; b < count; ++b) {
    for (int i = 0; i < k; ++i) {
      lower_index_(i, b) = CutIndex(cuts_[i], boxes_.lower(i, b));
      upper_index_(i, b) = CutIndex(cuts_[i], boxes_.upper(i, b));
    }
  }
}

void ExpectedHypervolumeImprovement::CheckArguments(const Eigen::VectorXd& mean,
                                                    const Eigen::VectorXd& sigma) const {
  RequireVector(mean, objectives(), "mean");
  RequireVector(sigma, objectives(), "sigma");
  for (Eigen::Index i = 0; i < sigma.size(); ++i) {
    if (!(sigma(i) > 0.0)) {
      std::ostringstream message;
      message << "sigma(" << i << ") = " << sigma(i) << " must be > 0";
      throw std::invalid_argument(message.str());
    }
  }
}

double ExpectedHypervolumeImprovement::Log(const Eigen::VectorXd& mean,
                                           const Eigen::VectorXd& sigma, Eigen::VectorXd* d_mean,
                                           Eigen::VectorXd* d_sigma) const {
  CheckArguments(mean, sigma);
  const int k = objectives(), count = boxes_.size();
  std::vector<std::vector<CutTerm>> terms(k);
  for (int i = 0; i < k; ++i)
    for (double cut : cuts_[i]) terms[i].push_back(MakeCutTerm(cut, mean(i), sigma(i)));
  const Eigen::ArrayXd log_sigma = sigma.array().log();

  // Per box: its log term and the derivatives of its per-objective factors.
  Eigen::VectorXd log_box(count);
  Eigen::MatrixXd box_d_mean(k, count), box_d_sigma(k, count);
  double largest = -std::numeric_limits<double>::infinity();
  for (int b = 0; b < count; ++b) {
    double sum = 0.0;
    for (int i = 0; i < k; ++i) {
      const int upper = upper_index_(i, b);
      sum +=
          LogFactorFromTerms(terms[i][lower_index_(i, b)], upper < 0 ? nullptr : &terms[i][upper],
                             sigma(i), log_sigma(i), &box_d_mean(i, b), &box_d_sigma(i, b));
    }
    log_box(b) = sum;
    largest = std::max(largest, sum);
  }
  // log-sum-exp over boxes; a box whose factor is log 0 (thinner than the rounding of h) has
  // weight 0 and no gradient.
  double total = 0.0;
  Eigen::VectorXd weights(count);
  for (int b = 0; b < count; ++b) {
    weights(b) = std::isfinite(log_box(b)) ? std::exp(log_box(b) - largest) : 0.0;
    total += weights(b);
  }
  weights /= total;
  if (d_mean != nullptr) *d_mean = Eigen::VectorXd::Zero(k);
  if (d_sigma != nullptr) *d_sigma = Eigen::VectorXd::Zero(k);
  for (int b = 0; b < count; ++b) {
    if (weights(b) == 0.0) continue;
    if (d_mean != nullptr) *d_mean += weights(b) * box_d_mean.col(b);
    if (d_sigma != nullptr) *d_sigma += weights(b) * box_d_sigma.col(b);
  }
  return largest + std::log(total);
}

double ExpectedHypervolumeImprovement::Value(const Eigen::VectorXd& mean,
                                             const Eigen::VectorXd& sigma, Eigen::VectorXd* d_mean,
                                             Eigen::VectorXd* d_sigma) const {
  CheckArguments(mean, sigma);
  const int k = objectives(), count = boxes_.size();
  // Per cut: h(z), Phi(z), phi(z); +infinity (index -1) has all three 0.
  std::vector<std::vector<Eigen::Vector3d>> terms(k);
  for (int i = 0; i < k; ++i) {
    for (double cut : cuts_[i]) {
      const double z = (mean(i) - cut) / sigma(i);
      const double pdf = NormalPdf(z), cdf = NormalCdf(z);
      terms[i].push_back(Eigen::Vector3d(pdf + z * cdf, cdf, pdf));
    }
  }
  auto term = [&](int i, int index) {
    return index < 0 ? Eigen::Vector3d::Zero().eval() : terms[i][index];
  };
  double value = 0.0;
  Eigen::VectorXd gm = Eigen::VectorXd::Zero(k), gs = Eigen::VectorXd::Zero(k);
  Eigen::VectorXd factor(k), factor_d_mean(k), factor_d_sigma(k);
  for (int b = 0; b < count; ++b) {
    for (int i = 0; i < k; ++i) {
      const Eigen::Vector3d diff = term(i, lower_index_(i, b)) - term(i, upper_index_(i, b));
      factor(i) = sigma(i) * diff(0);
      factor_d_mean(i) = diff(1);
      factor_d_sigma(i) = diff(2);
    }
    value += factor.prod();
    for (int i = 0; i < k; ++i) {
      double others = 1.0;
      for (int j = 0; j < k; ++j)
        if (j != i) others *= factor(j);
      gm(i) += others * factor_d_mean(i);
      gs(i) += others * factor_d_sigma(i);
    }
  }
  if (d_mean != nullptr) *d_mean = gm;
  if (d_sigma != nullptr) *d_sigma = gs;
  return value;
}

NoisyEhviEstimate NoisyExpectedHypervolumeImprovement(
    const std::vector<Eigen::MatrixXd>& observed_draws, const Eigen::MatrixXd& candidate_draws,
    const Eigen::VectorXd& reference) {
  const Eigen::Index draws = static_cast<Eigen::Index>(observed_draws.size());
  if (draws < 1) throw std::invalid_argument("observed_draws is empty; at least one draw needed");
  if (candidate_draws.cols() != draws || candidate_draws.rows() != reference.size()) {
    throw std::invalid_argument("candidate_draws is " + std::to_string(candidate_draws.rows()) +
                                " x " + std::to_string(candidate_draws.cols()) + "; expected " +
                                std::to_string(reference.size()) + " x " + std::to_string(draws));
  }
  RequireFiniteMatrix(candidate_draws, "candidate_draws");
  Eigen::VectorXd improvement(draws);
  for (Eigen::Index s = 0; s < draws; ++s) {
    const Eigen::MatrixXd& drawn = observed_draws[s];
    if (drawn.rows() != reference.size()) {
      throw std::invalid_argument("observed_draws[" + std::to_string(s) + "] has " +
                                  std::to_string(drawn.rows()) + " objectives (rows); expected " +
                                  std::to_string(reference.size()));
    }
    RequireFiniteMatrix(drawn, "observed_draws[" + std::to_string(s) + "]");
    const Eigen::MatrixXd above = PointsDominatingReference(drawn, reference);
    const std::vector<int> front = NonDominatedIndices(above, Duplicates::kKeepFirst);
    Eigen::MatrixXd front_points(above.rows(), static_cast<Eigen::Index>(front.size()));
    for (size_t c = 0; c < front.size(); ++c) front_points.col(c) = above.col(front[c]);
    improvement(s) = HypervolumeImprovement(candidate_draws.col(s), front_points, reference);
  }
  NoisyEhviEstimate estimate;
  estimate.value = improvement.mean();
  if (draws > 1) {
    const double variance =
        (improvement.array() - estimate.value).square().sum() / static_cast<double>(draws - 1);
    estimate.standard_error = std::sqrt(variance / static_cast<double>(draws));
  }
  estimate.log_value = std::log(estimate.value);
  return estimate;
}

}  // namespace gpbandit
