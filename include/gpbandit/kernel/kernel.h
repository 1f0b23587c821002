// Covariance functions (kernels) k(a, b) of a Gaussian process.
//
// Conventions used by every kernel:
// - A point is an Eigen::VectorXd of the full input dimension (actions and contexts together).
//   Each kernel acts on a subset of those coordinates, its `dims` (for instance the action
//   coordinates only, or the one coordinate that holds a context index). Coordinates outside
//   `dims` are ignored and get a zero gradient.
// - A batch of points is an Eigen::MatrixXd with one point per COLUMN (dim x n).
// - Hyperparameters are handled in log space ("log-params"): log signal variance, log
//   lengthscales, ... Gradients with respect to hyperparameters are with respect to these logs.
// - Every log-param declares its kind (ParamKind, param_kind.h): the fit's default bounds and
//   start ranges, the units of reports and the direction safe refits may move it in are the
//   kind's registered data, never read from the log-param's name.
//
// Capabilities. Besides the pairwise definitions (Value, AccumulateGradientA,
// GradientLogParams), a kernel may override hooks that the fast paths call; each has a correct
// generic default built on the pairwise definitions, so that a user kernel need implement only
// those:
// - CrossWithPoint / AccumulateWeightedGradientA: one point against many, with the gradient
//   reusing the values' work (GaussianProcess::MeanAndVariance, once per acquisition
//   evaluation).
// - GramAndParts / ContractGradientLogParamsFromParts: the Gram matrix with what the marginal
//   likelihood's gradient reuses (hyperparams/log_marginal_likelihood.h).
// - Cross, Diagonal, Gram, ContractGradientLogParams: batch forms.
// - HasFeatures / DrawFeatures: random features of the prior (GP-TS sample paths on boxes);
//   HasSpectralMeasure / DrawSpectrum: the spectral measure of a stationary kernel.
// Composite kernels (composite_kernel.h) implement every hook from their parts' hooks. The
// caches (KernelPointCache, KernelGramCache) are plain structs that the caller owns and reuses
// and that each kernel fills in its own way; a composite keeps one per part.
//
// Thread safety: all const member functions are safe to call concurrently (kernels hold no
// caches; the caller's cache objects must not be shared between threads).
// Determinism: kernel values and gradients depend only on the inputs and the hyperparameters,
// never on num_threads (work splits are fixed by the sizes); random features draw from the
// caller's rng.
#ifndef GPBANDIT_KERNEL_KERNEL_H_
#define GPBANDIT_KERNEL_KERNEL_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_features.h"
#include "gpbandit/kernel/param_kind.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {

using ConstVectorRef = Eigen::Ref<const Eigen::VectorXd>;
using VectorRef = Eigen::Ref<Eigen::VectorXd>;

// What CrossWithPoint leaves for AccumulateWeightedGradientA (one point x against the columns
// of X). The caller owns it and reads `values` only; keeping one per thread and passing it
// again avoids all allocation at a repeated size. The other fields are each kernel's business.
struct KernelPointCache {
  Eigen::VectorXd values;               // k(x, X_j), one per column of X
  Eigen::VectorXd slopes;               // per column (stationary kernels: h(r_j))
  Eigen::MatrixXd slopes_by_dim;        // per kernel dim and column (periodic kernel)
  mutable Eigen::VectorXd scratch;      // work space of AccumulateWeightedGradientA
  std::vector<KernelPointCache> parts;  // composites: one per part
};

// What GramAndParts leaves for ContractGradientLogParamsFromParts (lower triangles unless
// stated). The caller owns it and may keep it per thread; each kernel fills its own fields.
struct KernelGramCache {
  Eigen::MatrixXd gram;                // a composite's part: the part's own Gram matrix (full)
  Eigen::MatrixXd squared_distances;   // stationary kernels: r^2 of every pair, clamped
  Eigen::MatrixXd slopes;              // stationary kernels: h(r) of every pair
  mutable Eigen::MatrixXd scratch;     // work space of the contraction (composites)
  std::vector<KernelGramCache> parts;  // composites: one per part
};

class Kernel {
 public:
  virtual ~Kernel() = default;

