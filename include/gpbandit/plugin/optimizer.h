// The ask/tell optimizer: the way a host loop (a robot, a lab, pagmo's evolve, the command line)
// drives a Gaussian-process bandit strategy.
//
//   gpbandit::Optimizer opt(gpbandit::Domain::Box(lower, upper), nullptr, "gp-ucb", options);
//   for (int i = 0; i < 100; ++i) {
//     Eigen::VectorXd x = opt.Ask();
//     opt.Tell(x, reward(x));
//   }
//   Eigen::VectorXd best = opt.Best().x;
//
// With the user's own parameters (parameter_space.h), points go by name:
//   gpbandit::ParameterSpace space({gpbandit::Parameter::Real("kp", 0.1, 100,
//   ParameterScale::kLog),
//                                   gpbandit::Parameter::Integer("taps", 1, 12),
//                                   gpbandit::Parameter::Categorical("mode", {"pid",
//                                   "lead-lag"})});
//   gpbandit::Optimizer opt(gpbandit::Domain::Space(space), nullptr, "ei", options);
//   gpbandit::NamedValues p = opt.AskNamed();   // {"kp": 3.2, "taps": 4, "mode": "pid"}
//   opt.TellNamed(p, reward(p));
//
// Each Ask: (1) while fewer than initial_design_size observations/pending points exist, the next
// space-filling design point; otherwise (2) refit hyperparameters when the schedule says so,
// (3) hallucinate every pending point at the posterior mean in a scratch copy of the model
// (GP-BUCB, Desautels, Krause & Burdick 2014: the variance shrinks where work is already under
// way, the mean does not move), (4) BeginRound of the strategy with t = observations in the
// model (accepted, and failures with imputed rewards) + pending + 1, and (5) maximize its
// acquisition over the action box with the context held fixed, or take the argmax over the
// finite set. A safe strategy (Strategy::safe_seeds() non-empty) gets no design in (1), its
// seeds first, then its own choice (Strategy::ChooseSafe) in (5); see acquisition/safe_opt.h.
// AskBatch(q) repeats (3)-(5) q times, hallucinating each choice before the next. Every
// handed-out point is logged as pending before the call returns. On a finite set without
// contexts and refits the posterior over the candidates is kept by rank-one updates (O(N^2) per
// observation; OptimizerOptions::finite_set_rank_one_updates), with the same posterior.
//
// Units: every action x and context z here is in ORIGINAL units; the model sees the unit-cube
// image (Domain::ToUnit) and, by default, standardized outputs. Rewards may be any finite
// doubles: with standardized outputs they reach the model divided by reward_unit() = 2^k, k = 0
// while the largest magnitude lies within [2^-256, 2^256] and otherwise a multiple of 128 that
// brings it within 2^128 of 1, so that the model's variances can neither overflow nor
// underflow; strategy constants in reward units (EI's xi, IGP-UCB's B and R) are then in
// rewards / 2^k. What this API returns is in the caller's units. OptimizerOptions::sense =
// kMinimize negates told values on the way in and returned values on the way out.
//
// Drifting objectives: a strategy with a time model (acquisition/time_model.h: "tv-gp-ucb",
// "r-gp-ucb") gets the model input [action; context; round] and the kernel times the time kernel
// over the round (gp/time_kernels.h); model() then has input dimension domain().input_dim() + 1.
//
// Determinism: the random numbers of ask round r come from a generator seeded by (seed, r), and
// the model changes only by Tell and by refits (whose results are logged), so replaying a log
// rebuilds the exact same state: a resumed run gives the same suggestions as an uninterrupted
// one. Results do not depend on the number of OpenMP threads.
//
// Errors: construction refuses what cannot work later (fit priors or bounds of the wrong size,
// a kernel needing more inputs than the domain has, a strategy that cannot run with the kernel
// on the domain, Strategy::CheckSupports). Bad input throws std::invalid_argument naming the
// field and the value(s); a rejected call leaves the optimizer exactly as it was
// (Fingerprint() unchanged) and its study byte-identical. Storage failures throw
// std::runtime_error.
//
// Shared studies (docs/shared_studies.md): with a storage (OptimizerOptions::log_path or
// storage, or Open), several optimizers in several processes or machines may work on one study.
// Every call first replays, in order, the records the others appended (so every worker holds a
// bit-identical model) and appends its records under the study's exclusive lock. Tell, TellMany,
// Release and ClearPending do their work under the lock and return once their records are
// durable (fsync, or a commit). An ask is chosen outside the lock on this worker's replica and
// takes the lock only to record its points, after checking what others recorded meanwhile
// (WorkerOptions::asks_outside_lock; a point their new points bear on is chosen again, and
// after three tries under the lock); a refit due is made outside the lock by the one worker that
// claimed it and replayed by the others. An ask's records are visible at once and on disk
// shortly after (a machine or server crash may forget them: those points are then simply not
// pending, the refit is redone; a worker that had replayed them reads the study again).
// Pending points carry leases (WorkerOptions): a worker that dies without telling stops steering
// the others when its lease ends; one that holds the lock beyond its lock lease (stopped, in a
// debugger) loses it and retries its call. A call interrupted by a lost database connection is
// retried once the database is back; it never appears twice. Queries answer from the state as
// of this optimizer's last call; Sync() brings it up to date.
//
// Thread safety: every public member locks an internal mutex, so one Optimizer may be shared by
// several threads; calls are serialized.
#ifndef GPBANDIT_PLUGIN_OPTIMIZER_H_
#define GPBANDIT_PLUGIN_OPTIMIZER_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/gp/kernel.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/plugin/domain.h"
#include "gpbandit/plugin/optimizer_options.h"
#include "gpbandit/plugin/optimizer_types.h"
#include "gpbandit/plugin/parameter_space.h"
#include "gpbandit/plugin/strategy_registry.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {

