// Which fidelity to evaluate a chosen point at: pure functions over the joint posterior of
// f_0(x), ..., f_{F-1}(x) at one point (fidelity 0 the cheapest, F - 1 the target). The point
// itself is always chosen at the target by whatever strategy runs; these rules only say where
// to spend the evaluation.
//
// Two rules:
// - The threshold rule of MF-GP-UCB (Kandasamy et al., NIPS 2016, Algorithm 1): evaluate at
//   the cheapest fidelity m whose sqrt(beta) sigma_m(x) >= gamma_m, else at the target. The
//   thresholds come from the costs and the bias bounds zeta_m >= sup |f_T - f_m|:
//   gamma_m = sqrt(cost_m / cost_{m+1}) zeta_m (the paper's choice up to its constant; a
//   fidelity whose bias is large needs more uncertainty before it is worth querying). The
//   point-choice side of MF-GP-UCB, phi(x) = min_m (mu_m + sqrt(beta) sigma_m + zeta_m), is
//   MultiFidelityUpperBound.
// - Information gain about the target per unit cost (the Gaussian case of Swersky et al.
//   2013's entropy-per-cost and of MF-MI-Greedy, Song et al. 2019): an observation
//   y_m = f_m(x) + eps, eps ~ N(0, noise_m), tells
//     I(y_m; f_T(x)) = 0.5 log(var_T / (var_T - cov_mT^2 / (var_m + noise_m)))
//   nats about the target's value at x under the joint posterior; the rule picks the
//   fidelity with the largest I / cost_m (ties to the cheaper one).
//
// When the simulator is useless. Both rules take, per lower fidelity, its PRIOR correlation
// with the target at x under the fitted model (FidelityPriorCovariance, fidelity_kernels.h):
// corr_m = k((x,m),(x,T)) / sqrt(k((x,m),(x,m)) k((x,T),(x,T))), which is
// rho k_0 / sqrt(k_0 (rho^2 k_0 + k_1)) for a fitted autoregressive model and
// B_mT / sqrt(B_mm B_TT) for an ICM. A lower fidelity with corr_m < min_correlation is never
// chosen: with rho or B_mT fitted near 0 the rule picks only the target, i.e. behaves like
// target-only optimization. The gate is signed: a simulator fitted as the NEGATIVE of the
// target (rho < 0) is also excluded, although a joint GP could in principle use it, because a
// sign flip between simulator and plant means the simulator is wrong in kind, and neither
// MF-GP-UCB's bias bound nor the cost argument covers it.
//
// Units: means, variances and noise in the model's (standardized) units; costs in any one
// unit. Inputs are checked: bad input throws std::invalid_argument naming the field and value.
// Thread safety: pure functions.
#ifndef GPBANDIT_ACQUISITION_FIDELITY_RULE_H_
#define GPBANDIT_ACQUISITION_FIDELITY_RULE_H_

#include <Eigen/Core>
#include <vector>

namespace gpbandit {

// The joint posterior of (f_0(x), ..., f_{F-1}(x)) at one x, and what the rules read beside it.
struct FidelityPosterior {
  Eigen::VectorXd mean;        // F posterior means
  Eigen::MatrixXd covariance;  // F x F posterior covariance (symmetric, diagonal >= 0)
  // F prior correlations corr_m with the target (above); entry F - 1 is 1. Empty: all 1 (no
  // gate).
  Eigen::VectorXd prior_correlation;
};

// Throws std::invalid_argument unless there is at least one cost, each finite and > 0, strictly
// increasing ("costs[1] = 0.5 is not above costs[0] = 1"), naming the field and the value.
void ValidateFidelityCosts(const std::vector<double>& costs);

// Throws std::invalid_argument unless posterior has F entries everywhere (prior_correlation: F
// or none), all finite, a symmetric covariance with a non-negative diagonal; names the field.
void ValidateFidelityPosterior(const FidelityPosterior& posterior, int num_fidelities);

// The prior correlations with the target from an F x F prior covariance (entry F - 1 is 1; an
// entry with a zero prior variance gets 0). Throws std::invalid_argument for a non-square
// matrix.
Eigen::VectorXd CorrelationWithTarget(const Eigen::MatrixXd& prior_covariance);

// Lower fidelities with corr_m >= min_correlation may be chosen; the target always may.
std::vector<bool> UsableFidelities(const FidelityPosterior& posterior, double min_correlation);

struct FidelityChoice {
  int fidelity = 0;        // in [0, F)
  Eigen::VectorXd scores;  // per fidelity: the rule's score (below); -infinity when excluded
};

struct ThresholdRuleOptions {
  // The confidence multiplier beta_t of the strategy (sqrt(beta) sigma is the width). > 0.
  double beta = 4.0;
  // The bias bounds zeta_0..zeta_{F-2} of the lower fidelities (model units), each >= 0.
  std::vector<double> zeta;
  // Explicit thresholds gamma_0..gamma_{F-2}, each >= 0; empty (the default): from the costs.
  std::vector<double> gamma;
  // The usefulness gate (above). In [-1, 1]. Default 0.3.
  double min_correlation = 0.3;
};

// gamma_m = sqrt(costs[m] / costs[m + 1]) zeta[m], m = 0..F-2. Validates costs and zeta (F - 1
// entries, each finite and >= 0).
std::vector<double> ThresholdsFromCosts(const std::vector<double>& costs,
                                        const std::vector<double>& zeta);

// MF-GP-UCB's choice: the smallest usable m < F - 1 with sqrt(beta) sigma_m >= gamma_m, else
// F - 1. scores(m) = sqrt(beta) sigma_m - gamma_m (the target's: sqrt(beta) sigma_T).
FidelityChoice ThresholdRuleFidelity(const FidelityPosterior& posterior,
                                     const std::vector<double>& costs,
                                     const ThresholdRuleOptions& options);

// phi(x) = min over m of mu_m + sqrt(beta) sigma_m + zeta_m (zeta_T = 0), over the usable
// fidelities: the upper bound on f_T(x) that MF-GP-UCB maximizes.
double MultiFidelityUpperBound(const FidelityPosterior& posterior,
                               const ThresholdRuleOptions& options);

struct InformationRuleOptions {
  // Observation noise variance of each fidelity (model units), F entries, each finite and > 0
  // (an exact observation of the target would be worth infinitely much).
  std::vector<double> noise;
  // The usefulness gate (above). In [-1, 1]. Default 0.3.
  double min_correlation = 0.3;
};

// I(y_m; f_T(x)) in nats under the joint posterior (formula above), for one fidelity m.
// 0 when var_T = 0.
double InformationAboutTarget(const FidelityPosterior& posterior, int m, double noise_m);

// The usable fidelity of largest I / cost_m; scores(m) = I_m / cost_m (nats per cost unit).
// When no fidelity tells anything (var_T = 0), the target.
FidelityChoice InformationRuleFidelity(const FidelityPosterior& posterior,
                                       const std::vector<double>& costs,
                                       const InformationRuleOptions& options);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_FIDELITY_RULE_H_