  // A deep copy (kernels hold their hyperparameters, so models own their kernel).
  virtual std::unique_ptr<Kernel> Clone() const = 0;

  // A short description, e.g. "matern52(dims=0,1; ard)" or "product(se(...), index(...))".
  virtual std::string Describe() const = 0;

  // The smallest full input dimension this kernel can be applied to: 1 + the largest index in
  // its dims (for composites, over all parts).
  virtual int MinInputDim() const = 0;

  // Hyperparameters, in log space. SetLogParams throws std::invalid_argument (naming the kernel,
  // the expected and the given size, or the non-finite entry) and then leaves the kernel as it was.
  virtual int NumParams() const = 0;
  virtual Eigen::VectorXd GetLogParams() const = 0;
  virtual void SetLogParams(const ConstVectorRef& log_params) = 0;
  // One name per log-param, e.g. "se.log_variance", "se.log_lengthscale[1]".
  virtual std::vector<std::string> ParamNames() const = 0;
  // One kind per log-param, in GetLogParams() order. Default: ParamKind::kOther for all (a user
  // kernel that overrides nothing gets the fit's signal-variance range on every log-param). A
  // kernel with a log-param of a new kind registers the kind (ParamKind::Register) and returns
  // it here.
  virtual std::vector<ParamKind> ParamKinds() const;

  // k(a, b). a and b have the same size >= MinInputDim().
  virtual double Value(const ConstVectorRef& a, const ConstVectorRef& b) const = 0;

  // grad += scale * d k(a, b) / d a. grad has the full input dimension of a.
  // For a == b the derivative is taken with b held fixed (so it is 0 for stationary kernels).
  virtual void AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b, double scale,
                                   VectorRef grad) const = 0;

  // grad (size NumParams()) = d k(a, b) / d log-params.
  virtual void GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                 VectorRef grad) const = 0;

  // Throws std::invalid_argument (naming `field` and the offending value) when x cannot be fed
  // to this kernel: size below MinInputDim(), a non-finite coordinate in dims, or (index
  // kernel) an index that is not an integer in range. Models call it on every input they
  // accept, so that Value() itself never has to fail.
  virtual void ValidatePoint(const ConstVectorRef& x, const std::string& field) const;

  // Batch forms. A: dim x n, B: dim x m. Result n x m. Kernels may override for speed.
  virtual Eigen::MatrixXd Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;
  // k(x_i, x_i) for each column; n values.
  virtual Eigen::VectorXd Diagonal(const Eigen::MatrixXd& X) const;
  // The Gram matrix K(X, X) (symmetric, n x n).
  virtual Eigen::MatrixXd Gram(const Eigen::MatrixXd& X) const;

  // sum_{i,j} W(i, j) * d k(x_i, x_j) / d log-params, for symmetric W (n x n).
  // This is what the marginal-likelihood gradient needs (0.5 * tr(W dK/dtheta)) without ever
  // forming one n x n matrix per hyperparameter.
  virtual Eigen::VectorXd ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                    const Eigen::MatrixXd& W) const;

  // ---- One point against many (GaussianProcess::MeanAndVariance) ----------------------------
  // k(x, X_j) for every column j of X (X: dim x n, x validated, X's columns validated) into
  // cache->values, and, when for_gradient, whatever AccumulateWeightedGradientA needs into the
  // rest of *cache. Default: Cross(X, x). Overrides may differ from Cross in the last bits.
  virtual void CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool for_gradient,
                              KernelPointCache* cache) const;
  // grad += c_scale * sum_j c_j d k(x, X_j) / dx, where cache holds CrossWithPoint(x, X,
  // for_gradient = true) of the same x and X; c has n entries. Default: one
  // AccumulateGradientA(x, X_j, c_scale * c_j) per column. O(|dims| n) for the kernels shipped.
  virtual void AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                           const KernelPointCache& cache, const Eigen::VectorXd& c,
                                           double c_scale, VectorRef grad) const;

  // ---- The Gram matrix for the likelihood's gradient -----------------------------------------
  // Gram(X) into *gram (n x n, full) and into *cache what ContractGradientLogParamsFromParts
  // reuses, so that the exponentials of a stationary kernel are taken once per likelihood
  // evaluation. Reuses the storage of *gram and *cache when n is unchanged. num_threads >= 1
  // OpenMP threads may share the work; the result does not depend on it. Default: Gram(X).
  virtual void GramAndParts(const Eigen::MatrixXd& X, Eigen::MatrixXd* gram, KernelGramCache* cache,
                            int num_threads = 1) const;
  // ContractGradientLogParams(X, W) from GramAndParts's output for the same X: gram (whose
  // diagonal may since carry added noise, so kernels read only its strict lower triangle) and
  // cache. Work splits are fixed by n, so the result does not depend on num_threads >= 1.
  // Default: ContractGradientLogParams(X, W).
  virtual Eigen::VectorXd ContractGradientLogParamsFromParts(const Eigen::MatrixXd& X,
                                                             const Eigen::MatrixXd& W,
                                                             const Eigen::MatrixXd& gram,
                                                             const KernelGramCache& cache,
                                                             int num_threads = 1) const;

  // ---- Random features of the prior (kernel_features.h) --------------------------------------
  // True if DrawFeatures works: every kernel gpbandit ships, and composites of such kernels.
  // Default false (a user kernel; GP-TS then needs a finite candidate set).
  virtual bool HasFeatures() const;
  // A draw of features phi with E[phi(a) . phi(b)] = k(a, b) at the current log-params, for
  // GP-TS sample paths g(x) = w . phi(x), w ~ N(0, I). num_features >= 1 is the size of a random
  // draw (random Fourier features); kernels with an exact finite feature map (linear, constant,
  // index) return it instead, whatever its size. Each kernel's header states its construction.
  // Throws std::invalid_argument naming the kernel when !HasFeatures() or num_features < 1.
  virtual std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const;
  // True for stationary kernels k(a, b) = s2 rho(a - b), rho(0) = 1, whose spectral measure
  // (Bochner: rho(tau) = E[cos(omega . tau)], omega ~ the normalized spectral measure) can be
  // sampled: SE, Matern, periodic, and products and sums of such kernels. Default false.
  virtual bool HasSpectralMeasure() const;
  // s2 and num_features >= 1 frequencies drawn independently from the normalized spectral
  // measure. Throws std::invalid_argument naming the kernel when !HasSpectralMeasure().
  virtual SpectralSample DrawSpectrum(int num_features, Rng& rng) const;

 protected:
  // The coordinates the default ValidatePoint requires to be finite. Default: every coordinate
  // below MinInputDim(); kernels that read only some coordinates override it.
  virtual std::vector<int> InputDims() const;
};

