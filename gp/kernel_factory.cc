#include "gpbandit/gp/kernel_factory.h"

#include <stdexcept>

#include "gpbandit/gp/categorical_kernel.h"
#include "gpbandit/gp/composite_kernel.h"
#include "gpbandit/gp/constant_kernel.h"
#include "gpbandit/gp/index_kernel.h"
#include "gpbandit/gp/linear_kernel.h"
#include "gpbandit/gp/one_hot_kernel.h"
#include "gpbandit/gp/periodic_kernel.h"
#include "gpbandit/gp/stationary_kernel.h"

namespace gpbandit {

std::unique_ptr<Kernel> MakeSquaredExponential(std::vector<int> dims, bool ard, double variance,
                                               double lengthscale) {
  return std::make_unique<StationaryKernel>(StationaryFamily::kSquaredExponential, std::move(dims),
                                            ard, variance, lengthscale);
}

std::unique_ptr<Kernel> MakeMatern12(std::vector<int> dims, bool ard, double variance,
                                     double lengthscale) {
  return std::make_unique<StationaryKernel>(StationaryFamily::kMatern12, std::move(dims), ard,
                                            variance, lengthscale);
}

std::unique_ptr<Kernel> MakeMatern32(std::vector<int> dims, bool ard, double variance,
                                     double lengthscale) {
  return std::make_unique<StationaryKernel>(StationaryFamily::kMatern32, std::move(dims), ard,
                                            variance, lengthscale);
}

std::unique_ptr<Kernel> MakeMatern52(std::vector<int> dims, bool ard, double variance,
                                     double lengthscale) {
  return std::make_unique<StationaryKernel>(StationaryFamily::kMatern52, std::move(dims), ard,
                                            variance, lengthscale);
}

std::unique_ptr<Kernel> MakePeriodic(std::vector<int> dims, bool ard, double variance,
                                     double lengthscale, double period) {
  return std::make_unique<PeriodicKernel>(std::move(dims), ard, variance, lengthscale, period);
}

std::unique_ptr<Kernel> MakeLinear(std::vector<int> dims, bool ard, double variance,
                                   double lengthscale) {
  return std::make_unique<LinearKernel>(std::move(dims), ard, variance, lengthscale);
}

std::unique_ptr<Kernel> MakeConstant(double variance) {
  return std::make_unique<ConstantKernel>(variance);
}

std::unique_ptr<Kernel> MakeIndexKernel(int dim, const Eigen::MatrixXd& covariance, double scale) {
  return std::make_unique<IndexKernel>(dim, covariance, scale);
}

std::unique_ptr<Kernel> MakeCategorical(std::vector<int> dims, std::vector<int> sizes, bool ard,
                                        double variance, double lengthscale) {
  return std::make_unique<CategoricalKernel>(std::move(dims), std::move(sizes), ard, variance,
                                             lengthscale);
}

std::unique_ptr<Kernel> MakeOneHot(std::unique_ptr<Kernel> inner, std::vector<int> other_dims,
                                   std::vector<int> categorical_dims, std::vector<int> sizes) {
  return std::make_unique<OneHotKernel>(std::move(inner), std::move(other_dims),
                                        std::move(categorical_dims), std::move(sizes));
}

std::unique_ptr<Kernel> MakeSum(std::vector<std::unique_ptr<Kernel>> parts) {
  return std::make_unique<CompositeKernel>(CompositeOperation::kSum, std::move(parts));
}

std::unique_ptr<Kernel> MakeProduct(std::vector<std::unique_ptr<Kernel>> parts) {
  return std::make_unique<CompositeKernel>(CompositeOperation::kProduct, std::move(parts));
}

std::vector<std::string> KernelNames() {
  return {"se", "matern12", "matern32", "matern52", "periodic", "linear", "constant"};
}

std::unique_ptr<Kernel> MakeKernel(const std::string& name, std::vector<int> dims, bool ard,
                                   double variance, double lengthscale) {
  if (name == "se") return MakeSquaredExponential(std::move(dims), ard, variance, lengthscale);
  if (name == "matern12") return MakeMatern12(std::move(dims), ard, variance, lengthscale);
  if (name == "matern32") return MakeMatern32(std::move(dims), ard, variance, lengthscale);
  if (name == "matern52") return MakeMatern52(std::move(dims), ard, variance, lengthscale);
  if (name == "periodic") return MakePeriodic(std::move(dims), ard, variance, lengthscale);
  if (name == "linear") return MakeLinear(std::move(dims), ard, variance, lengthscale);
  if (name == "constant") return MakeConstant(variance);
  std::string known;
  for (const std::string& n : KernelNames()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("MakeKernel: unknown kernel name \"" + name + "\" (known: " + known +
                              ")");
}

std::vector<int> FirstDims(int n) { return DimRange(0, n); }

std::vector<int> DimRange(int first, int n) {
  std::vector<int> dims;
  for (int i = 0; i < n; ++i) dims.push_back(first + i);
  return dims;
}

}  // namespace gpbandit
