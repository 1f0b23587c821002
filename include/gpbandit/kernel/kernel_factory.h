// Constructors for every kernel gpbandit ships, and a by-name builder (the kernel registry).
// The kernel classes live in their own headers (stationary_kernel.h, periodic_kernel.h,
// linear_kernel.h, constant_kernel.h, index_kernel.h, composite_kernel.h); most code only needs
// these functions and the Kernel interface.
//
// Thread safety: the functions are pure; the kernels they return follow kernel.h.
#ifndef GPBANDIT_KERNEL_KERNEL_FACTORY_H_
#define GPBANDIT_KERNEL_KERNEL_FACTORY_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

// Squared exponential and Matern kernels (see stationary_kernel.h).
std::unique_ptr<Kernel> MakeSquaredExponential(std::vector<int> dims, bool ard = true,
                                               double variance = 1.0, double lengthscale = 1.0);
std::unique_ptr<Kernel> MakeMatern12(std::vector<int> dims, bool ard = true, double variance = 1.0,
                                     double lengthscale = 1.0);
std::unique_ptr<Kernel> MakeMatern32(std::vector<int> dims, bool ard = true, double variance = 1.0,
                                     double lengthscale = 1.0);
std::unique_ptr<Kernel> MakeMatern52(std::vector<int> dims, bool ard = true, double variance = 1.0,
                                     double lengthscale = 1.0);

// Periodic kernel k = s2 exp(-2 sum_k sin^2(pi (a - b)_k / p_k) / l_k^2) over dims (see
// periodic_kernel.h), ARD (a lengthscale and a period per dim) or shared. Log-params
// [log s2, log l..., log p...].
std::unique_ptr<Kernel> MakePeriodic(std::vector<int> dims, bool ard = true, double variance = 1.0,
                                     double lengthscale = 1.0, double period = 1.0);

// Linear kernel k = s2 * sum_{i in dims} a_i b_i / l_i^2 (ARD) or s2 * a.b / l^2 (shared).
// Log-params [log s2, log l...]. Note s2 and a shared l are not separately identifiable; the
// fit keeps them apart only through priors/bounds.
std::unique_ptr<Kernel> MakeLinear(std::vector<int> dims, bool ard = true, double variance = 1.0,
                                   double lengthscale = 1.0);

// Constant kernel k = s2 (a constant offset of the latent function). Log-params [log s2].
std::unique_ptr<Kernel> MakeConstant(double variance = 1.0);

// Index kernel k(a, b) = s * M(a[dim], b[dim]) where coordinate `dim` holds an integer item
// index in [0, N) and M is a given N x N symmetric positive semi-definite matrix (an empirical
// covariance over sensors, an inter-task covariance over contexts). Log-params [log s]; M is
// fixed. Throws std::invalid_argument if M is empty, not square, not symmetric (relative
// tolerance 1e-9) or not PSD (smallest eigenvalue < -1e-9 * largest).
std::unique_ptr<Kernel> MakeIndexKernel(int dim, const Eigen::MatrixXd& covariance,
                                        double scale = 1.0);

// Exchangeable kernel over categorical coordinates holding label indices (see
// categorical_kernel.h): k = s2 exp(-sum_k [a_k != b_k] / l_k), sizes[k] labels of dims[k].
// Log-params [log s2, log l...].
std::unique_ptr<Kernel> MakeCategorical(std::vector<int> dims, std::vector<int> sizes,
                                        bool ard = true, double variance = 1.0,
                                        double lengthscale = 1.0);
// `inner` over the one-hot embedding [other_dims; e(categorical_dims)] (see one_hot_kernel.h).
std::unique_ptr<Kernel> MakeOneHot(std::unique_ptr<Kernel> inner, std::vector<int> other_dims,
                                   std::vector<int> categorical_dims, std::vector<int> sizes);

// k = sum of parts / product of parts (Krause & Ong's k_S (+) k_Z and k_S (x) k_Z). Log-params
// are the parts' log-params concatenated in order. Throws if parts is empty or holds nullptr.
std::unique_ptr<Kernel> MakeSum(std::vector<std::unique_ptr<Kernel>> parts);
std::unique_ptr<Kernel> MakeProduct(std::vector<std::unique_ptr<Kernel>> parts);

// By name, from KernelRegistry::Default() (kernel_registry.h): the built-in "se", "matern12",
// "matern32", "matern52", "periodic" (period 1), "linear", "constant" (dims ignored), and any
// kernel registered at run time. Throws std::invalid_argument naming the unknown name and
// listing KernelNames(), or what the kernel's constructor refuses. KernelNames(): the
// registered names, the built-in ones first.
std::unique_ptr<Kernel> MakeKernel(const std::string& name, std::vector<int> dims, bool ard = true,
                                   double variance = 1.0, double lengthscale = 1.0);
std::vector<std::string> KernelNames();

// 0, 1, ..., n - 1: the dims of a kernel over the first n coordinates.
std::vector<int> FirstDims(int n);
// first, first + 1, ..., first + n - 1.
std::vector<int> DimRange(int first, int n);

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_KERNEL_FACTORY_H_