// Shared by the kernel implementations: throws std::invalid_argument naming `who` unless W is
// n x n for the n columns of X.
void CheckContractionWeights(const std::string& who, const Eigen::MatrixXd& X,
                             const Eigen::MatrixXd& W);
// Shared by the kernel implementations: check that a log-param vector has the right size and
// finite entries, or throw std::invalid_argument naming `who`.
void CheckLogParams(const std::string& who, int expected_size, const ConstVectorRef& log_params);

// Shared by the kernels' DrawFeatures / DrawSpectrum: throws std::invalid_argument naming the
// kernel unless num_features >= 1.
void CheckNumFeatures(const Kernel& kernel, int num_features);
// Shared by the kernel constructors: dims must be non-empty, distinct and >= 0, else
// std::invalid_argument naming `who` and the offending entry.
void CheckDims(const std::string& who, const std::vector<int>& dims);
// Throws std::invalid_argument naming `who`, `field` and `value` unless value is finite and > 0.
void CheckPositive(const std::string& who, const std::string& field, double value);
// "0,1,2": dims as written in Describe() strings and error messages.
std::string FormatDims(const std::vector<int>& dims);
// exp(log_value) with log_value clamped to [-700, 700]. Kernels read their log-params through
// it, so that the extreme log-params of a diverging fit give finite values instead of 0 or inf
// (and then 0 * inf = NaN). Beyond the clamp the reported gradients are those at the clamp.
double ExpOfLogParam(double log_value);

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_KERNEL_H_
