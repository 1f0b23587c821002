// Where a point chosen at the target is evaluated, in a study with fidelities
// (study/fidelity_options.h): the study's fidelity rule (acquisition/fidelity_rule.h) on the
// joint posterior of f_0(x), ..., f_{F-1}(x) at the chosen action under the ask's posterior
// (pending points hallucinated), with the prior correlations of the fitted kernel as its gate.
// Internal to the library; pure.
#ifndef GPBANDIT_OPTIMIZER_FIDELITY_CHOICE_H_
#define GPBANDIT_OPTIMIZER_FIDELITY_CHOICE_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/model_inputs.h"

namespace gpbandit {
namespace internal {

// The fidelity to evaluate action x (original units) at context z in round `round`. gp: the
// ask's posterior over the model inputs of `inputs` (which have fidelities). beta: the
// strategy's confidence multiplier for the threshold rule (NaN or <= 0: the rule's default 4).
// The threshold rule's bias bound zeta_m is the fitted prior standard deviation of
// f_T(x) - f_m(x) (what the kernel believes the simulator's error to be). The information
// rule's noise is the GP's, but at least (0.1 sigma_T)^2 for the target's prior standard
// deviation sigma_T at x: on a deterministic objective the fitted noise is ~1e-10 and one exact
// target evaluation would tell 0.5 log(var_T / noise) ~ 10 nats, so that no cheaper source,
// however good, would ever be chosen (measured: a simulator equal to the target, cost ratio 10,
// scored 0.02-0.2 nats per unit cost against the target's 0.7-1.1).
// Sources (FidelitySpec::source, earlier studies) are never chosen: the rule sees the joint
// posterior over the evaluable levels only, and with the target the only one it returns the
// target without computing anything.
int ChooseFidelity(const OptimizerOptions& options, const ModelInputs& inputs,
                   const GaussianProcess& gp, const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                   long round, double beta);

// Before the rule: the cheapest lower fidelity with fewer than `probes` evaluations told or in
// progress (counts: per fidelity), or -1 when each has them. While a lower fidelity has no data,
// the relation between it and the target is not identifiable: a fit to target data alone sets
// rho (or B's off-diagonal) anywhere, in practice near 0 (measured on generated problems: |rho|
// < 1e-3 after the design), which the rule's gate reads as "useless", so it would never be
// tried. A few model-driven points evaluated there let the fit tell (docs/fidelities.md).
int UnprobedFidelity(const std::vector<int>& counts, int probes);
// The same, skipping the sources of `fidelities` (never evaluated: their data are copied from
// an earlier study). With the two-argument form a source counts its copied observations, which
// the study requires to be at least `probes` (source_records.h), so it is skipped as well.
int UnprobedFidelity(const std::vector<int>& counts, int probes, const FidelityOptions& fidelities);
// The number of such points per lower fidelity: the initial design's size, at least 2.
int FidelityProbes(const Domain& domain, const OptimizerOptions& options);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_FIDELITY_CHOICE_H_
