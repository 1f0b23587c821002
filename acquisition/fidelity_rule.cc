#include "gpbandit/acquisition/fidelity_rule.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string Entry(const std::string& field, std::size_t i, double value) {
  return field + "[" + std::to_string(i) + "] = " + FormatDouble(value);
}

void CheckNonNegativeEntries(const std::string& field, const std::vector<double>& values,
                             std::size_t expected) {
  if (values.size() != expected)
    throw std::invalid_argument(field + " has " + std::to_string(values.size()) +
                                " entries, expected " + std::to_string(expected));
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!(values[i] >= 0.0) || !std::isfinite(values[i]))
      throw std::invalid_argument(Entry(field, i, values[i]) + " must be finite and >= 0");
}

void CheckCorrelation(const std::string& field, double value) {
  if (!(value >= -1.0 && value <= 1.0))
    throw std::invalid_argument(field + " = " + FormatDouble(value) + " is not in [-1, 1]");
}

int NumFidelities(const std::vector<double>& costs) { return static_cast<int>(costs.size()); }

double StandardDeviation(const FidelityPosterior& p, int m) {
  return std::sqrt(std::max(p.covariance(m, m), 0.0));
}

}  // namespace

void ValidateFidelityCosts(const std::vector<double>& costs) {
  if (costs.empty()) throw std::invalid_argument("costs is empty: at least the target has a cost");
  for (std::size_t i = 0; i < costs.size(); ++i) {
    if (!(costs[i] > 0.0) || !std::isfinite(costs[i]))
      throw std::invalid_argument(Entry("costs", i, costs[i]) + " must be finite and > 0");
    if (i > 0 && !(costs[i] > costs[i - 1]))
      throw std::invalid_argument(Entry("costs", i, costs[i]) + " is not above " +
                                  Entry("costs", i - 1, costs[i - 1]) +
                                  " (fidelities are ordered by cost, the target last)");
  }
}

void ValidateFidelityPosterior(const FidelityPosterior& p, int num_fidelities) {
  const Eigen::Index F = num_fidelities;
  if (p.mean.size() != F)
    throw std::invalid_argument("posterior.mean has " + std::to_string(p.mean.size()) +
                                " entries, expected " + std::to_string(F));
  if (p.covariance.rows() != F || p.covariance.cols() != F)
    throw std::invalid_argument("posterior.covariance is " + std::to_string(p.covariance.rows()) +
                                " x " + std::to_string(p.covariance.cols()) + ", expected " +
                                std::to_string(F) + " x " + std::to_string(F));
  if (p.prior_correlation.size() != 0 && p.prior_correlation.size() != F)
    throw std::invalid_argument("posterior.prior_correlation has " +
                                std::to_string(p.prior_correlation.size()) + " entries, expected " +
                                std::to_string(F) + " or none");
  for (Eigen::Index i = 0; i < F; ++i) {
    if (!std::isfinite(p.mean(i)))
      throw std::invalid_argument(Entry("posterior.mean", i, p.mean(i)) + " is not finite");
    if (!(p.covariance(i, i) >= 0.0))
      throw std::invalid_argument("posterior.covariance(" + std::to_string(i) + ", " +
                                  std::to_string(i) + ") = " + FormatDouble(p.covariance(i, i)) +
                                  " must be >= 0");
    for (Eigen::Index j = 0; j < F; ++j) {
      const double v = p.covariance(i, j);
      if (!std::isfinite(v) || std::abs(v - p.covariance(j, i)) > 1e-9 * (1.0 + std::abs(v)))
        throw std::invalid_argument("posterior.covariance(" + std::to_string(i) + ", " +
                                    std::to_string(j) + ") = " + FormatDouble(v) +
                                    " is not finite or not symmetric");
    }
    if (p.prior_correlation.size() == F)
      CheckCorrelation("posterior.prior_correlation[" + std::to_string(i) + "]",
                       p.prior_correlation(i));
  }
}

Eigen::VectorXd CorrelationWithTarget(const Eigen::MatrixXd& prior_covariance) {
  if (prior_covariance.rows() != prior_covariance.cols() || prior_covariance.rows() == 0)
    throw std::invalid_argument("prior_covariance is " + std::to_string(prior_covariance.rows()) +
                                " x " + std::to_string(prior_covariance.cols()) +
                                ", not square and non-empty");
  const Eigen::Index T = prior_covariance.rows() - 1;
  Eigen::VectorXd corr(T + 1);
  for (Eigen::Index m = 0; m <= T; ++m) {
    const double denominator = std::sqrt(prior_covariance(m, m) * prior_covariance(T, T));
    corr(m) = denominator > 0.0 ? prior_covariance(m, T) / denominator : 0.0;
    corr(m) = std::min(1.0, std::max(-1.0, corr(m)));  // rounding
  }
  corr(T) = 1.0;
  return corr;
}

std::vector<bool> UsableFidelities(const FidelityPosterior& p, double min_correlation) {
  CheckCorrelation("min_correlation", min_correlation);
  const Eigen::Index F = p.mean.size();
  std::vector<bool> usable(F, true);
  if (p.prior_correlation.size() == 0) return usable;
  for (Eigen::Index m = 0; m + 1 < F; ++m) usable[m] = p.prior_correlation(m) >= min_correlation;
  return usable;
}

