// GP-TS (Chowdhury & Gopalan, ICML 2017, algorithm 2): draw f_t ~ GP(mu_{t-1}, v_t^2 k_{t-1})
// and play argmax f_t. Registered as "gp-ts".
//
// v_t by default is the constant 0.5 (GpTsOptions::fixed_scale): the sample's deviation from
// the posterior mean is half the posterior's, a tempered posterior as in Chapelle & Li's
// experiments with Thompson sampling (NIPS 2011), who shrank the posterior's spread. The paper's
// schedule, v_t = B + R sqrt(2 (gamma_{t-1} + 1 + ln(2 / delta))) >= B, is fixed_scale = 0,
// with B and R as IGP-UCB's (igp_ucb.h, confidence_terms.h). 0.5 was chosen on generated
// problems; docs/benchmarks.md, section "Defaults on problems nobody tuned for".
//
// Finite candidate sets: an exact joint sample from N(mu, v_t^2 Sigma) over all candidates
// (CandidatePosterior::SampleJoint).
//
// Continuous domains: the paper samples on a discretization D_t that grows with t (|D_t| ~ t^2),
// which costs O(|D_t|^3) per round and is not smooth. We instead draw ONE posterior function
// that L-BFGS can climb, by pathwise conditioning (Wilson et al., ICML 2020, "Efficiently
// sampling functions from Gaussian process posteriors"):
//   f_t(x) = mu(x) + v_t [g(x) - k(x, X) (K + s^2 I)^-1 (g(X) + e)],
// with g(x) = w . phi(x), w ~ N(0, I), a prior draw through the kernel's random features phi
// (Kernel::DrawFeatures, gp/kernel_features.h: random Fourier features of stationary kernels,
// exact feature maps of linear, constant and index kernels, and their sums and products), and
// e ~ N(0, s^2 I). The update term is exact; only the prior draw is approximated, with error
// O(1 / sqrt(m)) per point for m random features. Its mean and covariance at a few points are
// tested against the posterior. Every kernel gpbandit ships has features, so GP-TS works on
// boxes, with contexts and with composite kernels; a kernel without them (a user kernel with
// Kernel::HasFeatures() false) is refused by MakeContinuous, and by the Optimizer when it is
// built (CheckSupports), with a message saying to use a finite candidate set.
//
// JSON options (Create, OptionsJson; strategy_params.h): rkhs_bound, noise_bound,
// min_noise_bound, delta, gamma_source, gamma_dim, gamma_nu, gamma_scale (GammaOptions, as in
// gp_ucb.h), fixed_scale, num_features.
//
// Thread safety and determinism: as every Strategy (strategy.h); the sample (joint, or the
// features and weights of a sample path) is drawn from the rng passed in, so a seed fixes it.
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
  // as most practical TS implementations do; v < 1 a tempered one); 0 = the paper's schedule
  // from rkhs_bound, noise_bound, min_noise_bound, delta and gamma (which are used only then).
  // >= 0. Default 0.5 (above).
  double fixed_scale = 0.5;
  // Number of random features of the prior draw on continuous domains (kernels with an exact
  // finite feature map use theirs, whatever its size). >= 1. Default 1024.
  int num_features = 1024;

  bool IsValid(std::string* error) const;
};

// Throws std::invalid_argument, saying to use a finite candidate set, unless GP-TS can draw
// sample paths of `kernel` on a continuous domain (kernel.HasFeatures()).
void CheckContinuousGpTsKernel(const Kernel& kernel);

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
  // Only to take the information gain at the floor of a noise bound taken from the model.
  bool reads_sequential_variances() const override {
    return options_.noise_bound < 0.0 && options_.gamma.source == GammaSource::kInformationGain;
  }
  Eigen::VectorXd ScoreCandidates(const CandidatePosterior& posterior, Rng& rng) const override;
  std::unique_ptr<ContinuousAcquisition> MakeContinuous(const GaussianProcess& gp,
                                                        Rng& rng) const override;
  // On a box, CheckContinuousGpTsKernel; every kernel works on a finite set.
  void CheckSupports(const Kernel& kernel, const SearchSpace& space) const override;
  std::unique_ptr<Strategy> Clone() const override;
  std::string OptionsJson() const override;

  const GpTsOptions& options() const { return options_; }

 private:
  GpTsOptions options_;
  double scale_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_GP_TS_H_
