// Options of the ask/tell Optimizer (optimizer.h). A plain struct with documented defaults, in
// the manner of ceres::Solver::Options; the command line builds its flags from a
// default-constructed OptimizerOptions so that defaults live here only.
#ifndef GPBANDIT_STUDY_OPTIMIZER_OPTIONS_H_
#define GPBANDIT_STUDY_OPTIMIZER_OPTIONS_H_

#include <cstdint>
#include <limits>
#include <string>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/gp/local_gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/hyperparams/refit_schedule.h"
#include "gpbandit/maximizer/integer_search.h"
#include "gpbandit/maximizer/raw_sample_design.h"
#include "gpbandit/study/fidelity_options.h"
#include "gpbandit/study/outcome_options.h"
#include "gpbandit/study/prior_mean_function.h"

namespace gpbandit {

// Whether Tell's values are rewards to maximize or costs to minimize. With kMinimize the
// optimizer negates each told value before anything else sees it, so a minimize run of cost c
// is exactly (bit for bit) the maximize run of reward -c; every value the Optimizer returns
// (Best, Predict, observations, the imputed value of a failure) is in the caller's units again.
// Logged in the header (older logs: kMaximize).
enum class ObjectiveSense { kMaximize, kMinimize };
// "maximize", "minimize".
std::string ObjectiveSenseName(ObjectiveSense sense);

// What tell() does with a NaN or +-inf reward: an evaluation that failed (the robot fell, the
// simulation diverged).
enum class NonFiniteRewardPolicy {
  // Throw std::invalid_argument; nothing is recorded, the optimizer is unchanged.
  kThrow,
  // Record the observation as "failed" in the log and keep it out of the GP and of the output
  // standardization; the matching pending point is released. tell() returns normally. The
  // model learns nothing, so the strategy may ask again right where the failure happened.
  kSkip,
  // As kSkip, but the failure teaches the model to avoid its neighbourhood: it enters the GP as
  // an observation at its point with the worst (lowest) reward accepted so far, a pessimistic
  // imputation (mlrMBO's impute.y.fun, SPOT's yImputation and mlr's tuning impute.val offer
  // it, usually with the worst value). The posterior mean there drops to the worst level and
  // the variance shrinks, so no strategy has a reason to go back, and a region that fails
  // throughout is fenced off by a few failures along it (limbo's blacklisted samples shrink the
  // variance only, which does not stop UCB or EI where the mean is high, as it often is next
  // to a failure). Tested: on a box a fifth of which fails, at most a quarter of GP-UCB's and
  // EI's suggestions over 40 rounds fall inside it (tests/optimizer/failed_evaluations_test.cc).
  // The value is fixed when the failure is told (later, worse rewards do not move it), written
  // to the tell record of the log as "imputed", and replayed as such. A failure told before
  // any accepted reward has nothing to be imputed from and is skipped. A failure is never the
  // incumbent or Best(); imputed rows count in the model's t (the beta_t of the next round)
  // and in its output standardization, and are fitted with the rest.
  kImputeWorst,
};

// fit.h's defaults with the optimizer's noise floor (see OptimizerOptions::fit).
HyperparameterFitOptions DefaultOptimizerFitOptions();

// How one process takes part in a study that several workers share (docs/shared_studies.md).
// These settings belong to the worker, not to the study: they are never logged, and each worker
// of a study may choose its own.
struct WorkerOptions {
  // The lease of each point this worker's Ask hands out, in seconds: the point counts as in
  // progress (GP-BUCB hallucinates it, so that other asks look elsewhere) until it is told,
  // released, or its lease ends. After that it still shows as pending (`gpbandit pending`
  // marks it expired) and a late tell is recorded as usual, but it no longer shrinks the
  // variance of later asks, nor holds back the initial design: a worker that died without
  // telling stops steering the others. Set it above the longest evaluation you expect; a lease
  // that ends too early only lets another worker suggest a point near one still being
  // evaluated. Measured on the study's clock (the database server's for PostgreSQL). > 0, or
  // infinity for leases that never end. Default 3600 (one hour).
  double pending_lease_seconds = 3600.0;
  // The name this worker's pending points carry (shown by `gpbandit pending`). Empty: the
  // host name and the process id, "host:pid". Default empty.
  std::string id;
  // How long a call keeps retrying a database that went away after the study was opened
  // (StorageOptions::reconnect_timeout_seconds), in seconds: >= 0. Default 300.
  double reconnect_timeout_seconds = 300.0;
  // The lease on the study's lock (StorageOptions::lock_lease_seconds): a worker that holds the
  // lock this long without finishing its call (stopped, in a debugger) loses it, and the others
  // go on; its call is then retried. > 0, or infinity. Default 10.
  double lock_lease_seconds = 10.0;
  // Compute each ask outside the study's lock, on this worker's replica, and take the lock only
  // to record it (docs/shared_studies.md, "Asks outside the lock"): the asks of several
  // workers then run in parallel. What others recorded meanwhile is checked first: the point is
  // kept when their new points bear little on it (below) and is chosen again otherwise (after
  // three tries, under the lock). A point equal to one of theirs is never kept. false: every
  // ask is computed under the lock and sees everything recorded before it. Without a storage
  // there is no lock and this has no effect. Default true.
  bool asks_outside_lock = true;
  // How much the points others handed out while an ask was computed outside the lock may bear
  // on it: the largest loss of its posterior standard deviation when they are hallucinated
  // (GP-BUCB), as a share of its prior standard deviation, in [0, 1]. The acquisitions of UCB,
  // EI and PI grow with the standard deviation, so a kept point's UCB is within sqrt(beta_t)
  // times that share of a prior standard deviation of the maximum GP-BUCB would have seen.
  // 0: any new point that bears on it refuses it; 1: only an equal point does. Default 0.05.
  double ask_tolerance = 0.05;
  // In a study with fidelities, the one this worker evaluates: every point its asks hand out
  // is evaluated there (the initial design's too), instead of where the study's fidelity rule
  // says. A farm of simulator workers and one robot worker then share one study: each chooses
  // its point at the target with the others' pending points hallucinated at their fidelities,
  // and every observation informs the joint model. A declared fidelity's name, not a source's
  // (OptimizerOptions::IsValid). Empty (the default): the rule's choice.
  std::string fidelity;

