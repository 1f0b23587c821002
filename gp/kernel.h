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
//
// Thread safety: all const member functions are safe to call concurrently (no caches).
#ifndef GPBANDIT_GP_KERNEL_H_
#define GPBANDIT_GP_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace gpbandit {

using ConstVectorRef = Eigen::Ref<const Eigen::VectorXd>;
using VectorRef = Eigen::Ref<Eigen::VectorXd>;

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

 protected:
  // The coordinates the default ValidatePoint requires to be finite. Default: every coordinate
  // below MinInputDim(); kernels that read only some coordinates override it.
  virtual std::vector<int> InputDims() const;
};

// Shared by the kernel implementations: check that a log-param vector has the right size and
// finite entries, or throw std::invalid_argument naming `who`.
void CheckLogParams(const std::string& who, int expected_size, const ConstVectorRef& log_params);

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

#endif  // GPBANDIT_GP_KERNEL_H_
