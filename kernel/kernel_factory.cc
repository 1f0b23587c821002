#include "gpbandit/kernel/kernel_factory.h"

#include <utility>

#include "gpbandit/kernel/categorical_kernel.h"
#include "gpbandit/kernel/composite_kernel.h"
#include "gpbandit/kernel/constant_kernel.h"
#include "gpbandit/kernel/index_kernel.h"
#include "gpbandit/kernel/kernel_registry.h"
#include "gpbandit/kernel/linear_kernel.h"
#include "gpbandit/kernel/one_hot_kernel.h"
#include "gpbandit/kernel/periodic_kernel.h"
#include "gpbandit/kernel/stationary_kernel.h"

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

std::vector<std::string> KernelNames() { return KernelRegistry::Default().Names(); }

std::unique_ptr<Kernel> MakeKernel(const std::string& name, std::vector<int> dims, bool ard,
                                   double variance, double lengthscale) {
  KernelSpec spec;
  spec.dims = std::move(dims);
  spec.ard = ard;
  spec.variance = variance;
  spec.lengthscale = lengthscale;
  return KernelRegistry::Default().Create(name, spec);
}

std::vector<int> FirstDims(int n) { return DimRange(0, n); }

std::vector<int> DimRange(int first, int n) {
  std::vector<int> dims;
  for (int i = 0; i < n; ++i) dims.push_back(first + i);
  return dims;
}

}  // namespace gpbandit