  bool IsValid(std::string* error) const;
};

// The reward model of long studies on boxes (docs/design.md, "The model"): the exact
// GaussianProcess while it holds few observations, past a threshold the local GP of
// gp/local_gaussian_process.h (an exact GP on the observations most correlated with the
// incumbent, Gramacy & Apley 2015), whose rounds search the trust box around the incumbent
// (TuRBO, Eriksson et al. 2019) and cost what the exact GP's cost at `size` observations
// (times the number of regions for the acquisition's maximization), whatever t. It applies on boxes
// without contexts, time models or safety constraints; the others keep the exact GP. Logged in the
// header (older logs: the exact GP throughout), so a resumed run switches at the same observation.
struct LocalModelOptions {
  // The exact GP while the model holds at most this many observations (accepted rewards and
  // imputed failures), the local GP from the next one on. >= 1; a value above any study's
  // length (std::numeric_limits<int>::max()) keeps the exact GP. Default 1000
  // (docs/benchmarks.md, "Long studies").
  int exact_until = 1000;
  // Observations in the local GP: >= 1, default 500 (its rounds then cost what the exact GP's
  // cost at t = 500).
  int size = 500;
  // Trust regions, each around its own anchor (LocalGaussianProcess): each ask maximizes the
  // acquisition in every region's trust box and takes the best, so that the search can leave
  // the basin of the first incumbent. 1 <= regions <= size, default 3 (docs/benchmarks.md,
  // "Long studies").
  int regions = 3;
  // The observation region 0's trust box is centred on (LocalGaussianProcess, LocalAnchor): the
  // highest output, or the highest posterior mean near it (not held by a lucky noisy draw; one
  // more O(size^3) factorization when the anchor moves). Default kHighestOutput, chosen on
  // generated problems; docs/benchmarks.md, section "Long studies".
  LocalAnchor anchor = LocalAnchor::kHighestOutput;
  // The fraction of LocalTrustBox's box each region's search keeps (half-widths times this,
  // around the anchor): in (0, 1], default 0.7. Near the edge of the box inscribed in a group's
  // neighbourhood half of a point's neighbours are missing from the local model, its variance
  // is high and an optimistic acquisition's maximum sits there; 0.7 (about the group's interior,
  // 1/sqrt(2) of its radius for a squared exponential) keeps the search where the local model
  // holds the data on every side (chosen on generated problems; docs/benchmarks.md, section
  // "Long studies"). Older logs without the key resume with 1, the box they ran with.
  double trust_box_scale = 0.7;

  bool IsValid(std::string* error) const;
};

struct OptimizerOptions {
  // Seeds every random choice (initial design, maximizer starts, GP-TS samples, fit restarts).
  // The generator of round r is derived from (seed, r), so a run resumed from its log draws the
  // same numbers as an uninterrupted one. Any value. Default 0.
  std::uint64_t seed = 0;

  // Number of space-filling points (a random Latin hypercube over the action box; a random
  // subset of a finite set) handed out before the model drives the choice. Observations already
  // made (warm start, pagmo's population) count towards it, so none is wasted. -1 = automatic:
  // max(2, action_dim + 1); 0 = none (the strategy chooses from the prior). >= -1.
  // Default -1.
  int initial_design_size = -1;