namespace internal {
class OptimizerImpl;
}  // namespace internal

class Optimizer {
 public:
  // domain: see domain.h. kernel: over the model input [action; context] in unit-cube
  // coordinates, of MinInputDim() <= domain.input_dim(); nullptr = the default: Matern-5/2 with
  // ARD over all inputs, and for contexts the product k_S (x) k_Z of a Matern-5/2 ARD over the
  // actions and one over the contexts (Krause & Ong 2011). strategy: a registered name
  // (StrategyRegistry::Default()); strategy_options: its parameters, over its default options
  // (the keys are listed in the strategy's header, e.g. acquisition/gp_ucb.h). Throws
  // std::invalid_argument for an unknown strategy, invalid options or a kernel that does not
  // fit the domain; std::runtime_error when the study of options.log_path or options.storage
  // cannot be reached, read or written (a file: checked here, not at the first Ask), is not a
  // study (a file that does not start with a study's header), or its header does not match
  // this optimizer's settings (the message names the first field that differs: the sense, the
  // strategy or one of its options, the initial design's size, the seed, the kernel, ...; only
  // num_threads and sync_log may differ). Nothing is written then. An existing study is joined
  // (several workers share it); Resume and Open join one with its own settings.
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel, const std::string& strategy,
            const StrategyParams& strategy_options, const OptimizerOptions& options);
  // The strategy with its default options.
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel, const std::string& strategy,
            const OptimizerOptions& options);
  // A ready strategy object (e.g. a user's). The log records strategy->name() and
  // strategy->OptionsJson(); Resume rebuilds the strategy through StrategyRegistry::Default(),
  // which must then know the name. Throws std::invalid_argument for a null strategy or an
  // OptionsJson() that is not a JSON object.
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
            std::unique_ptr<Strategy> strategy, const OptimizerOptions& options);
  // The first constructor on a ready storage, which holds this study or none yet
  // (options.log_path and options.storage must be empty).
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel, const std::string& strategy,
            const StrategyParams& strategy_options, const OptimizerOptions& options,
            std::unique_ptr<StudyStorage> storage);

  // Rebuilds an optimizer from a log alone: domain, strategy and options from its header
  // (log_path set to `log_path`), then the log replayed. Logs of every format version resume.
  // kernel: the one the log was written with, if not the default (checked against the header).
  // Throws std::runtime_error for a missing, empty or corrupt log, or an unregistered strategy.
  static std::unique_ptr<Optimizer> Resume(const std::string& log_path,
                                           std::unique_ptr<Kernel> kernel = nullptr);
  // Joins an existing study, like Resume: everything but this worker's options comes from the
  // study's header. storage/study: see OpenStudyStorage (storage/study_storage.h), e.g.
  // Open("postgresql://lab-db/tuning", "pump-gains"). Throws std::runtime_error when the
  // storage cannot be reached, the study does not exist or its strategy is not registered,
  // std::invalid_argument for bad worker options or a bad study name.
  static std::unique_ptr<Optimizer> Open(const std::string& storage, const std::string& study,
                                         std::unique_ptr<Kernel> kernel = nullptr,
                                         const WorkerOptions& worker = WorkerOptions());
  // The same on a ready storage (e.g. one of your own, or a wrapper that measures it).
  static std::unique_ptr<Optimizer> Open(std::unique_ptr<StudyStorage> storage,
                                         std::unique_ptr<Kernel> kernel = nullptr,
                                         const WorkerOptions& worker = WorkerOptions());

  ~Optimizer();
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // ---- Ask / tell ----------------------------------------------------------------------------
  // The next action (size action_dim). context: size context_dim (empty without contexts), in
  // the context bounds if any.
  Eigen::VectorXd Ask(const Eigen::VectorXd& context = Eigen::VectorXd());
  // q >= 1 distinct actions, one per column (action_dim x q), all for the same context. On a
  // finite set q <= N (a candidate pending from an earlier call may be suggested again); a safe
  // strategy's batch may repeat a point rather than use one not checked safe.
  Eigen::MatrixXd AskBatch(int q, const Eigen::VectorXd& context = Eigen::VectorXd());
  // Reports reward y at action x (and context z). x must lie in the action box (finite sets:
  // in the candidates' bounding box). A matching pending point (exactly equal x and z) is
  // released (TellTrial releases the point of a trial number instead). Non-finite y: see
  // OptimizerOptions::non_finite_rewards. Logged and made durable before the model is updated.
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y);
  void Tell(const Eigen::VectorXd& x, double y) { Tell(x, Eigen::VectorXd(), y); }
  // The same with the measured constraint signals g_1..g_m (SafeOpt-MC; m = num_constraints()),
  // each finite, in its own units: required with a finite y when the strategy models
  // constraints; may be empty with a non-finite y. Each g_i has its own GP over the same inputs,
  // logged with the tell and replayed by Resume.
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
            const Eigen::VectorXd& constraints);
  // ---- Trials: handles for the points handed out ---------------------------------------------
  // Ask and AskBatch that also give each point's trial number (PendingPoint::trial), a handle
  // that TellTrial and ReleaseTrial take instead of the exact point (as Optuna's and Ax's
  // trials): the point evaluated may then differ from the one suggested (rounded to an
  // instrument's resolution, clipped by hand) and still release its pending point.
  Eigen::VectorXd Ask(const Eigen::VectorXd& context, long* trial);
  Eigen::MatrixXd AskBatch(int q, const Eigen::VectorXd& context, std::vector<long>* trials);
  // Reports reward y at action x (and context z) for trial `trial`: releases the trial's
  // pending point, whatever x is, and records the observation in the trial's round (otherwise
  // as Tell). Throws std::invalid_argument when no pending point has that trial number (it was
  // told, released or cleared, or never handed out); nothing is recorded then.
  void TellTrial(long trial, const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
                 const Eigen::VectorXd& constraints = Eigen::VectorXd());
  // Gives back the pending point of trial `trial` (logged); false, writing nothing, when no
  // pending point has that number.
  bool ReleaseTrial(long trial);

  // Warm start: tells every column (X: action_dim x n, Z: context_dim x n or empty, y: n).
  // All-or-nothing: every column is checked before the first is recorded.
  void TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z, const Eigen::VectorXd& y);
  // Forgets the pending points (in a shared study, every worker's). Logged.
  void ClearPending();
  // Gives back one pending point that will not be evaluated: the first pending point exactly
  // equal to (x, context) stops counting at once. Logged. Returns false, writing nothing, when
  // none equals it. Throws std::invalid_argument for a point outside the domain.
  bool Release(const Eigen::VectorXd& x, const Eigen::VectorXd& context = Eigen::VectorXd());
  // Replays what other workers appended since this optimizer's last call (no-op without a
  // storage).
  void Sync();
  // Creates the study in its storage now, with its header and no record. Returns false when it
  // exists already. Throws std::logic_error without a storage, std::runtime_error when another
  // worker created it meanwhile with another header.
  bool CreateStudy();

  // "best" is the recommendation, in C++, Python (Optimizer.best) and on the command line
  // (gpbandit best) alike. Without a context: the observed point with the highest posterior
  // mean among accepted observations (a denoised incumbent; a skipped -inf never becomes it);
  // under the local model of long studies, among those in the interior of its neighbourhoods
  // (LocalGaussianProcess::MeansAtObservations). Throws std::logic_error before any accepted
  // observation.
  Recommendation Best() const;
  // At a context of a contextual domain (where, in general, nothing was observed): the
  // maximizer of the posterior mean mu_t(x, context) over the whole action domain (at the next
  // round, for a time model), observed or not: exhaustive on finite sets (the first of equal
  // maxima); on boxes the maximizer on the mean (deterministic for the seed and the state),
  // started also from the observed points. observed_reward is NaN unless the action was
  // observed at this context. On a domain without contexts, an empty context gives Best().
  // Throws std::invalid_argument for a bad context.
  Recommendation Best(const Eigen::VectorXd& context) const;
  // "predict" is the posterior mean and STANDARD DEVIATION of f (not of a noisy observation)
  // at action x and context (see Prediction), in the caller's units, at the next round for a
  // time model; the same in Python (Optimizer.predict) and on the command line. Throws
  // std::invalid_argument for a bad x or context.
  Prediction Predict(const Eigen::VectorXd& x,
                     const Eigen::VectorXd& context = Eigen::VectorXd()) const;

  // ---- Named values (a domain built from a ParameterSpace, Domain::Space) -------------------
  // The same calls with points by name (parameter_space.h): a real as a double, an integer as
  // a long long, a categorical as its label. A context is named when the contexts are a space
  // (Domain::WithContext(ParameterSpace)) and empty otherwise (then the domain has no context).
  // Throws std::logic_error when the domain is not a parameter space, std::invalid_argument for
  // a missing, unknown or illegal value (nothing changes then). Recommendation::x and the other
  // vectors convert with domain().action_space()->ToNamed(x).
  NamedValues AskNamed(const NamedValues& context = NamedValues());
  std::vector<NamedValues> AskBatchNamed(int q, const NamedValues& context = NamedValues());
  void TellNamed(const NamedValues& x, double y);
  void TellNamed(const NamedValues& x, const NamedValues& context, double y);

  // ---- Per-round reports ---------------------------------------------------------------------
  // Called after every Ask and AskBatch (outside the optimizer's lock, so it may query the
  // optimizer) with the round's report; an empty function removes it. Not logged.
  void SetRoundCallback(std::function<void(const RoundReport&)> callback);
  // The report of the last Ask or AskBatch of this optimizer (round -1 before the first).
  RoundReport last_round_report() const;

  // ---- State ---------------------------------------------------------------------------------
  const Domain& domain() const;
  const std::string& strategy_name() const;
  // The strategy's options as logged: for a strategy given by name, its default options with
  // the given ones over them; for a strategy object, its OptionsJson().
  const StrategyParams& strategy_options() const;
  const OptimizerOptions& options() const;
  // The name this optimizer's pending points carry: WorkerOptions::id, or "host:pid" (set when
  // it has a storage; "" otherwise).
  const std::string& worker_id() const;
  // The model over unit-cube inputs, holding the accepted observations and the failures with
  // imputed rewards, in the order told; its outputs are rewards divided by reward_unit(). Past
  // OptimizerOptions::local_model.exact_until observations on a box, the model that predicts
  // is the local GP's (gp/local_gaussian_process.h): an exact GP on the local_model.size
  // observations most correlated with the incumbent, in the order told; t() still counts all.
  // The reference stays valid until the next call that changes the optimizer.
  const GaussianProcess& model() const;
  // The number of constraint signals each tell carries (Strategy::num_constraints()), and the
  // model of signal i (unit-cube inputs, the signal's units; std::out_of_range for a bad i).
  int num_constraints() const;
  const GaussianProcess& constraint_model(int i) const;
  // 2^k, the power of two the model's outputs are in (see Units above).
  double reward_unit() const;
  // 1 + the number of observations told to the model (accepted and imputed, whether or not
  // the local model holds them): the t of the next round's beta_t.
  int t() const;
  // Number of ask rounds so far (Ask and AskBatch count one each).
  long rounds() const;
  int num_accepted() const;
  int num_failed() const;
  // Every tell in order, accepted or not.
  std::vector<Observation> observations() const;
  // Pending points (action_dim x p) and their contexts (context_dim x p), in the order handed
  // out, expired leases included; and the same with their rounds, workers and leases.
  Eigen::MatrixXd pending_actions() const;
  Eigen::MatrixXd pending_contexts() const;
  std::vector<PendingPoint> pending_points() const;
  // The strategy's figure (beta_t, v_t, xi) of the last model-driven round, and its name; NaN
  // before the first such round.
  double figure() const;
  std::string figure_name() const;
  // gamma_t of the accepted observations (GaussianProcess::InformationGain).
  double information_gain() const;
  // The report of the last hyperparameter fit; has_fit_report() is false before the first.
  bool has_fit_report() const;
  HyperparameterFitReport last_fit_report() const;
  // A digest of everything that determines future behaviour (observations, pending points,
  // round counter, hyperparameters, bits of the model's weights). Two optimizers with equal
  // fingerprints make the same suggestions while the same pending points are active (leases
  // and worker names are left out). Used by tests to prove a rejected call changed nothing.
  std::string Fingerprint() const;

 private:
  // Resume and Open: a study continued with its own settings.
  explicit Optimizer(std::unique_ptr<internal::OptimizerImpl> impl);

  std::unique_ptr<internal::OptimizerImpl> impl_;
  mutable std::mutex mutex_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_PLUGIN_OPTIMIZER_H_
