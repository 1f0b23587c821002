// The model an Optimizer builds when the caller gives no kernel, and the kernel it wraps for a
// strategy's time model. Internal to model/.
#ifndef GPBANDIT_MODEL_DEFAULT_MODEL_H_
#define GPBANDIT_MODEL_DEFAULT_MODEL_H_

#include <memory>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/kernel/kernel.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/study/fidelity_options.h"

namespace gpbandit {

// The default kernel over [action; context] in the unit cube: Matern-5/2 with ARD over the
// actions, times one over the contexts when there are contexts (Krause & Ong 2011), every
// lengthscale starting at `lengthscale`. Actions or contexts that are a parameter space get
// the Matern over their reals and integers times the exchangeable kernel
// (gp/categorical_kernel.h) over their categoricals.
std::unique_ptr<Kernel> DefaultKernel(const Domain& domain, double lengthscale);
// The default kernel's initial lengthscale: 1 (the unit cube's width), or for safe strategies
// the lengthscale prior's median, 0.3, since their refits may only shorten it.
double DefaultLengthscale(const Strategy& strategy);
// The priors the default kernel is fitted with when the caller gave none, by the kind of each
// log-param: log(l) ~ N(log 0.3, 1) on every lengthscale, log(l) ~ N(log 1, 1) on every
// category lengthscale (gp/categorical_kernel.h) and, with standardized outputs,
// log(s2) ~ N(0, 1.5^2) on every signal variance; none on other kinds.
std::vector<LogNormalPrior> DefaultKernelPriors(const std::vector<ParamKind>& kinds,
                                                bool standardized_outputs);
// The spatial kernel times the strategy's time kernel over the last input coordinate
// (`time_dim`), or the kernel itself when the time model is kNone. kRestarts: the epochs start
// at *epoch_starts (RestartKernel; not null then).
std::unique_ptr<Kernel> WithTimeKernel(
    std::unique_ptr<Kernel> kernel, const TimeModel& time, int time_dim,
    std::shared_ptr<const std::vector<long>> epoch_starts = nullptr);
// The study's kernel over [action; context] wrapped in the joint kernel of `fidelities`
// (kernel/fidelity_kernels.h) with the fidelity index at coordinate `fidelity_dim`: the
// autoregressive model with one copy of `kernel` per level (rho starting at 1), or the ICM of
// rank 1 over it. The kernel itself without fidelities.
std::unique_ptr<Kernel> WithFidelityKernel(std::unique_ptr<Kernel> kernel,
                                           const FidelityOptions& fidelities, int fidelity_dim);

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_DEFAULT_MODEL_H_
