// Outcome constraints that only the answer must satisfy (not safety signals, safety_signal.h):
// the probability that a point is feasible under independent Gaussian posteriors, computed in
// log space; constrained expected improvement; and SCBO's rule for Thompson draws.
//
// Convention: a constraint is declared g(x) <= bound or g(x) >= bound, and converted once, where
// it enters, to c(x) with "feasible when c(x) <= 0" (pagmo's and Optuna's convention; BoTorch's
// slack s >= 0 is c = -s): c = g - bound for <=, c = bound - g for >=. A Gaussian posterior of
// g, N(m, s^2), becomes N(m', s^2) with m' converted the same way.
//
// Formulas, for constraints c_j ~ N(m_j, s_j^2), independent:
//   PoF = prod_j P(c_j <= 0) = prod_j Phi(-m_j / s_j),
//   log PoF = sum_j log Phi(-m_j / s_j)             (Gardner, Kusner, Xu, Weinberger &
//                                                     Cunningham, ICML 2014; Gelbart, Snoek &
//                                                     Adams, UAI 2014),
//   constrained log EI = log EI(m_f, s_f; best) + log PoF, where best is the best value
//     observed feasible; when nothing feasible has been observed (best = -infinity), the score
//     is log PoF alone: the round searches for feasibility (Gelbart et al. 2014, sec. 3).
// log Phi is stable in the far lower tail (Laplace's continued fraction for the Mills ratio,
// as log_expected_improvement.h), so log PoF stays finite and informative where PoF is 0.
//
// SCBO (Eriksson & Poloczek, AISTATS 2021, "Scalable constrained Bayesian optimization"): given
// one Thompson draw of the objective and of the constraints at n candidates, choose the
// candidate with the largest drawn objective among those whose drawn constraints are all
// <= 0; if none is, the one with the smallest drawn total violation sum_j max(c_j, 0). Ties go
// to the smallest index.
//
// Units: means and standard deviations in the outcome's units; log PoF is dimensionless; log EI
// is the log of the objective's units. Contract: sizes match, every entry finite, every sigma
// > 0 (a caller clamps a variance at a floor, as LogEI does); otherwise std::invalid_argument
// naming the field, the entry and its value.
// Thread-safety: free functions without shared state; safe to call concurrently.
#ifndef GPBANDIT_ACQUISITION_FEASIBILITY_H_
#define GPBANDIT_ACQUISITION_FEASIBILITY_H_

#include <Eigen/Core>

namespace gpbandit {

enum class ConstraintSense {
  kLessEqual,     // g(x) <= bound
  kGreaterEqual,  // g(x) >= bound
};

struct OutcomeConstraint {
  ConstraintSense sense = ConstraintSense::kLessEqual;
  double bound = 0.0;  // finite, in g's units
};

// c = g - bound (<=) or bound - g (>=): feasible when c <= 0. Throws for a non-finite bound.
double FeasibleWhenNonPositive(double g, const OutcomeConstraint& constraint);

// log Phi(z) with *derivative (if non-null) = d log Phi / dz = phi(z) / Phi(z). Finite for every
// finite z with |z| < 1e154 (log Phi(-40) = -804.6); relative error below 1e-14
// (tested against 40-digit values).
double LogNormalCdf(double z, double* derivative);

// log PoF over m constraints (c <= 0 feasible): mean and sigma have m entries; the gradients (if
// non-null) are resized to m. m = 0 gives 0 (certainly feasible).
double LogProbabilityOfFeasibility(const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma,
                                   Eigen::VectorXd* d_mean, Eigen::VectorXd* d_sigma);

struct ConstrainedScoreGradient {
  double d_mean = 0.0, d_sigma = 0.0;  // in the objective's mean and standard deviation
  Eigen::VectorXd d_constraint_mean, d_constraint_sigma;  // m entries each
};

// Constrained log EI: log EI(mean, sigma; best) + log PoF(constraints), or log PoF alone when
// best is -infinity (nothing feasible observed). best may not be NaN or +infinity.
double ConstrainedLogExpectedImprovement(double mean, double sigma, double best,
                                         const Eigen::VectorXd& constraint_mean,
                                         const Eigen::VectorXd& constraint_sigma,
                                         ConstrainedScoreGradient* gradient);

struct ScboChoice {
  int index = -1;                // the chosen candidate (column)
  bool feasible = false;         // whether its drawn constraints all hold
  double total_violation = 0.0;  // sum_j max(c_j, 0) at the chosen candidate
};

// objective_draws: n entries (maximized); constraint_draws: m x n (feasible when <= 0; m may be
// 0). n >= 1.
ScboChoice ChooseScbo(const Eigen::VectorXd& objective_draws,
                      const Eigen::MatrixXd& constraint_draws);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_FEASIBILITY_H_
