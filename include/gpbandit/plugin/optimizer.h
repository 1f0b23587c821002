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
// Each Ask: (1) while fewer than initial_design_size observations/pending points exist, the next
// space-filling design point; otherwise (2) refit hyperparameters when the schedule says so,
// (3) hallucinate every pending point at the posterior mean in a scratch copy of the model
// (GP-BUCB, Desautels, Krause & Burdick 2014: the variance shrinks where work is already under
// way, the mean does not move), (4) BeginRound of the strategy with t = observations in the
// model (accepted, and failures with imputed rewards) + pending + 1, and (5) maximize its
// acquisition over the action box with the context held fixed (or take the argmax over the
// finite set; a safe strategy, Strategy::safe_seeds() non-empty, gets no design in (1), its
// seeds first and then its own choice, Strategy::ChooseSafe, in (5); see
// acquisition/safe_opt.h). AskBatch(q) repeats (3)-(5) q times, hallucinating each choice
// before the next, and returns q distinct points (a safe strategy's batch may repeat one rather
// than replace it by a point not checked safe). Every handed-out point is logged as pending
// before the call returns. On a finite set without contexts and without refits, the posterior
// over the candidates is kept by rank-one updates (O(N^2) per observation;
// OptimizerOptions::finite_set_rank_one_updates), otherwise predicted through the exact GP
// (O(N t^2) per round); both give the same posterior up to roundoff.
//
// Construction refuses (std::invalid_argument) what cannot work later: fit priors or bounds of
// the wrong size for the kernel, a kernel needing more inputs than the domain has, and a
// strategy that cannot run with the kernel on the domain (Strategy::CheckSupports: GP-TS on a
// box needs the kernel's random features); the message names the strategy and the kernel.
//
// Units: every action x and context z in this API is in ORIGINAL units; the model sees the
// unit-cube image (Domain::ToUnit) and, by default, standardized outputs. Rewards may be any
// finite doubles (docs/design.md, "Faults": huge or tiny rewards): with standardized outputs (the
// default), rewards reach the model divided by reward_unit() = 2^k, an exact power of two,
// k = 0 while the largest reward magnitude lies within [2^-256, 2^256] (about 1e-77 to 1e77)
// and otherwise a multiple of 128 that brings it within 2^128 of 1, so that the model's
// variances (scale^2 times the standardized ones) can neither overflow nor underflow. Then
// the model, and the strategy constants that carry reward units (EI's and PI's xi, IGP-UCB's
// and GP-TS's B and R), are in rewards / 2^k; what this API returns is in reward units.
//
// Drifting objectives: when the strategy declares a time model (acquisition/time_model.h, e.g.
// "tv-gp-ucb", "r-gp-ucb"), the model input is [action; context; round] (the round in rounds,
// not in the unit cube), the kernel is multiplied by the time kernel over the round
// (gp/time_kernels.h), every observation enters at its Observation::round, and each ask scores
// candidates at its own round. model() then has input dimension domain().input_dim() + 1.
//
// Objective sense: OptimizerOptions::sense = kMinimize negates every told value on the way in
// and every value returned on the way out (optimizer_options.h).
//
// Determinism: the random numbers of ask round r come from a generator seeded by (seed, r), and
// the model is only changed by Tell and by refits (whose results are logged), so replaying a log
// rebuilds the exact same state: a resumed run gives the same suggestions as an uninterrupted
// one. Results do not depend on the number of OpenMP threads (the maximizer guarantees it).
//
// Errors: bad input throws std::invalid_argument naming the field and the value(s); a rejected
// call leaves the optimizer exactly as it was (Fingerprint() is unchanged) and its study
// byte-identical: every check runs before anything is written, and the header of a new study
// is written with its first record (a refused first call creates no file). Failures of the
// study's storage throw std::runtime_error.
//
// Shared studies (docs/shared_studies.md): with a storage (OptimizerOptions::log_path or
// storage, or Open), several optimizers in several processes or on several machines may work
// on one study. Every Ask, AskBatch, Tell, TellMany, Release and ClearPending then runs under
// the study's exclusive lock: it first replays, in order, the records the others appended (with
// exactly the model operations they performed, so every worker holds a bit-identical model),
// then does its work and appends its records, which every worker sees from then on. Tell,
// TellMany, Release and ClearPending return once their records are durable (fsync, or a
// database commit); an ask's records (its pending points and a refit) are visible at once and
// on disk shortly after (storage/study_storage.h, Durability::kVisible): a crash of the machine
// or of the database server may forget the last of them, and then those points are simply not
// pending (their tells are recorded as usual) and the refit is redone identically. A refit an
// Ask triggers is recorded, so the other workers replay it instead of refitting, and the round
// counter is the study's (rounds from every worker), so no two rounds draw the same random
// numbers. Pending points carry leases (WorkerOptions): a worker
// that dies without telling stops steering the others when its lease ends. Replaying happens
// first under a shared lock (files) or without a lock (PostgreSQL), so that only the records
// appended meanwhile are replayed under the exclusive one. A call interrupted by a lost
// database connection is retried from the start once the database is back (up to
// WorkerOptions::reconnect_timeout_seconds); it never appears twice in the study.
// Queries (Best, observations, pending_points, ...) answer from the state as of this
// optimizer's last call; Sync() brings it up to date.
//
// Thread safety: every public member locks an internal mutex, so one Optimizer may be shared by
// several worker threads (each asks, evaluates, tells); calls are serialized.
#ifndef GPBANDIT_PLUGIN_OPTIMIZER_H_
#define GPBANDIT_PLUGIN_OPTIMIZER_H_