  // When to refit the kernel hyperparameters by marginal likelihood (every observation while
  // data are few, then every few; see refit_schedule.h). refit.enabled = false keeps the kernel
  // and noise exactly as given (the papers' known-kernel setting) and ignores `fit`.
  RefitSchedule refit;
  // How to fit (restarts, bounds, priors, noise floor; see fit.h). The fit's generator is
  // derived from `seed` and the round. Defaults: fit.h's, except num_restarts = 1,
  // max_iterations = 50 and function_tolerance = 1e-4 (start 0 is the previous fit, so a refit
  // is a warm start; the restarts stop at fit_restarts_until, below; a study with fidelities
  // fits to fidelities.fit_function_tolerance, 1e-6), and
  // min_noise_variance = 1e-10 (the bandit's objectives are often deterministic, and a higher
  // floor hides small reward differences; the GP's jitter ladder keeps K + noise I
  // factorizable).
  // With the default kernel and kernel_priors empty, the optimizer fits by MAP with a
  // log-normal prior log(l) ~ N(log 0.3, 1) on every lengthscale (inputs live in the unit
  // cube) and, with standardized outputs, log(s2) ~ N(0, 1.5^2) on the signal variance: they
  // keep a fit on a few points from extreme lengthscales and from explaining every reward as
  // noise. Give kernel_priors explicitly (stddev_log = infinity for flat) to opt out.
  // Why these values: docs/benchmarks.md, "Why the defaults are what they are".
  HyperparameterFitOptions fit = DefaultOptimizerFitOptions();
  // The fit's random restarts (fit.num_restarts) are drawn only while the model holds fewer
  // than this many observations; later refits start from the previous fit alone (an early fit
  // on a handful of points needs restarts to escape a poor optimum; later, the previous fit
  // already starts in the right basin). 0 = never restart, a huge value = always. >= 0,
  // default 50 (docs/benchmarks.md, "Why the defaults are what they are").
  int fit_restarts_until = 50;

  // Each refit fits the hyperparameters to at most this many observations, then sets them on
  // the whole model: a fit costs O(fit_max_observations^3) per likelihood evaluation whatever
  // t: to a sample spread evenly over the observations in the order told (model/
  // reward_model.h), for the exact and the local model alike. >= 1; a huge value fits to
  // all. Logged (older logs: all). Default 500 (docs/benchmarks.md, "Long studies").
  int fit_max_observations = 500;
  // The reward model of long studies: the exact GP, then the local GP (LocalModelOptions).
  LocalModelOptions local_model;

  // The GP model: observation noise variance (standardized units when outputs are
  // standardized; the starting value when hyperparameters are fitted), output standardization
  // and the jitter ladder. Default GaussianProcessOptions().
  GaussianProcessOptions gp;

  // NaN / +-inf rewards: throw (default), skip and log as failed, or log as failed and impute
  // the worst reward so far (see NonFiniteRewardPolicy).
  NonFiniteRewardPolicy non_finite_rewards = NonFiniteRewardPolicy::kThrow;

  // Maximize the told values (rewards, the default) or minimize them (costs).
  ObjectiveSense sense = ObjectiveSense::kMaximize;

  // Several objectives and outcome constraints (outcome_options.h); empty: the one objective of
  // `sense`. With objectives declared, `sense` is objective 0's.
  OutcomeOptions outcomes;

  // Named fidelities with their costs, the joint model and the fidelity rule
  // (fidelity_options.h); empty: one source. Not with several outcomes, safe strategies with
  // calibrated = false, or time models (the Optimizer refuses them together). Logged (older
  // logs: none).
  FidelityOptions fidelities;

  // A user's function m(x, z) as the prior mean of the reward's GP, a m + b with a fitted
  // (prior_mean_function.h: formula, units, the thread-safety contract, what it goes with).
  // Logged: its name and centring constants (older logs and studies without one: none).
  // Default: none.
  PriorMeanFunction prior_mean_function;

