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
//   gpbandit::ParameterSpace space({Parameter::Real("kp", 0.1, 100, ParameterScale::kLog),
//                                   Parameter::Integer("taps", 1, 12),
//                                   Parameter::Categorical("mode", {"pid", "lead-lag"})});
//   gpbandit::Optimizer opt(gpbandit::Domain::Space(space), nullptr, "ei", options);
//   gpbandit::NamedValues p = opt.AskNamed();   // {"kp": 3.2, "taps": 4, "mode": "pid"}
//   opt.TellNamed(p, reward(p));
//
// Each Ask (docs/design.md, "One ask/tell round"): the space-filling design while fewer than
// initial_design_size points exist (a safe strategy's seeds instead); then a refit when due,
// every pending point hallucinated at the posterior mean in a scratch model (GP-BUCB, Desautels,
// Krause & Burdick 2014), BeginRound with t = model rows + pending + 1, and the acquisition
// maximized over the action box at the fixed context, or its argmax over the finite set (a safe
// strategy's Strategy::ChooseSafe). AskBatch(q) repeats that q times, hallucinating each choice.
// Every handed-out point is logged as pending before the call returns.
//
// Units: actions x and contexts z are in ORIGINAL units here; the model sees their unit-cube
// image (Domain::ToUnit) and, by default, standardized outputs divided by reward_unit() = 2^k
// (k = 0 unless the largest reward magnitude leaves [2^-256, 2^256], then a multiple of 128),
// so that no variance can overflow; strategy constants in reward units (EI's xi, IGP-UCB's B and
// R) are then in rewards / 2^k. OptimizerOptions::sense = kMinimize negates told values on the
// way in and returned ones on the way out. A strategy with a time model (acquisition/
// time_model.h) gets the input [action; context; round] and the kernel times a time kernel.
//
// Determinism: ask round r draws from a generator seeded by (seed, r), and the model changes
// only by Tell and by logged refits, so replaying a log rebuilds the exact state; results do not
// depend on the number of OpenMP threads.
//
// Errors: construction refuses what cannot work later (Strategy::CheckSupports, priors or
// bounds of the wrong size, a kernel needing more inputs than the domain has). Bad input throws
// std::invalid_argument naming the field and value; a rejected call leaves the optimizer
// (Fingerprint()) and its study byte-identical. Storage failures throw std::runtime_error.
//
// Shared studies (docs/shared_studies.md): with a storage, optimizers in several processes or
// machines work on one study; each call first replays the others' new records in order (every
// worker holds a bit-identical model). Tell, TellMany, Release and ClearPending work under the
// study's exclusive lock and return once their records are durable. An ask is chosen outside
// the lock on this worker's replica and takes the lock only to record its points, after checking
// what others recorded meanwhile (WorkerOptions::asks_outside_lock); a refit due is made outside
// the lock by the worker that claimed it and replayed by the others. An ask's records are
// visible at once and durable shortly after. Pending points carry leases, and a worker holding
// the lock beyond its lock lease loses it (WorkerOptions, StorageOptions). Queries answer from
// this optimizer's last call; Sync() updates it.
//
// Thread safety: any member may be called from any thread at any time. Every member but the
// settings fixed at construction (domain(), strategy_name(), strategy_options(), options(),
// worker_id(), which never change) locks an internal mutex, so calls are serialized, and every
// query returns a value or a copy taken under that lock, never a reference into state a later
// call replaces (a Sync that replays a shared study again from its start rebuilds every model;
// StudyRewound, storage/study_storage.h).
#ifndef GPBANDIT_OPTIMIZER_OPTIMIZER_H_
#define GPBANDIT_OPTIMIZER_OPTIMIZER_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/kernel/kernel.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/space/parameter_space.h"
#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/optimizer_options.h"
#include "gpbandit/study/optimizer_types.h"