#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <limits>
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
#include "gpbandit/plugin/strategy_registry.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {

struct LogHeader;
struct LogRecord;
class FiniteSetModel;
class FiniteSetPosterior;

// What Best() recommends: the observed point with the highest posterior mean.
struct Recommendation {
  Eigen::VectorXd x;           // action, original units
  Eigen::VectorXd z;           // its context (empty without contexts)
  double posterior_mean = 0;   // mu_t at (x, z), original output units
  double observed_reward = 0;  // the reward told for it (the last one, if told several times)
};

// A point handed out by Ask or AskBatch and not yet told or released.
struct PendingPoint {
  Eigen::VectorXd x, z;  // action and context, original units
  long round = 0;        // the ask round that handed it out
  std::string worker;    // WorkerOptions::id of the worker that holds it ("" in older logs)
  // The end of its lease (WorkerOptions::pending_lease_seconds), seconds since the Unix epoch
  // on the study's clock; infinity when it never ends.
  double lease_until = std::numeric_limits<double>::infinity();
};

// One told observation as the optimizer keeps it (accepted or failed).
struct Observation {
  Eigen::VectorXd x, z;
  double y = 0;
  bool accepted = true;  // false: a non-finite reward (NonFiniteRewardPolicy kSkip, kImputeWorst)
  // The reward the model was told instead of a non-finite y (kImputeWorst); NaN if none.
  double imputed = std::numeric_limits<double>::quiet_NaN();
  // The measured constraint signals g_i (SafeOpt-MC); empty when none were told.
  Eigen::VectorXd constraints;
  // True if the observation is in the model (accepted, or failed with an imputed reward).
  bool in_model() const { return accepted || !std::isnan(imputed); }
  // Its round: the ask round of the pending point it answered (exactly equal x and z), else the
  // last ask round (0 before any). The time coordinate of a time model
  // (acquisition/time_model.h). Logged with the tell.
  long round = 0;
};

// The model's belief about the objective at one point (Predict), in the caller's units: the
// posterior mean and standard deviation of f (not of a noisy observation), after undoing the
// output standardization, the reward unit and the objective sense.
struct Prediction {
  double mean = 0;
  double stddev = 0;
};