  // The acquisition maximizer over an action box (acquisition/box_maximizer.h). Its fields are
  // mirrored here rather than embedding BoxMaximizerOptions, which would pull Ceres into every
  // file that includes the optimizer. The defaults (32 raw samples; 2 L-BFGS starts: the
  // observed point with the highest posterior mean and the best raw sample; tolerance 1e-6)
  // are smaller than the box maximizer's own (512 raw, 8 starts, 100 iterations, 1e-10): the
  // acquisition's argmax is usually near the incumbent, and the raw samples cover the rest of
  // the box (docs/benchmarks.md, "Why the defaults are what they are").
  // Points scored first: >= 1, default 32.
  int maximizer_raw_samples = 32;
  // Their layout (acquisition/raw_sample_design.h): default kLatinHypercube; kSobol for
  // scrambled Sobol points.
  RawSampleDesign maximizer_raw_sample_design = RawSampleDesign::kLatinHypercube;
  // L-BFGS starts in all, the observed starts included (when there are more observed starts,
  // all of them run): >= 1, default 2.
  int maximizer_starts = 2;
  // How many of the observed points with the highest posterior means are starts: >= 0,
  // default 1.
  int maximizer_observed_starts = 1;
  // L-BFGS iterations per start: >= 1, default 50.
  int maximizer_iterations = 50;
  // Each start stops when an iteration changes the acquisition by less than this fraction
  // (Ceres' function_tolerance). Finite and > 0, default 1e-6: the last digits of the
  // acquisition's argmax matter less than the next observation, which moves it anyway.
  double maximizer_function_tolerance = 1e-6;
  // How the maximizer treats the integers of a parameter space (acquisition/integer_search.h,
  // mixed_maximizer.h): kRelaxThenSearch (default) climbs them as continuous coordinates,
  // rounds, then searches their levels; kLocalSearch and kRelaxAndRound do one of the two
  // (docs/benchmarks.md, "Mixed spaces").
  IntegerSearch maximizer_integer_search = IntegerSearch::kRelaxThenSearch;
  // Parameter spaces with categoricals: while some label of a categorical has never been
  // observed (or is not in progress) at the same other coordinates as another label, a
  // model-driven slot hands out the incumbent (the observation of the highest posterior mean)
  // with that categorical moved to such a label, instead of the acquisition's argmax; a
  // categorical of L labels takes at most L - 1 such probes (optimizer/mixed_chooser.cc).
  // Without them a GP that saw a label only at a few space-filling points may never try it
  // where the other coordinates are good (docs/benchmarks.md, "Label probes"). Logged (older
  // logs: false). Default true.
  bool label_probes = true;
  // OpenMP threads of the maximizer, of finite-set argmax and (when > 0, in place of
  // fit.num_threads) of the fits' likelihood evaluations, at most; 0 = the OpenMP default.
  // Each parallel region uses fewer when its work is small or other processes keep CPUs busy
  // (numerics/thread_policy.h, docs/threads.md), so the default is never much slower than 1.
  // Results do not depend on it. >= 0, default 0.
  int num_threads = 0;

  // On a finite candidate set without contexts, refits, time models or safety constraints, and
  // with gp.noise_variance > 0, the reward model is the posterior over the candidates kept by
  // rank-one updates (Chowdhury & Gopalan 2017, appendix F; model/finite_set_model.h), and no
  // exact GP: O(N^2) time per observation and O(N^2 + t) memory whatever t, where the exact GP
  // needs O(N t^2) per round and O(t^2) memory; the same posterior (and output standardization)
  // up to roundoff, so the same suggestions. Every round statistic, Best, Best(context),
  // Predict and the pending points' hallucination are served from it; Optimizer::model() then
  // throws (there is no GP to return). A told point that is not a candidate hands over to the
  // exact GP on every observation, for good. false: always the exact GP (to compare the two).
  // With refits (the kernel changes) or contexts (the candidates' inputs change every round) the
  // exact GP is used either way. Logged (older logs: false). Default true.
  bool finite_set_rank_one_updates = true;

  // Where the study's records live (observation_log.h lists them). log_path: a JSON-Lines file
  // (the file backend, storage/file_storage.h). storage (and study): any storage
  // OpenStudyStorage accepts (storage/study_storage.h): a file, a directory of studies, or a
  // postgresql:// URL. Give at most one of log_path and storage; neither = the optimizer keeps
  // its state in memory only. When the study already holds records, the optimizer replays them
  // and continues the study (its header must match this optimizer's domain, strategy, seed
  // and kernel); otherwise its first record creates the study. Several optimizers (threads,
  // processes, machines) may share one study: each call first replays what the others
  // appended (Optimizer, "Shared studies"). Not logged. Default empty.
  std::string log_path;
  std::string storage;
  std::string study;
  // This process's part in a shared study (leases, worker name). Not logged.
  WorkerOptions worker;
  // File studies: fsync before Tell, TellMany, Release and ClearPending return (an ask's pending
  // records are written without waiting for the disk; see Optimizer, "Shared studies"). Turn
  // off only for benchmarks on throw-away files. Default true.
  bool sync_log = true;

  // True if every field is in range; otherwise false and *error names the field and value.
  bool IsValid(std::string* error) const;
};

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_OPTIMIZER_OPTIONS_H_