namespace gpbandit {

namespace internal {
class OptimizerImpl;
}  // namespace internal

class Optimizer {
 public:
  // domain: see domain.h. kernel: over the model input [action; context] in unit-cube
  // coordinates, of MinInputDim() <= domain.input_dim(); nullptr = Matern-5/2 with ARD, for
  // contexts the product k_S (x) k_Z of one over the actions and one over the contexts (Krause &
  // Ong 2011). strategy: a registered name (StrategyRegistry::Default()); strategy_options over
  // its defaults (keys in its header, e.g. acquisition/gp_ucb.h). Throws std::invalid_argument
  // for an unknown strategy, invalid options or a kernel that does not fit the domain;
  // std::runtime_error when the study of options.log_path or options.storage cannot be read or
  // written (checked here), is not a study, or its header differs from these settings (naming
  // the first field; only num_threads and sync_log may differ). Nothing is written then. An
  // existing study is joined; Resume and Open join one with its own settings.
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
  // ---- Previews: the next ask without making it ----------------------------------------------
  // The q points the next AskBatch(q, context) would hand out if it were called now, and (when
  // report is not null) that round's report, with nothing recorded or changed: no pending
  // point, trial number or round is taken, no lock, no record written, and Fingerprint() is
  // the same afterwards (a dashboard shows where the study looks next while workers run it).
  // Others' new records are read first, as an ask reads them. A refit the ask would make (the
  // one this worker owes, or that a worker joining the study now would owe, e.g. one claimed
  // by a worker process that is gone: docs/shared_studies.md, "refits") is made on the way and
  // undone, so that on a study driven one process per ask (`gpbandit suggest`) the preview is
  // the next process's suggestion; while another live worker holds the claim, its own next ask
  // refits first and may differ. Costs what that ask costs. Throws what AskBatch throws for a
  // bad q or context, or a safe strategy with no usable seed.
  Eigen::MatrixXd PreviewAskBatch(int q, const Eigen::VectorXd& context = Eigen::VectorXd(),
                                  RoundReport* report = nullptr);
  Eigen::VectorXd PreviewAsk(const Eigen::VectorXd& context = Eigen::VectorXd(),
                             RoundReport* report = nullptr);

  // ---- Trials: handles for the points handed out ---------------------------------------------
  // Ask and AskBatch that also give each point's trial number (PendingPoint::trial), which
  // TellTrial and ReleaseTrial take instead of the exact point (as Optuna's trials): the point
  // evaluated may differ from the one suggested (rounded, clipped) and still release it.
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
  // Gives back the first pending point exactly equal to (x, context), logged; false, writing
  // nothing, when none is. Throws std::invalid_argument for a point outside the domain.
  bool Release(const Eigen::VectorXd& x, const Eigen::VectorXd& context = Eigen::VectorXd());
  // Replays what other workers appended since this optimizer's last call (no-op alone).
  void Sync();
  // Creates the study in its storage now, with its header and no record. Returns false when it
  // exists already. Throws std::logic_error without a storage, std::runtime_error when another
  // worker created it meanwhile with another header.
  bool CreateStudy();

  // "best" is the recommendation, in C++, Python and on the command line alike: the observed
  // point with the highest posterior mean among accepted observations (a denoised incumbent);
  // under the local model of long studies, among those inside its neighbourhoods. Under a safe
  // strategy (Strategy::safety_signals()), never a point outside the safe set: the best such
  // mean among evaluated points measured safe whose lower bounds mu_i - beta sigma_i clear every
  // threshold (or declared seeds); with safe-opt's recommendation = "safe-set", Best(context)'s.
  // Throws std::logic_error before any accepted observation, or when no point qualifies.
  Recommendation Best() const;
  // At a context (where, in general, nothing was observed): the maximizer of the posterior mean
  // mu_t(x, context) over the action domain at the next round, observed or not: exhaustive on
  // finite sets (the first of equal maxima); on boxes the maximizer started also from the
  // observed points (under the local model, within its trust boxes). observed_reward is NaN
  // unless observed at this context. An empty context without contexts gives Best(). Under a
  // safe strategy: as Best() at this context, or with recommendation = "safe-set" the mean's
  // maximizer over the models' safe set. Throws std::invalid_argument for a bad context.
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

  // ---- Safe strategies -----------------------------------------------------------------------
  // min over the safety signals of (mu_i - beta sigma_i - h_i) / s_i at (x, context), s_i the
  // prior standard deviation of signal i's model, beta the next round's: >= 0 exactly inside
  // the safe set (seeds aside), the same in any units. NaN without declared safety signals.
  // Throws std::invalid_argument for a bad x or context.
  double SafetyMargin(const Eigen::VectorXd& x,
                      const Eigen::VectorXd& context = Eigen::VectorXd()) const;
  // The posterior mean and standard deviation of constraint signal i (0-based) at (x, context),
  // in its told units. Throws std::out_of_range for a bad i, std::invalid_argument for a bad x.
  Prediction PredictConstraint(int i, const Eigen::VectorXd& x,
                               const Eigen::VectorXd& context = Eigen::VectorXd()) const;

