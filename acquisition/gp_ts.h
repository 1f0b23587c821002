// GP-TS (Chowdhury & Gopalan, ICML 2017, algorithm 2): draw f_t ~ GP(mu_{t-1}, v_t^2 k_{t-1}),
// v_t = B + R sqrt(2 (gamma_{t-1} + 1 + ln(2 / delta))), and play argmax f_t. Registered as
// "gp-ts". Defaults for B and R as IGP-UCB's (igp_ucb.h, confidence_terms.h).
//
// Finite candidate sets: an exact joint sample from N(mu, v_t^2 Sigma) over all candidates
// (CandidatePosterior::SampleJoint).
//
// Continuous domains: the paper samples on a discretization D_t that grows with t (|D_t| ~ t^2),
// which costs O(|D_t|^3) per round and is not smooth. We instead draw ONE posterior function
// that L-BFGS can climb, by pathwise conditioning (Wilson et al., ICML 2020, "Efficiently
// sampling functions from Gaussian process posteriors"):
//   f_t(x) = mu(x) + v_t [g(x) - k(x, X) (K + s^2 I)^-1 (g(X) + e)],
// with g a prior sample in random-Fourier-feature form (Rahimi & Recht 2007):
// g(x) = sqrt(2 s2 / m) sum_j w_j cos(omega_j . x / l + b_j), w_j ~ N(0, 1), b_j ~ U(0, 2 pi),
// omega_j ~ N(0, I) for SE or a multivariate Student-t with 2 nu degrees of freedom for Matern,
// and e ~ N(0, s^2 I). The update term is exact; only the prior draw is approximated, with
// error O(1 / sqrt(m)) per point. Its mean and covariance at a few points are tested against
// the posterior. It needs a stationary kernel (gp/stationary_kernel.h); other kernels (index,
// composite, linear) are rejected by MakeContinuous with std::invalid_argument — use a finite
// candidate set for those.
//
// JSON options (Create, OptionsJson; strategy_params.h): rkhs_bound, noise_bound,
// min_noise_bound, delta, gamma_source, gamma_dim, gamma_nu, gamma_scale (GammaOptions, as in
// gp_ucb.h), fixed_scale, num_features.
#ifndef GPBANDIT_ACQUISITION_GP_TS_H_
#define GPBANDIT_ACQUISITION_GP_TS_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/confidence_terms.h"
#include "gpbandit/acquisition/information_gain_bound.h"
#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {

struct GpTsOptions {
  // B, the bound on ||f||_k, against the prior standard deviation of f (confidence_terms.h).
  // >= 0. Default 1.
  double rkhs_bound = 1.0;
  // R, the sub-Gaussian constant of the noise, against the prior standard deviation of f.
  // >= 0: fixed; < 0: from the model each round, max(sqrt(noise / signal variance),
  // min_noise_bound) (confidence_terms.h). Finite. Default -1 (from the model).
  double noise_bound = -1.0;
  // The floor of R taken from the model. >= 0. Default kDefaultMinNoiseBound.
  double min_noise_bound = kDefaultMinNoiseBound;
  // delta in (0, 1). Default 0.1.
  double delta = 0.1;
  // Where gamma_{t-1} comes from. Default: the observed information gain.
  GammaOptions gamma;
  // When > 0, v_t is this constant instead of the schedule (v = 1 samples the plain posterior,
  // as most practical TS implementations do). >= 0. Default 0 (the schedule).
  double fixed_scale = 0.0;
  // Number of random Fourier features of the prior draw on continuous domains. >= 1.
  // Default 1024.
  int num_features = 1024;

  bool IsValid(std::string* error) const;
};

class GpTs : public Strategy {
 public:
  explicit GpTs(const GpTsOptions& options = GpTsOptions());
  // The registry's factory: the options from params (keys above; a missing key keeps its
  // default). Throws std::invalid_argument naming an unknown key, a value of the wrong type or
  // an invalid value.
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "gp-ts"; }
  void BeginRound(const RoundState& state) override;
  double figure() const override { return scale_; }  // v_t
  std::string figure_name() const override { return "v_t"; }
  Eigen::VectorXd ScoreCandidates(const CandidatePosterior& posterior, Rng& rng) const override;
  std::unique_ptr<ContinuousAcquisition> MakeContinuous(const GaussianProcess& gp,
                                                        Rng& rng) const override;
  std::unique_ptr<Strategy> Clone() const override;
  std::string OptionsJson() const override;

  const GpTsOptions& options() const { return options_; }

 private:
  GpTsOptions options_;
  double scale_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_GP_TS_H_
