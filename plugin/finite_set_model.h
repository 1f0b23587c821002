// The Optimizer's model over its finite candidate set, kept by rank-one updates: the posterior
// of Chowdhury & Gopalan (2017), appendix F (gp/finite_set_posterior.h), O(N^2) per
// observation whatever t, instead of the O(N t^2) the exact GaussianProcess needs to predict
// at N candidates each round.
//
// It mirrors a GaussianProcess (the Optimizer's model) whose observations are all candidates:
// same kernel, noise plus jitter as lambda, and the outputs shifted by a reference (the first
// output) so that rewards with a large mean and a small spread lose no accuracy. Read through
// FiniteSetCandidatePosterior with the GP's output offset and scale, it gives the GP's own
// posterior means and (co)variances at the candidates, up to roundoff (the GP standardizes its
// outputs with an offset and scale that move with every observation; the covariance does not
// depend on them, the mean does only through the prior mean, see
// FiniteSetPosterior::MeanUnderPriorMean). Exact as long as the hyperparameters stay fixed,
// hence used by the Optimizer without refits and without contexts (a context changes the
// candidates' inputs every round).
//
// Sync is a deterministic function of the GP's observations and hyperparameters (not of when it
// was called), so a resumed Optimizer holds the same posterior as an uninterrupted one.
//
// Thread safety: const members may run concurrently; Sync needs exclusive access. Internal to
// the Optimizer (not installed).
#ifndef GPBANDIT_PLUGIN_FINITE_SET_MODEL_H_
#define GPBANDIT_PLUGIN_FINITE_SET_MODEL_H_

#include <Eigen/Core>
#include <map>
#include <memory>
#include <vector>

#include "gpbandit/gp/finite_set_posterior.h"
#include "gpbandit/gp/gaussian_process.h"

namespace gpbandit {

class FiniteSetModel {
 public:
  // unit_candidates: input_dim x N (N >= 1), the candidates as the model sees them.
  explicit FiniteSetModel(const Eigen::MatrixXd& unit_candidates);

  // The first candidate whose model input equals u exactly, or -1.
  int CandidateIndex(const Eigen::VectorXd& u) const;

  // Brings the posterior up to date with gp: absorbs its new observations (O(N^2) each), or
  // rebuilds from all of them when its kernel parameters, noise plus jitter or earlier outputs
  // changed. Returns false, holding nothing, when gp holds an observation that is not a
  // candidate or its noise plus jitter is not > 0: the caller then uses gp itself.
  bool Sync(const GaussianProcess& gp);

  // After a successful Sync: the posterior over the candidates of the outputs minus
  // reference(), kernel and noise in gp's standardized units.
  const FiniteSetPosterior& posterior() const { return *posterior_; }
  double reference() const { return reference_; }

 private:
  void Rebuild(const GaussianProcess& gp);

  Eigen::MatrixXd unit_candidates_;
  std::map<std::vector<double>, int> index_;
  std::unique_ptr<FiniteSetPosterior> posterior_;
  Eigen::VectorXd log_params_;  // the kernel's, when posterior_ was built
  double lambda_ = 0.0;         // noise + jitter, when posterior_ was built
  double reference_ = 0.0;      // the first output
  std::vector<double> absorbed_outputs_;
  // The first observation found not to be a candidate, and its input; -1 if none.
  int non_candidate_row_ = -1;
  Eigen::VectorXd non_candidate_input_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_PLUGIN_FINITE_SET_MODEL_H_