  // ---- Several outcomes (OptimizerOptions::outcomes, study/outcome_options.h) ---------------
  // Reports every outcome of an evaluation at action x (and context): `outcomes` holds
  // options().outcomes.num_outcomes() values in tell order (the objectives, then the
  // constraints), each in the caller's units. A non-finite value in any of them makes the
  // evaluation a failure, which follows OptimizerOptions::non_finite_rewards (thrown, skipped or
  // imputed in objective 0; the other outcomes' models are not told of it). Otherwise as Tell
  // (logged and durable before the models are updated; Observation::y is objective 0 and
  // Observation::constraints the rest in tell order). Throws std::invalid_argument naming the
  // size for a wrong number of values; nothing is recorded then. A study without declared
  // outcomes takes one value, its reward.
  void TellOutcomes(const Eigen::VectorXd& x, const Eigen::VectorXd& context,
                    const Eigen::VectorXd& outcomes);
  // The same for trial `trial` (as TellTrial).
  void TellTrialOutcomes(long trial, const Eigen::VectorXd& x, const Eigen::VectorXd& context,
                         const Eigen::VectorXd& outcomes);
  // The values of `named` in tell order. Throws std::invalid_argument naming a missing or unknown
  // outcome.
  Eigen::VectorXd OutcomeVector(const OutcomeValues& named) const;
  // Named points and named outcomes (a domain built from a ParameterSpace).
  void TellOutcomesNamed(const NamedValues& x, const NamedValues& context,
                         const OutcomeValues& outcomes);
  // The Pareto front: the observed points whose posterior probability of feasibility is at least
  // outcomes.feasibility_confidence and whose objectives' posterior means are not dominated by
  // another such point's (docs/outcomes.md), in the order told; a point told several times
  // appears once (its last tell). Empty before any such point. One objective: the Best() point.
  std::vector<ParetoPoint> ParetoFront() const;
  // The hypervolume of the front's observed objective values with respect to ReferencePoint()
  // (0 for an empty front), in the product of the objectives' units.
  double Hypervolume() const;
  // outcomes.reference_point if given, else the one inferred from the observed front (see
  // outcome_options.h); objectives' units. Empty before any feasible observation when inferred.
  Eigen::VectorXd ReferencePoint() const;
  // The posterior probability that (x, context) satisfies every declared constraint (1 without
  // constraints), from the constraints' independent GPs: prod_j Phi(-m_j / s_j) for c_j <= 0.
  double ProbabilityOfFeasibility(const Eigen::VectorXd& x,
                                  const Eigen::VectorXd& context = Eigen::VectorXd()) const;
  // The posterior of outcome i (tell order; 0 is Predict's) at (x, context) in the caller's
  // units. Throws std::out_of_range for a bad i.
  Prediction PredictOutcome(int i, const Eigen::VectorXd& x,
                            const Eigen::VectorXd& context = Eigen::VectorXd()) const;