std::vector<double> ThresholdsFromCosts(const std::vector<double>& costs,
                                        const std::vector<double>& zeta) {
  ValidateFidelityCosts(costs);
  CheckNonNegativeEntries("zeta", zeta, costs.size() - 1);
  std::vector<double> gamma(zeta.size());
  for (std::size_t m = 0; m < zeta.size(); ++m)
    gamma[m] = std::sqrt(costs[m] / costs[m + 1]) * zeta[m];
  return gamma;
}

FidelityChoice ThresholdRuleFidelity(const FidelityPosterior& posterior,
                                     const std::vector<double>& costs,
                                     const ThresholdRuleOptions& options) {
  ValidateFidelityCosts(costs);
  const int F = NumFidelities(costs);
  ValidateFidelityPosterior(posterior, F);
  if (!(options.beta > 0.0) || !std::isfinite(options.beta))
    throw std::invalid_argument("beta = " + FormatDouble(options.beta) + " must be finite and > 0");
  std::vector<double> gamma = options.gamma;
  if (gamma.empty()) {
    gamma = ThresholdsFromCosts(costs, options.zeta);
  } else {
    CheckNonNegativeEntries("gamma", gamma, costs.size() - 1);
  }
  const std::vector<bool> usable = UsableFidelities(posterior, options.min_correlation);
  const double root_beta = std::sqrt(options.beta);
  FidelityChoice choice;
  choice.fidelity = F - 1;
  choice.scores = Eigen::VectorXd::Constant(F, -kInfinity);
  choice.scores(F - 1) = root_beta * StandardDeviation(posterior, F - 1);
  for (int m = F - 2; m >= 0; --m) {
    if (!usable[m]) continue;
    choice.scores(m) = root_beta * StandardDeviation(posterior, m) - gamma[m];
    if (choice.scores(m) >= 0.0) choice.fidelity = m;  // the cheapest such m wins (m descends)
  }
  return choice;
}

double MultiFidelityUpperBound(const FidelityPosterior& posterior,
                               const ThresholdRuleOptions& options) {
  const int F = static_cast<int>(posterior.mean.size());
  if (F < 1) throw std::invalid_argument("posterior.mean is empty");
  ValidateFidelityPosterior(posterior, F);
  CheckNonNegativeEntries("zeta", options.zeta, F - 1);
  if (!(options.beta > 0.0) || !std::isfinite(options.beta))
    throw std::invalid_argument("beta = " + FormatDouble(options.beta) + " must be finite and > 0");
  const std::vector<bool> usable = UsableFidelities(posterior, options.min_correlation);
  const double root_beta = std::sqrt(options.beta);
  double bound = kInfinity;
  for (int m = 0; m < F; ++m) {
    if (!usable[m]) continue;
    const double zeta = m + 1 < F ? options.zeta[m] : 0.0;
    bound = std::min(bound, posterior.mean(m) + root_beta * StandardDeviation(posterior, m) + zeta);
  }
  return bound;
}

double InformationAboutTarget(const FidelityPosterior& posterior, int m, double noise_m) {
  const Eigen::Index T = posterior.mean.size() - 1;
  if (m < 0 || m > T)
    throw std::invalid_argument("fidelity m = " + std::to_string(m) + " is not in [0, " +
                                std::to_string(T + 1) + ")");
  if (!(noise_m > 0.0) || !std::isfinite(noise_m))
    throw std::invalid_argument("noise[" + std::to_string(m) + "] = " + FormatDouble(noise_m) +
                                " must be finite and > 0");
  const double var_t = posterior.covariance(T, T);
  if (!(var_t > 0.0)) return 0.0;
  const double cov = posterior.covariance(m, T);
  const double var_m = std::max(posterior.covariance(m, m), 0.0);
  // var_T - cov^2 / (var_m + noise) is the target's variance after seeing y_m; as a fraction of
  // var_T it is 1 - rho_y^2 with rho_y the correlation of y_m and f_T, in (0, 1] when the
  // covariance is PSD. Clamped from below so that rounding cannot take the log of <= 0.
  const double remaining = std::max(1.0 - cov * cov / ((var_m + noise_m) * var_t), 1e-300);
  return -0.5 * std::log(remaining);
}

FidelityChoice InformationRuleFidelity(const FidelityPosterior& posterior,
                                       const std::vector<double>& costs,
                                       const InformationRuleOptions& options) {
  ValidateFidelityCosts(costs);
  const int F = NumFidelities(costs);
  ValidateFidelityPosterior(posterior, F);
  if (options.noise.size() != costs.size())
    throw std::invalid_argument("noise has " + std::to_string(options.noise.size()) +
                                " entries, expected " + std::to_string(F));
  const std::vector<bool> usable = UsableFidelities(posterior, options.min_correlation);
  FidelityChoice choice;
  choice.fidelity = F - 1;
  choice.scores = Eigen::VectorXd::Constant(F, -kInfinity);
  double best = 0.0;  // a fidelity must tell something to beat the target's default
  for (int m = 0; m < F; ++m) {
    const double info = InformationAboutTarget(posterior, m, options.noise[m]);
    if (!usable[m]) continue;
    choice.scores(m) = info / costs[m];
    if (choice.scores(m) > best) {  // strict: ties stay with the cheaper fidelity
      best = choice.scores(m);
      choice.fidelity = m;
    }
  }
  return choice;
}

}  // namespace gpbandit
