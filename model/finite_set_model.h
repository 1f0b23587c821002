// The reward model of an Optimizer on a finite candidate set whose hyperparameters stay fixed
// (OptimizerOptions::finite_set_rank_one_updates): the posterior over the candidates kept by
// rank-one updates (FiniteSetBelief: Chowdhury & Gopalan 2017, appendix F, with the
// GaussianProcess's output standardization), in place of the exact GP. An observation costs
// O(N^2) and the model holds O(N^2 + t) numbers (the covariance over the N candidates, and per
// observation its candidate, output and sequential variance), whatever t; so does every
// statistic a round needs (information gain, noise and signal variances, best output,
// incumbent), each kept as the observations arrive.
//
// Predictions equal an exact GaussianProcess's on the same observations (same kernel, noise,
// standardization) up to roundoff: at a candidate from the belief, O(1); anywhere else from the
// observations' sufficient statistics: y_i = f(x_{c_i}) + eps_i, so the posterior given the t
// observations is the posterior given, at each of the m candidates observed, the mean of its
// n_c outputs with noise lambda / n_c (exact): mean c + k_m(x)^T (K_mm + Lambda)^-1 (ybar - c),
// variance s^2 (k(x, x) - k_m(x)^T (K_mm + Lambda)^-1 k_m(x)), O(m^3) once per state and O(m^2)
// per point.
//
// Deterministic: a function of the observations in order and of the hyperparameters (changed
// hyperparameters rebuild the belief from every observation), so a run replayed from its log
// holds the same bits. Thread safety: Predict away from the candidates caches a factorization,
// so no member may run concurrently with another (the Optimizer serializes its calls); copies
// are independent. Internal to model/.
#ifndef GPBANDIT_MODEL_FINITE_SET_MODEL_H_
#define GPBANDIT_MODEL_FINITE_SET_MODEL_H_

#include <Eigen/Core>
#include <map>
#include <memory>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel.h"
#include "model/finite_set_belief.h"
#include "model/finite_set_tally.h"

namespace gpbandit {

class FiniteSetModel {
 public:
  // kernel: over inputs of unit_candidates' dimension; unit_candidates: input_dim x N (N >= 1);
  // options: the GP's (noise variance > 0, standardization). Throws std::invalid_argument for
  // no candidate, a candidate the kernel rejects, or a noise variance that is not > 0.
  FiniteSetModel(std::unique_ptr<Kernel> kernel, const Eigen::MatrixXd& unit_candidates,
                 const GaussianProcessOptions& options);
  FiniteSetModel(const FiniteSetModel& other);
  FiniteSetModel& operator=(const FiniteSetModel& other);
  FiniteSetModel(FiniteSetModel&&) noexcept;
  FiniteSetModel& operator=(FiniteSetModel&&) noexcept;
  ~FiniteSetModel();

  // The first candidate whose input equals u exactly, or -1.
  int CandidateIndex(const Eigen::VectorXd& u) const;
  int num_candidates() const { return static_cast<int>(unit_candidates_.cols()); }
  int input_dim() const { return static_cast<int>(unit_candidates_.rows()); }
  int num_observations() const { return tally_.size(); }
  const Kernel& kernel() const { return *kernel_; }
  double noise_variance() const { return options_.noise_variance; }
  const GaussianProcessOptions& options() const { return options_; }

  // Observes output y (finite) at candidate `index`; `accepted` says whether it is a reward
  // (a candidate of the incumbent) or a failure's imputed value. O(N^2). Throws
  // std::invalid_argument for a bad index or y; unchanged then.
  void AddObservation(int index, double y, bool accepted);
  // GaussianProcess::ScaleOutputs: O(N + t), exact.
  void ScaleOutputs(int exponent);
  // New kernel log-parameters and noise (> 0): the belief rebuilt from every observation,
  // O(t N^2). Throws std::invalid_argument (unchanged) for bad values.
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance);

  // The posterior over the candidates (the told observations only).
  const FiniteSetBelief& belief() const { return belief_; }
  // As GaussianProcess's: I(y; f), and sigma_{i-1}^2(x_i) per observation (standardized units).
  double InformationGain() const { return belief_.posterior().InformationGain(); }
  Eigen::VectorXd SequentialVariances() const;
  // The mean of k(x_i, x_i) over the observations (NaN before any).
  double MeanKernelDiagonal() const;
  // The highest output so far, -infinity before any.
  double best_output() const { return tally_.best_output; }
  // The highest posterior mean among the candidates holding an accepted observation (the first
  // of them on ties), original units, in *candidate; -infinity and -1 before any. O(N).
  double Incumbent(int* candidate) const;
  // The posterior means at every observation, in order (t entries): O(N + t).
  Eigen::VectorXd MeansAtObservations() const;
  // The posterior mean and variance of f at input u (input_dim entries), original units.
  void Predict(const Eigen::VectorXd& u, double* mean, double* variance) const;

  // The exact GP with this model's kernel, options and observations in order (one O(t^3)
  // factorization), and the same on the given rows only.
  GaussianProcess ExactModel() const;
  GaussianProcess ModelOn(const std::vector<int>& rows) const;

 private:
  struct SufficientFactor;  // Predict's factorization away from the candidates
  // Predict away from the candidates (see above).
  void PredictFromStatistics(const Eigen::VectorXd& u, double* mean, double* variance) const;
  const SufficientFactor& Factor() const;

  std::unique_ptr<Kernel> kernel_;
  Eigen::MatrixXd unit_candidates_;
  std::map<std::vector<double>, int> index_;
  GaussianProcessOptions options_;
  Eigen::VectorXd candidate_diagonal_;  // k(x_c, x_c)
  FiniteSetBelief belief_;
  FiniteSetTally tally_;  // the observations, per observation and per candidate
  mutable std::shared_ptr<const SufficientFactor>
      factor_;  // immutable once built; shared by copies
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_FINITE_SET_MODEL_H_
