// A local Gaussian process for studies of many observations: every observation is kept, and
// predictions come from an exact GaussianProcess on `size` of them: those most correlated with
// a few anchors, the first the observation of the highest output (the incumbent).
//
// Source: the local approximate GP of Gramacy & Apley (2015, "Local Gaussian process
// approximation for large computer experiments", J. Comput. Graph. Stat. 24(2)), which predicts
// near a point from an exact GP on its nearest neighbours, and TuRBO's trust region around the
// incumbent (Eriksson, Pearce, Gardner, Turner & Poloczek, NeurIPS 2019), in which the search
// continues: LocalTrustBox below is the largest box around an anchor whose every point, once
// observed, joins the neighbourhood, so that what the search learns inside it is never dropped.
// Several regions, each around its own anchor, are TuRBO-m's several trust regions: a search
// that compares them does not stay in the basin of the first incumbent it found.
//
// Neighbourhood: rows ranked by the correlation k(x_i, a) / sqrt(k(x_i, x_i) k(a, a)) with an
// anchor a (the kernel's own metric: ARD lengthscales, periods and composites included;
// k(x_i, a) itself where a diagonal is not positive); the anchor first, ties to the lower row.
// Anchors (LocalAnchor): under kHighestOutput anchor 0 is the row of the highest output (the
// first of equal ones). Under kHighestMean the model is first built as under kHighestOutput,
// then rebuilt around anchor 0 = argmax over that model's interior rows (MeansAtObservations)
// of the posterior mean (the first of equal ones), with further anchors as below: with noisy
// outputs the highest one is a lucky draw (three noise deviations above its mean among a
// thousand rows near an optimum) that no later output beats, while the posterior mean averages
// the draws near it, as the exact GP's Best() does (measured on generated problems;
// docs/benchmarks.md, section "Long studies").
// Anchor j > 0 is the row of the highest output among those at least 0.3 (Euclidean, input units; a
// tenth of the unit cube's diagonal in 6-D: another basin) from every earlier anchor, while there
// is one and j < regions. With k anchors, region 0's group is the size - (k - 1) floor(size / k)
// rows most correlated with anchor 0, region j's the floor(size / k) rows most correlated with
// anchor j among those no earlier group holds. While t <= size there is one region holding every
// row. The local model holds the groups' union in row order. A deterministic function of the
// observations and the hyperparameters: it is rebuilt from scratch (one O(size^3) factorization)
// when they have changed since it was last read, and never updated in place, so that two
// LocalGaussianProcess with the same observations and hyperparameters hold bit-identical local
// models whenever each was read (what a run resumed from its log needs).
//
// Costs (t observations, m = size): AddObservation O(d) amortized; reading local() after a
// change O(t d) kernel values + O(m^3) (twice under kHighestMean when the anchor moves);
// predictions as GaussianProcess on m points.
//
// Thread safety: local() rebuilds lazily, so no member may be called concurrently with any other
// (an Optimizer serializes its calls); copies are independent. Inputs in the caller's units.
#ifndef GPBANDIT_GP_LOCAL_GAUSSIAN_PROCESS_H_
#define GPBANDIT_GP_LOCAL_GAUSSIAN_PROCESS_H_

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

// Which observation anchors region 0 (LocalGaussianProcess, "Anchors").
enum class LocalAnchor {
  // The row of the highest output.
  kHighestOutput,
  // The row of the highest posterior mean, among the interior rows of the model built around
  // the highest output's row.
  kHighestMean,
};

class LocalGaussianProcess {
 public:
  // size >= 1: the number of observations in the local model; 1 <= regions <= size: the
  // number of anchors. The GP options (noise variance, standardization, jitter ladder) are the
  // local model's. Throws std::invalid_argument as GaussianProcess does, and for a bad size or
  // number of regions.
  LocalGaussianProcess(std::unique_ptr<Kernel> kernel, int input_dim,
                       const GaussianProcessOptions& options, int size, int regions = 1,
                       LocalAnchor anchor_rule = LocalAnchor::kHighestOutput);
  // The observations, kernel hyperparameters and noise variance of `exact`.
  LocalGaussianProcess(const GaussianProcess& exact, int size, int regions = 1,
                       LocalAnchor anchor_rule = LocalAnchor::kHighestOutput);
  LocalGaussianProcess(const LocalGaussianProcess& other);
  LocalGaussianProcess& operator=(const LocalGaussianProcess& other);
  LocalGaussianProcess(LocalGaussianProcess&&) noexcept;
  LocalGaussianProcess& operator=(LocalGaussianProcess&&) noexcept;
  ~LocalGaussianProcess();