// What one Ask or AskBatch did (the optimizer's analogue of Ceres' IterationSummary), delivered
// to the round callback (SetRoundCallback) and kept for last_round_report().
struct RoundReport {
  long round = 0;  // the 0-based ask round
  // RoundState::t of its first model-driven slot, 1 + the observations (with hallucinated
  // pending points) in the model; 0 when every slot was a design point. (R-GP-UCB counts its
  // beta_t from the start of its epoch instead.)
  int t = 0;
  // The strategy's figure (beta_t, v_t, xi) and its name; NaN when every slot was a design point.
  std::string figure_name;
  double figure = std::numeric_limits<double>::quiet_NaN();
  // Per point handed out, in order: the acquisition value the strategy gave it (the maximizer's
  // value on boxes, the score on finite sets; the strategy's units); NaN for a design point.
  std::vector<double> acquisition_values;
  int num_design_points = 0;           // points of the initial design among them
  bool fitted = false;                 // this round refitted the hyperparameters
  HyperparameterFitReport fit_report;  // that fit's report (when fitted)
  double seconds = 0;                  // wall-clock time of the call
};

class Optimizer {
 public:
  // domain: see domain.h. kernel: over the model input [action; context] in unit-cube
  // coordinates, of MinInputDim() <= domain.input_dim(); nullptr = the default: Matern-5/2 with
  // ARD over all inputs, and for contexts the product k_S (x) k_Z of a Matern-5/2 ARD over the
  // actions and one over the contexts (Krause & Ong 2011). strategy: a registered name
  // (StrategyRegistry::Default()); strategy_options: its parameters, over its default options
  // (the keys are listed in the strategy's header, e.g. acquisition/gp_ucb.h). Throws
  // std::invalid_argument for an unknown strategy, invalid options (naming the key or the
  // field) or a kernel that does not fit the domain; std::runtime_error when the study of
  // options.log_path or options.storage cannot be reached or read, or its header does not
  // match (then nothing is written).
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel, const std::string& strategy,
            const StrategyParams& strategy_options, const OptimizerOptions& options);
  // The strategy with its default options.
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel, const std::string& strategy,
            const OptimizerOptions& options)
      : Optimizer(domain, std::move(kernel), strategy, StrategyParams(), options) {}
  // A ready strategy object (e.g. a user's strategy). The log records strategy->name() and
  // strategy->OptionsJson(), and Resume rebuilds the strategy from them through
  // StrategyRegistry::Default(), which must then hold a factory under that name. Throws
  // std::invalid_argument for a null strategy or an OptionsJson() that is not a JSON object,
  // and as above.
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
            std::unique_ptr<Strategy> strategy, const OptimizerOptions& options);

  // Rebuilds an optimizer from a log alone: domain, strategy, strategy options and optimizer
  // options come from its header (log_path is set to `log_path`), then the log is replayed.
  // Logs of every format version resume (log_header.h). kernel as above (must be the one the
  // log was written with, if not the default; its description is checked against the header).
  // Throws std::runtime_error for a missing, empty or corrupt log, or a strategy name that
  // StrategyRegistry::Default() does not know.
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
  // The first constructor on a ready storage, which holds this study or none yet
  // (options.log_path and options.storage must be empty).
  Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel, const std::string& strategy,
            const StrategyParams& strategy_options, const OptimizerOptions& options,
            std::unique_ptr<StudyStorage> storage);

  ~Optimizer();
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // ---- Ask / tell ----------------------------------------------------------------------------
  // The next action (size action_dim). context: size context_dim (empty without contexts), in
  // the context bounds if any.
  Eigen::VectorXd Ask(const Eigen::VectorXd& context = Eigen::VectorXd());
  // q >= 1 distinct actions, one per column (action_dim x q), all for the same context. On a
  // finite set q <= N and the batch holds distinct candidates (a candidate pending from an
  // earlier call may be suggested again: noisy bandits re-sample).
  Eigen::MatrixXd AskBatch(int q, const Eigen::VectorXd& context = Eigen::VectorXd());
  // Reports reward y at action x (and context z). x must lie in the action box (finite sets:
  // in the candidates' bounding box). A matching pending point (exactly equal x and z) is
  // released. Non-finite y: see OptimizerOptions::non_finite_rewards. Logged and made durable
  // before the model is updated.
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y);
  void Tell(const Eigen::VectorXd& x, double y) { Tell(x, Eigen::VectorXd(), y); }
  // The same with the measured constraint signals g_1..g_m (SafeOpt-MC; m =
  // num_constraints()), each finite, in its own units. Required (m values) with a finite y when
  // the strategy models constraints; with a non-finite y they may be empty (the evaluation
  // failed before they were measured). Each g_i is modelled by its own GP over the same inputs
  // (a copy of the reward's kernel, its own hyperparameters and standardization, refitted
  // together with the reward's), logged in the tell record and replayed by Resume.
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
            const Eigen::VectorXd& constraints);
  // Warm start: tells every column (X: action_dim x n, Z: context_dim x n or empty, y: n).
  // All-or-nothing: every column is checked before the first is recorded.
  void TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z, const Eigen::VectorXd& y);
  // Forgets the pending points (e.g. evaluations that were abandoned) -- in a shared study,
  // every worker's. Logged.
  void ClearPending();
  // Gives back one pending point that will not be evaluated (the worker was interrupted): the
  // first pending point exactly equal to (x, context) stops counting at once, as if its lease
  // had ended. Logged. Returns false, writing nothing, when no pending point equals it (it was
  // told, released or cleared meanwhile). Throws std::invalid_argument for a point outside
  // the domain.
  bool Release(const Eigen::VectorXd& x, const Eigen::VectorXd& context = Eigen::VectorXd());
  // Replays what other workers appended to the study since this optimizer's last call (a no-op
  // without a storage).
  void Sync();
  // Creates the study in its storage now, with its header and no record (a new study is
  // otherwise created by its first record). Returns false when the study exists already (its
  // header matched this optimizer's at construction). Throws std::logic_error without a
  // storage, std::runtime_error when another worker created the study meanwhile with another
  // header.
  bool CreateStudy();

  // The observed point with the highest posterior mean among accepted observations (so a
  // skipped -inf never becomes the incumbent). Throws std::logic_error before any accepted
  // observation.
  Recommendation Best() const;
  // The recommendation at a given context (size context_dim; empty without contexts): the
  // action that maximizes the posterior mean mu_t(x, context) over the whole domain (at the
  // next round, for a time model), whether observed or not. Finite sets: exhaustive over the
  // candidates (the first of equal maxima). Boxes: the acquisition maximizer on the mean
  // (multi-start L-BFGS, deterministic for the seed and the state), started also from the
  // observed points. observed_reward is NaN unless the action equals an observed one at this
  // context (then its last told value). Before any observation the prior mean is flat and the
  // answer is the maximizer's first point. Throws std::invalid_argument for a bad context.
  Recommendation Best(const Eigen::VectorXd& context) const;
  // The posterior mean and standard deviation of f at action x and context (see Prediction),
  // at the next round for a time model. Throws std::invalid_argument for an x or a context that
  // the domain refuses (finite sets: x must lie in the candidates' bounding box).
  Prediction Predict(const Eigen::VectorXd& x,
                     const Eigen::VectorXd& context = Eigen::VectorXd()) const;

  // ---- Per-round reports ---------------------------------------------------------------------
  // Called after every Ask and AskBatch (after the points are recorded, outside the optimizer's
  // lock, so it may call the optimizer's queries), with the round's report. An empty function
  // removes it. Not logged: a resumed optimizer has none until it is set again.
  void SetRoundCallback(std::function<void(const RoundReport&)> callback);
  // The report of the last Ask or AskBatch of this optimizer (round -1 before the first).
  RoundReport last_round_report() const;

  // ---- State ---------------------------------------------------------------------------------
  const Domain& domain() const { return domain_; }
  const std::string& strategy_name() const { return strategy_name_; }
  // The strategy's options as logged: for a strategy given by name, its default options with
  // the given ones over them; for a strategy object, its OptionsJson().
  const StrategyParams& strategy_options() const { return strategy_options_; }
  const OptimizerOptions& options() const { return options_; }
  // The name this optimizer's pending points carry: WorkerOptions::id, or "host:pid" (set when
  // it has a storage; "" otherwise).
  const std::string& worker_id() const { return worker_id_; }
  // The model over unit-cube inputs, holding the accepted observations and the failures with
  // imputed rewards, in the order told (no pending points); its outputs are rewards divided by
  // reward_unit().
  const GaussianProcess& model() const { return *gp_; }
  // The number of constraint signals each tell carries (Strategy::num_constraints()).
  int num_constraints() const { return static_cast<int>(constraint_gps_.size()); }
  // The model of constraint signal i (0-based; unit-cube inputs, the signal's units). Throws
  // std::out_of_range for a bad i.
  const GaussianProcess& constraint_model(int i) const { return *constraint_gps_.at(i); }
  // 2^k, the power of two the model's outputs are in (see Units above): 1 unless the largest
  // reward magnitude is beyond 2^256 or below 2^-256.
  double reward_unit() const;
  // 1 + the number of observations in the model: the t of the next round's beta_t.
  int t() const;
  // Number of ask rounds so far (Ask and AskBatch count one each).
  long rounds() const;
  int num_accepted() const;
  int num_failed() const;
  // Every tell in order, accepted or not.
  std::vector<Observation> observations() const;
  // Pending points (action_dim x p) and their contexts (context_dim x p), in the order handed
  // out, expired leases included.
  Eigen::MatrixXd pending_actions() const;
  Eigen::MatrixXd pending_contexts() const;
  // The same with their rounds, workers and leases.
  std::vector<PendingPoint> pending_points() const;
  // The strategy's figure (beta_t, v_t, xi) of the last model-driven round, and its name;
  // NaN before the first such round.
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
  // and worker names, which depend on the wall clock and the process, are left out). Used by
  // tests to prove a rejected call changed nothing.
  std::string Fingerprint() const;

 private:
  // One Ask/AskBatch call and one model-driven round of it (defined in optimizer.cc).
  struct AskCall;
  struct ModelRound;

  void Initialize(std::unique_ptr<Kernel> kernel, std::unique_ptr<StudyStorage> storage);
  // ---- The time coordinate (acquisition/time_model.h) ----
  // The spatial kernel times the strategy's time kernel, or the kernel itself without one.
  std::unique_ptr<Kernel> WithTimeKernel(std::unique_ptr<Kernel> kernel) const;
  void CheckTimeFitBounds() const;
  bool has_time() const { return time_model_.kind != TimeModelKind::kNone; }
  // The model's input dimension: the domain's, plus one for the round under a time model.
  int ModelDim() const { return domain_.input_dim() + (has_time() ? 1 : 0); }
  // The model input of (x, z) observed at `round`: ToUnit(x, z), and the round under a time model.
  Eigen::VectorXd ModelInput(const Eigen::VectorXd& x, const Eigen::VectorXd& z, long round) const;
  // The round of an observation told now (Observation::round).
  long TellRound(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // The fit options of a refit: options_.fit, with the bounds on log(epsilon) when it is fitted.
  HyperparameterFitOptions RefitOptions(int observed) const;
  // A told value in the model's sense (rewards to maximize), and back.
  double Reward(double told) const {
    return options_.sense == ObjectiveSense::kMinimize ? -told : told;
  }
  Recommendation BestAtContext(const Eigen::VectorXd& z) const;
  void BuildDesign();
  void Replay(const LogRecord& record);
  // ---- The study (optimizer_study.cc) ----
  // Opens the storage the options name, if any.
  static std::unique_ptr<StudyStorage> StorageFromOptions(const OptimizerOptions& options);
  void AttachStorage(std::unique_ptr<StudyStorage> storage);
  // Throws std::runtime_error when the study's header does not match this optimizer.
  void CheckStudyHeader(const std::string& header_json) const;
  // Replays the records of the session this optimizer has not seen (checking the header first).
  void SyncFrom(StudySession& session);
  // Replays what is committed so far without the exclusive lock (a shared one for files).
  void ReadAhead();
  // Runs one mutating call: under the study's exclusive lock, after SyncFrom, `stage` does the
  // call's work, stages its records (Stage) and returns what to apply to this optimizer once
  // they are committed (as durably as asked). Without a storage: stage, then apply. Retries
  // after StorageInterrupted; a failed attempt restores the model of a refit it made
  // (RestoreFit).
  void InStudy(const std::function<std::function<void()>()>& stage,
               Durability durability = Durability::kDurable);
  void AttemptInStudy(const std::function<std::function<void()>()>& stage, Durability durability);
  // Appends a record to the current call's session (none without a storage).
  void Stage(const std::string& record_json);
  // Whether a pending point's lease lasts beyond the current call's clock.
  bool Active(const PendingPoint& p) const { return p.lease_until > call_now_; }
  // A copy of the model and fit state before a refit, restored if the call then fails.
  void SaveFit();
  void RestoreFit();
  LogHeader MakeHeader() const;
  Eigen::VectorXd UnitUpper() const;
  int InitialDesignSize() const;
  Rng RoundRng(long round, int stream) const;
  void CheckContextArg(const Eigen::VectorXd& z, const char* field) const;
  Eigen::MatrixXd AskLocked(int q, const Eigen::VectorXd& z);
  void CheckAsk(int q, const Eigen::VectorXd& z) const;
  AskCall TakeDesignPoints(int q, const Eigen::VectorXd& z) const;
  void ChooseByModel(AskCall* call);
  // The model with the call's pending and design points hallucinated (nullptr: none to add).
  // With finite_copy non-null, a copy of the rank-one posterior gets the same observations
  // (left null when the model is not copied).
  std::unique_ptr<GaussianProcess> HallucinatedCopy(
      const AskCall& call, std::unique_ptr<FiniteSetPosterior>* finite_copy) const;
  ModelRound PrepareModelRound(const AskCall& call) const;
  // finite: the rank-one posterior mirroring scratch (finite_set_model.h), or nullptr to predict
  // through scratch. Each sets *value to the acquisition value of the point it returns.
  Eigen::VectorXd ChooseCandidate(const GaussianProcess& scratch, const FiniteSetPosterior* finite,
                                  const ModelRound& m, Rng& rng, AskCall* call,
                                  double* value) const;
  Eigen::VectorXd ChooseInBox(const GaussianProcess& scratch, const ModelRound& m, int slot,
                              Rng& rng, const AskCall& call, double* value) const;
  // The box the maximizer searches (model inputs): the action cube, the context and the round
  // held fixed.
  void SearchBox(const Eigen::VectorXd& z, long round, Eigen::VectorXd* lower,
                 Eigen::VectorXd* upper) const;
  // Every candidate's model input at context z and `round` (ModelDim() x N).
  Eigen::MatrixXd CandidateInputs(const Eigen::VectorXd& z, long round) const;
  // Unit-cube inputs (input_dim x n) with the round appended under a time model.
  Eigen::MatrixXd WithRound(const Eigen::MatrixXd& unit_inputs, long round) const;
  // Stages the call's pending records; returns what adds them to this optimizer.
  std::function<void()> RecordPending(const AskCall& call);
  void MaybeRefit(long round);
  void CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                 const std::string& x_field, const std::string& z_field,
                 const std::string& y_field) const;
  void CheckConstraints(double y, const Eigen::VectorXd& constraints) const;
  // Stages a tell record; returns what applies it to this optimizer.
  std::function<void()> StageTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                                  double imputed, long round,
                                  const Eigen::VectorXd& constraints = Eigen::VectorXd());
  void ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y, bool accepted,
                 long round, const Eigen::VectorXd& constraints);
  // ---- Safe strategies (ChooseSafely in optimizer.cc, the rest in optimizer_safe.cc) ----
  bool safe_strategy() const { return unit_seeds_.cols() > 0; }
  // Checks the strategy's safe seeds against the domain and the options; sets unit_seeds_.
  void InitializeSafety(const Kernel& kernel);
  // The strategy's choice for one slot (unit-cube point) through Strategy::ChooseSafe.
  Eigen::VectorXd ChooseSafely(const GaussianProcess& scratch, const ModelRound& m, Rng& rng,
                               AskCall* call) const;
  // The fit options of a safe strategy's refits: unless the caller gave explicit bounds, no fit
  // may be more optimistic than the kernel given: signal variances stay >= their initial
  // values and lengthscales <= theirs (a longer lengthscale or a smaller amplitude would
  // extend the safe set on the strength of the fit alone). Other strategies: unchanged.
  HyperparameterFitOptions CautiousFitOptions(HyperparameterFitOptions fit) const;
  // Refits the constraint models (with the reward's); their log-params and noise variances.
  void RefitConstraints(const HyperparameterFitOptions& fit, long round,
                        std::vector<Eigen::VectorXd>* log_params,
                        std::vector<double>* noise_variances);
  // The index of the first pending point equal to (x, z), or -1.
  int PendingIndex(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // Removes the first pending point equal to (x, z); false if there is none.
  bool RemovePending(const Eigen::VectorXd& x, const Eigen::VectorXd& z);
  // The reward a failure told now enters the model with (kImputeWorst), or NaN; the same after
  // `accepted` accepted rewards whose worst is `worst`.
  double ImputedReward() const;
  double ImputedReward(double worst, int accepted) const;
  // Adds a reward (original units) at unit-cube input u to the model, first moving the model to
  // the reward unit that y requires.
  void AddToModel(const Eigen::VectorXd& u, double y);

  mutable std::mutex mutex_;
  Domain domain_;
  std::string strategy_name_;
  StrategyParams strategy_options_;
  OptimizerOptions options_;
  std::unique_ptr<Strategy> strategy_;
  TimeModel time_model_;  // strategy_->time_model(), read once
  bool default_kernel_ = true;
  Eigen::VectorXd initial_kernel_log_params_;
  std::unique_ptr<GaussianProcess> gp_;
  // The rank-one posterior over the candidates (OptimizerOptions::finite_set_rank_one_updates);
  // nullptr where it does not apply.
  std::unique_ptr<FiniteSetModel> finite_model_;
  // SafeOpt-MC: one model per constraint signal, and the safe seeds (unit cube, actions only).
  std::vector<std::unique_ptr<GaussianProcess>> constraint_gps_;
  Eigen::MatrixXd unit_seeds_;
  std::unique_ptr<StudyStorage> storage_;
  bool study_exists_ = false;        // the storage holds this study's header
  long long synced_ = 0;             // the last record of the study replayed
  std::string worker_id_;            // WorkerOptions::id, or host:pid
  StudySession* session_ = nullptr;  // the current call's (InStudy)
  bool header_staged_ = false;       // the current call creates the study
  double call_now_ = 0;              // the current call's clock (study seconds)
  // What a refit changes, kept while the call that refitted is not committed (SaveFit).
  struct FitState {
    std::unique_ptr<GaussianProcess> gp;
    std::vector<GaussianProcess> constraint_gps;
    int last_fit_observations = -1;
    bool has_fit_report = false;
    HyperparameterFitReport last_fit_report;
  };
  std::unique_ptr<FitState> saved_fit_;
  std::vector<Observation> observations_;
  std::vector<PendingPoint> pending_;
  long rounds_ = 0;
  long design_handed_out_ = 0;
  int num_accepted_ = 0;
  int reward_exponent_ = 0;  // the model's outputs are rewards * 2^-reward_exponent_
  double largest_reward_magnitude_ = 0.0;
  double worst_reward_ = std::numeric_limits<double>::infinity();  // lowest accepted
  int last_fit_observations_ = -1;
  double figure_;
  std::string figure_name_;
  bool has_fit_report_ = false;
  HyperparameterFitReport last_fit_report_;
  bool refitted_in_call_ = false;  // MaybeRefit fitted during the current ask
  RoundReport last_round_report_;
  std::function<void(const RoundReport&)> round_callback_;
  Eigen::MatrixXd design_;  // action_dim x n unit-cube design, or 1 x n candidate indices
};

}  // namespace gpbandit

#endif  // GPBANDIT_PLUGIN_OPTIMIZER_H_
