// Expected hypervolume improvement (EHVI) of a candidate whose k objectives (maximized) are
// independent Gaussians Y_i ~ N(mean_i, sigma_i^2), over a current front P with reference r:
//   EHVI = E[ HVI(Y) ],  HVI(y) = HV(P u {y}; r) - HV(P; r)   (hypervolume.h).
// Exact for k <= 3 by the box decomposition of the region P does not dominate (Emmerich,
// Deutz & Klinkenberg, CEC 2011; Yang, Emmerich, Deutz & Bäck, Swarm Evol. Comput. 2019): over
// the boxes [l_b, u_b] of that region, HVI(y) = sum_b prod_i (min(y_i, u_bi) - l_bi)_+, so with
// independent objectives
//   EHVI = sum_b prod_i T(l_bi, u_bi; mean_i, sigma_i),
//   T(l, u; m, s) = E[(min(Y, u) - l)_+] = integral_l^u P(Y > t) dt
//                 = s (h(z_l) - h(z_u)),   z_l = (m - l) / s,  z_u = (m - u) / s,
// with h(z) = phi(z) + z Phi(z) (log_expected_improvement.h; h(-inf) = 0, so an unbounded box
// gives T = s h(z_l), expected improvement). This is the psi-function form of Emmerich et al.
// written with h. Derivatives: dT/dm = Phi(z_l) - Phi(z_u), dT/ds = phi(z_l) - phi(z_u).
//
// Log form (Ament, Daulton, Eriksson, Balandat & Bakshy, NeurIPS 2023, LogEHVI): log EHVI =
// logsumexp_b sum_i log T_bi, log T = log s + log h(z_l) + log1mexp(log h(z_u) - log h(z_l)),
// with log h from LogImprovementFactor: finite and with a useful gradient however far the
// candidate lies below the front, where EHVI itself underflows to 0. Its relative accuracy is
// that of log h except for boxes thinner than ~1e-8 sigma in some objective, whose terms lose
// digits to the difference of two close log h (such a box holds a negligible part of EHVI
// unless the candidate sits on it).
//
// The Monte-Carlo estimator for the noisy front (Daulton, Balandat & Bakshy, NeurIPS 2021,
// qNEHVI with q = 1): the mean over S joint posterior draws of the hypervolume improvement of
// the candidate's drawn objectives over the front of the drawn objectives at the observed
// points, for any k (exact HVI per draw by slicing; practical for k <= 5, n ~ 100).
//
// Units: mean, sigma and the front in the objectives' units (maximized); EHVI in their product.
// Thread-safety: an ExpectedHypervolumeImprovement is immutable after construction; its const
// members may run concurrently. The free functions share no state.
#ifndef GPBANDIT_ACQUISITION_EHVI_H_
#define GPBANDIT_ACQUISITION_EHVI_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/acquisition/hypervolume.h"

namespace gpbandit {

class ExpectedHypervolumeImprovement {
 public:
  // front: k x n (1 <= k <= 3), every point >= reference (see PointsDominatingReference);
  // dominated points and duplicates are allowed (they add no box). Throws
  // std::invalid_argument as NonDominatedBoxes does.
  ExpectedHypervolumeImprovement(const Eigen::MatrixXd& front, const Eigen::VectorXd& reference);

  int objectives() const { return static_cast<int>(reference_.size()); }
  const BoxDecomposition& boxes() const { return boxes_; }

  // log EHVI at (mean, sigma), k entries each, sigma > 0; the gradients (if non-null) are
  // resized to k. Throws std::invalid_argument naming a wrong size, a non-finite entry or a
  // sigma <= 0.
  double Log(const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma, Eigen::VectorXd* d_mean,
             Eigen::VectorXd* d_sigma) const;
  // EHVI itself (the same sum without logarithms; underflows to 0 far from the front).
  double Value(const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma, Eigen::VectorXd* d_mean,
               Eigen::VectorXd* d_sigma) const;

 private:
  void CheckArguments(const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma) const;

  Eigen::VectorXd reference_;
  BoxDecomposition boxes_;
  // cuts_[i]: the distinct finite box bounds in objective i; lower_index_/upper_index_ (k x B):
  // box b's bounds as indices into cuts_[i] (upper: -1 for +infinity). h is evaluated once per
  // cut and evaluation, not once per box.
  std::vector<std::vector<double>> cuts_;
  Eigen::MatrixXi lower_index_, upper_index_;
};

// log T(l, u; m, s) and its partial derivatives in m and s (if non-null); u may be +infinity;
// l < u, s > 0 (unchecked).
double LogBoxFactor(double lower, double upper, double mean, double sigma, double* d_mean,
                    double* d_sigma);

struct NoisyEhviEstimate {
  double value = 0.0;           // the mean of the per-draw improvements
  double standard_error = 0.0;  // of that mean over the draws
  double log_value = 0.0;       // log(value); -infinity when every draw improves nothing
};

// observed_draws[s]: k x n, draw s of the objectives at the n observed points; candidate_draws:
// k x S, column s drawn jointly with observed_draws[s]. Observed draws that do not strictly
// dominate the reference are left out of that draw's front. S >= 1; throws
// std::invalid_argument naming a mismatched size or a non-finite entry.
NoisyEhviEstimate NoisyExpectedHypervolumeImprovement(
    const std::vector<Eigen::MatrixXd>& observed_draws, const Eigen::MatrixXd& candidate_draws,
    const Eigen::VectorXd& reference);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_EHVI_H_
