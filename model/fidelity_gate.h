// The gate of a study with fidelities (study/fidelity_options.h) applied to the model itself:
// when every level below the target has a fitted prior correlation with the target below
// min_correlation, the rule never evaluates there (acquisition/fidelity_rule.h), and the refit
// decouples those levels from the target (TargetCouplingParams held at 0, the other
// hyperparameters fitted again), so that the target's posterior is the one of its own
// observations, as a study without those levels would have it, until a later refit of the joint
// model finds the relation again.
//
// Why: a level fitted as misleading still moves the target's posterior through the fitted
// relation (a simulator equal to -f_T, rho near -1, makes the joint mean at the target follow
// the negated data), and the joint fit gives the target's own part (k_delta) only what the
// relation leaves unexplained. Measured on Kandasamy et al.'s BadCurrinExp, the joint model's
// recommendations were 3-14 times worse than target-only optimization's (docs/fidelities.md).
// With the coupling at 0 the likelihood splits into one term per block of levels, so the
// target's part is fitted to the target's observations alone.
// Internal to model/; pure but for FitDecoupledIfGatedOut's *gp and rng.
#ifndef GPBANDIT_MODEL_FIDELITY_GATE_H_
#define GPBANDIT_MODEL_FIDELITY_GATE_H_

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/numerics/random.h"
#include "gpbandit/study/fidelity_options.h"

namespace gpbandit {

// True when fidelities are active, gp's kernel couples levels (TargetCouplingParams), gp has an
// observation at the target, and the prior correlation with the target of every level below it,
// at gp's last observation at the target (stationary parts give the same value everywhere), is
// below fidelities.min_correlation. fidelity_dim: the fidelity's coordinate in gp's inputs.
bool LowerLevelsGatedOut(const FidelityOptions& fidelities, const GaussianProcess& gp,
                         int fidelity_dim);

// After a joint fit of *gp with `fit`: when LowerLevelsGatedOut, fits *gp again with the
// coupling parameters held at 0 (bounds [-1e-9, 1e-9], then set to exactly 0), starting from
// its current hyperparameters, and returns true with *report that fit's; otherwise false,
// nothing changed.
bool FitDecoupledIfGatedOut(const FidelityOptions& fidelities, int fidelity_dim,
                            const HyperparameterFitOptions& fit, Rng& rng, GaussianProcess* gp,
                            HyperparameterFitReport* report);

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_FIDELITY_GATE_H_
