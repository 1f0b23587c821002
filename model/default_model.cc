#include "model/default_model.h"

#include <cmath>

#include "gpbandit/kernel/categorical_kernel.h"
#include "gpbandit/kernel/fidelity_kernels.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/kernel/time_kernels.h"
#include "gpbandit/space/space_transform.h"

namespace gpbandit {
namespace {

// The default kernel's lengthscale prior, log(l) ~ N(log 0.3, 1) in the unit cube
// (optimizer_options.h, `fit`); docs/benchmarks.md, section "Why the defaults are what they are".
constexpr double kDefaultLengthscalePriorMedian = 0.3;
constexpr double kDefaultLengthscalePriorStddevLog = 1.0;
// The default kernel's signal-variance prior, log(s2) ~ N(log 1, 1.5^2) with standardized
// outputs (whose variance is 1): it keeps a fit on a few points out of the white-noise optimum
// (signal variance at its lower bound 1e-3, noise ~1; tests/optimizer/optimizer_defaults_test.cc,
// docs/benchmarks.md, section "Why the defaults are what they are"). It costs ~4.7 nats at
// s2 = 0.01, which the likelihood of a truly noisy objective outweighs.
constexpr double kDefaultSignalVariancePriorStddevLog = 1.5;
// The exchangeable kernel's category lengthscales, log(l) ~ N(log 1, 1): two distinct labels
// correlate by exp(-1) = 0.37 at the median. Chosen on generated problems; docs/benchmarks.md,
// section "Mixed spaces".
constexpr double kDefaultCategoryLengthscalePriorMedian = 1.0;

}  // namespace

std::vector<LogNormalPrior> DefaultKernelPriors(const std::vector<ParamKind>& kinds,
                                                bool standardized_outputs) {
  std::vector<LogNormalPrior> priors(kinds.size());
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    if (kinds[j] == ParamKind::kLengthscale) {
      priors[j].mean_log = std::log(kDefaultLengthscalePriorMedian);
      priors[j].stddev_log = kDefaultLengthscalePriorStddevLog;
    } else if (kinds[j] == CategoryLengthscaleKind()) {
      priors[j].mean_log = std::log(kDefaultCategoryLengthscalePriorMedian);
      priors[j].stddev_log = kDefaultLengthscalePriorStddevLog;
    } else if (kinds[j] == ParamKind::kSignalVariance && standardized_outputs) {
      priors[j].mean_log = 0.0;
      priors[j].stddev_log = kDefaultSignalVariancePriorStddevLog;
    }
  }
  return priors;
}

namespace {

// The default kernel over the n coordinates from `first`: a Matern-5/2 with ARD; for a
// parameter space, the Matern over its reals and integers times the exchangeable kernel over
// its categoricals (gp/categorical_kernel.h; docs/benchmarks.md, "Mixed spaces").
std::unique_ptr<Kernel> BlockKernel(const SpaceTransform* space, int first, int n,
                                    double lengthscale) {
  if (space == nullptr) return MakeMatern52(DimRange(first, n), true, 1.0, lengthscale);
  std::vector<std::unique_ptr<Kernel>> parts;
  const std::vector<int> other = space->OtherDims(first);
  if (!other.empty()) parts.push_back(MakeMatern52(other, true, 1.0, lengthscale));
  const std::vector<int> categorical = space->CategoricalDims(first);
  if (!categorical.empty())
    parts.push_back(
        MakeCategorical(categorical, space->CategoricalSizes(), true, 1.0, lengthscale));
  if (parts.size() == 1) return std::move(parts[0]);
  return MakeProduct(std::move(parts));
}

}  // namespace

std::unique_ptr<Kernel> DefaultKernel(const Domain& domain, double lengthscale) {
  std::unique_ptr<Kernel> actions =
      BlockKernel(domain.action_transform(), 0, domain.action_dim(), lengthscale);
  if (domain.context_dim() == 0) return actions;
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(actions));
  parts.push_back(BlockKernel(domain.context_transform(), domain.action_dim(), domain.context_dim(),
                              lengthscale));
  return MakeProduct(std::move(parts));
}

// Safe strategies start from the shorter lengthscale 0.3, which explores more cautiously; chosen
// on test functions, docs/benchmarks.md, section "Safe exploration".
double DefaultLengthscale(const Strategy& strategy) {
  return strategy.safe_seeds().cols() > 0 ? kDefaultLengthscalePriorMedian : 1.0;
}

std::unique_ptr<Kernel> WithTimeKernel(std::unique_ptr<Kernel> kernel, const TimeModel& time,
                                       int time_dim,
                                       std::shared_ptr<const std::vector<long>> epoch_starts) {
  if (time.kind == TimeModelKind::kNone) return kernel;
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(kernel));
  if (time.kind == TimeModelKind::kForgetting) {
    parts.push_back(std::make_unique<ForgettingKernel>(time_dim, time.epsilon, time.fit_epsilon));
  } else if (time.kind == TimeModelKind::kRestarts) {
    parts.push_back(std::make_unique<RestartKernel>(time_dim, std::move(epoch_starts)));
  } else {
    parts.push_back(std::make_unique<EpochKernel>(time_dim, time.epoch_length));
  }
  return MakeProduct(std::move(parts));
}

std::unique_ptr<Kernel> WithFidelityKernel(std::unique_ptr<Kernel> kernel,
                                           const FidelityOptions& fidelities, int fidelity_dim) {
  if (!fidelities.active()) return kernel;
  const int levels = fidelities.num_fidelities();
  if (fidelities.model == FidelityModel::kIcm)
    return std::make_unique<CoregionalizationKernel>(std::move(kernel), fidelity_dim, levels);
  std::vector<std::unique_ptr<Kernel>> parts;
  for (int l = 1; l < levels; ++l) parts.push_back(kernel->Clone());
  parts.insert(parts.begin(), std::move(kernel));
  return std::make_unique<AutoregressiveKernel>(std::move(parts), fidelity_dim);
}

}  // namespace gpbandit