  int size() const { return size_; }
  int regions() const { return regions_; }
  LocalAnchor anchor_rule() const { return anchor_rule_; }
  int input_dim() const { return input_dim_; }
  int num_observations() const { return t_; }
  const Kernel& kernel() const { return *kernel_; }
  Eigen::VectorXd kernel_log_params() const { return kernel_->GetLogParams(); }
  double noise_variance() const { return noise_variance_; }
  const GaussianProcessOptions& options() const { return options_; }

  // Appends (x, y), O(d) amortized. Throws std::invalid_argument (wrong size, non-finite x or y,
  // a point the kernel rejects); unchanged then.
  void AddObservation(const ConstVectorRef& x, double y);
  // As GaussianProcess::SetHyperparameters, without the refactorization (done when read).
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance);
  // Multiplies every output by 2^exponent (GaussianProcess::ScaleOutputs).
  void ScaleOutputs(int exponent);

  // Observed inputs (input_dim x t) and outputs (t), all of them, in the order added.
  Eigen::MatrixXd inputs() const { return X_.leftCols(t_); }
  Eigen::VectorXd outputs() const { return y_.head(t_); }
  // Observation `row`'s input (0 <= row < t, unchecked).
  Eigen::VectorXd input(int row) const { return X_.col(row); }
  // The row of the highest output (the first of equal ones); -1 with no observation. Region 0's
  // anchor under kHighestOutput; under kHighestMean, anchors()[0] may differ.
  int anchor() const;
  // The anchors of the regions there are (at least one, at most regions()), region 0's first.
  const std::vector<int>& anchors() const;
  // The rows of the local model, ascending (min(size, t) of them).
  const std::vector<int>& neighbours() const;
  // The exact GP on the neighbours.
  const GaussianProcess& local() const;
  // The posterior means of the local model at every row (t entries); NaN at rows outside its
  // groups' interiors (correlation with their anchor at least the square root of the group's
  // least): near a group's edge half of a row's neighbours are missing from the local model, and
  // the mean there is the less averaged one that a noisy outlier can top.
  Eigen::VectorXd MeansAtObservations() const;

  // An exact GP, with this model's hyperparameters and options, on the given rows.
  GaussianProcess ModelOn(const std::vector<int>& rows) const;

  // The box around region's anchor (the first action_dim coordinates, each within
  // [lower, upper]) inside which every point is at least as correlated with the anchor as the
  // least correlated member of its group: along each coordinate i the distance h_i at which the
  // correlation falls to that member's (bisection, at most the span [lower_i, upper_i]), then
  // the box of half-widths h_i / sqrt(action_dim) (inscribed in the ellipsoid of a stationary
  // ARD kernel), times `scale` in (0, 1]. A point observed there joins the local model.
  // Narrowed in place (unchanged while the group holds every row it could); the anchor stays
  // inside. 0 <= region < anchors().size().
  void LocalTrustBox(int region, int action_dim, Eigen::VectorXd* lower, Eigen::VectorXd* upper,
                     double scale = 1.0) const;

 private:
  void Invalidate() { stale_ = true; }
  void Rebuild() const;
  // The groups, the local model and the floors around the anchors FindAnchors(first).
  void BuildAround(int first) const;
  // MeansAtObservations of the model built (not stale).
  Eigen::VectorXd InteriorMeans() const;
  // Correlation of every row with the row anchor_row.
  Eigen::VectorXd AnchorCorrelations(int anchor_row) const;
  // The `count` rows of `candidates` (ascending) most correlated with anchor_row, which is one
  // of them and comes first; ascending. *floor: the least correlation among them but the
  // anchor's, or -infinity when they are all the candidates.
  std::vector<int> TopCorrelated(const Eigen::VectorXd& correlations, int anchor_row,
                                 std::vector<int> candidates, int count, double* floor) const;
  // The regions' anchors (the rule above), and each one's AnchorCorrelations.
  std::vector<int> FindAnchors(int first, std::vector<Eigen::VectorXd>* correlations) const;
  double Correlation(const ConstVectorRef& x, const ConstVectorRef& a, double kaa) const;

  std::unique_ptr<Kernel> kernel_;
  int input_dim_;
  GaussianProcessOptions options_;
  double noise_variance_;
  int size_;
  int regions_;
  LocalAnchor anchor_rule_;
  int t_ = 0;
  Eigen::MatrixXd X_;  // input_dim x capacity (doubling)
  Eigen::VectorXd y_;  // capacity
  // Built when read (local(), neighbours()) after a change, in place, so that a reference to
  // local() stays valid.
  mutable bool stale_ = true;
  mutable std::unique_ptr<GaussianProcess> local_;
  mutable std::vector<int> neighbours_;
  mutable std::vector<int> interior_;  // ascending
  mutable std::vector<int> anchors_;
  mutable std::vector<double> floors_;  // per region (TopCorrelated's floor)
};

}  // namespace gpbandit

#endif  // GPBANDIT_GP_LOCAL_GAUSSIAN_PROCESS_H_