  // ---- Fidelities (OptimizerOptions::fidelities, study/fidelity_options.h) ------------------
  // A study with fidelities models (x, fidelity) with one GP; every strategy chooses its point
  // at the target (fidelity F - 1), and the study's fidelity rule then picks where to evaluate
  // it from the joint posterior there (acquisition/fidelity_rule.h). The initial design is
  // evaluated at the target: its points fit the target's own hyperparameters, and a simulator
  // only helps once the model knows how it relates to the target. Ask and AskBatch choose the
  // fidelity the same way (PendingPoint::fidelity, RoundReport::fidelities); Best, Best(context)
  // and Predict answer at the target (Best among the observations made at the target). Tell,
  // TellTrial and TellMany without a fidelity take the fidelity of the pending point they
  // release, else the target.
  //
  // The next action (as Ask(context, &trial)), the fidelity to evaluate it at, its name and
  // trial number. Throws std::logic_error in a study without fidelities.
  FidelityPoint AskFidelity(const Eigen::VectorXd& context = Eigen::VectorXd());
  // Reports reward y at action x (and context) evaluated at fidelity `fidelity`: its index
  // (0 the cheapest) or its name. Otherwise as Tell (a matching pending point is released,
  // whatever its fidelity). Throws std::invalid_argument naming the value for an index outside
  // [0, F), an unknown name, or any fidelity in a study without fidelities; nothing is
  // recorded then.
  void TellFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
                    int fidelity);
  void TellFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
                    const std::string& fidelity);
  // The same for trial `trial` (as TellTrial).
  void TellTrialFidelity(long trial, const Eigen::VectorXd& x, const Eigen::VectorXd& context,
                         double y, int fidelity);
  // The posterior of f at fidelity `fidelity` (Predict's is the target's). Throws
  // std::invalid_argument as TellFidelity does.
  Prediction PredictFidelity(const Eigen::VectorXd& x, const Eigen::VectorXd& context,
                             int fidelity) const;
  // The index of the fidelity `name`; std::invalid_argument naming it when the study has none
  // of that name.
  int FidelityIndex(const std::string& name) const;
  // The cost of every tell so far (accepted or failed), each at its fidelity's cost, in the
  // costs' unit; read from the study's records, so a resumed study counts what it spent before.
  // Without fidelities, every tell costs 1.
  double CostSpent() const;

  // ---- Per-round reports ---------------------------------------------------------------------
  // Called after every Ask and AskBatch (outside the optimizer's lock, so it may query the
  // optimizer) with the round's report; an empty function removes it. Not logged.
  void SetRoundCallback(std::function<void(const RoundReport&)> callback);
  // The report of the last Ask or AskBatch of this optimizer (round -1 before the first).
  RoundReport last_round_report() const;

  // ---- State ---------------------------------------------------------------------------------
  // The settings fixed at construction: read without the lock, valid as long as the optimizer.
  const Domain& domain() const;
  const std::string& strategy_name() const;
  // The strategy's options as logged: for a strategy given by name, its default options with
  // the given ones over them; for a strategy object, its OptionsJson().
  const StrategyParams& strategy_options() const;
  const OptimizerOptions& options() const;
  // The name this optimizer's pending points carry: WorkerOptions::id, or "host:pid" (set when
  // it has a storage; "" otherwise).
  const std::string& worker_id() const;
  // A copy of the model over unit-cube inputs (accepted observations and imputed failures, in
  // the order told; outputs are rewards / reward_unit()), taken under the lock: O(t^2) for t
  // observations, and unaffected by later calls. Past local_model.exact_until observations on a
  // box, the local GP's (gp/local_gaussian_process.h). On a finite set kept by rank-one updates
  // there is no GP: throws std::logic_error. Under a time model with restarts (R-GP-UCB,
  // acquisition/r_gp_ucb.h) the copy's kernel reads the optimizer's list of epoch starts, which
  // a later tell may extend: evaluate such a copy only while no call runs on the optimizer.
  GaussianProcess model() const;
  // The number of constraint signals per tell, and a copy of the model of signal i (unit-cube
  // inputs, in its model's units: model/signal_model.h; std::out_of_range for a bad i), as
  // model().
  int num_constraints() const;
  GaussianProcess constraint_model(int i) const;
  // 2^k, the power of two the model's outputs are in (see Units above).
  double reward_unit() const;
  // 1 + the observations told to the model (accepted and imputed): the next round's t.
  int t() const;
  // Number of ask rounds so far (Ask and AskBatch count one each).
  long rounds() const;
  int num_accepted() const;
  int num_failed() const;
  // Every tell in order, accepted or not.
  std::vector<Observation> observations() const;
  // Pending points (action_dim x p), their contexts, and all their fields, in the order handed
  // out, expired leases included.
  Eigen::MatrixXd pending_actions() const;
  Eigen::MatrixXd pending_contexts() const;
  std::vector<PendingPoint> pending_points() const;
  // The strategy's figure (beta_t, v_t, xi) of the last model-driven round, and its name; NaN
  // before the first such round.
  double figure() const;
  std::string figure_name() const;
  // gamma_t of the accepted observations (GaussianProcess::InformationGain; on a finite set kept
  // by rank-one updates, the same sum from the rank-one posterior).
  double information_gain() const;
  // The report of the last hyperparameter fit; has_fit_report() is false before the first.
  bool has_fit_report() const;
  HyperparameterFitReport last_fit_report() const;
  // A digest of everything that determines future behaviour (observations, pending points,
  // rounds, hyperparameters, model bits; not leases or worker names): equal fingerprints make
  // the same suggestions. Tests use it to prove a rejected call changed nothing.
  std::string Fingerprint() const;

 private:
  // Resume and Open: a study continued with its own settings.
  explicit Optimizer(std::unique_ptr<internal::OptimizerImpl> impl);

  std::unique_ptr<internal::OptimizerImpl> impl_;
  mutable std::mutex mutex_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_OPTIMIZER_H_
