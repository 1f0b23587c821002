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
// finite set). AskBatch(q) repeats (3)-(5) q times,
// hallucinating each choice before the next, and returns q distinct points. Every handed-out
// point is logged as pending before the call returns.
//
// Units: every action x and context z in this API is in ORIGINAL units; the model sees the
// unit-cube image (Domain::ToUnit) and, by default, standardized outputs. Rewards may be any
// finite doubles (RELIABILITY.md, "huge or tiny rewards"): with standardized outputs (the
// default), rewards reach the model divided by reward_unit() = 2^k, an exact power of two,
// k = 0 while the largest reward magnitude lies within [2^-256, 2^256] (about 1e-77 to 1e77)
// and otherwise a multiple of 128 that brings it within 2^128 of 1, so that the model's
// variances (scale^2 times the standardized ones) can neither overflow nor underflow. Then
// the model, and the strategy constants that carry reward units (EI's and PI's xi, IGP-UCB's
// and GP-TS's B and R), are in rewards / 2^k; what this API returns is in reward units.
//
// Determinism: the random numbers of ask round r come from a generator seeded by (seed, r), and
// the model is only changed by Tell and by refits (whose results are logged), so replaying a log
// rebuilds the exact same state: a resumed run gives the same suggestions as an uninterrupted
// one. Results do not depend on the number of OpenMP threads (the maximizer guarantees it).
//
// Errors: bad input throws std::invalid_argument naming the field and the value(s); a rejected
// call leaves the optimizer exactly as it was (Fingerprint() is unchanged) and the log file
// byte-identical: every check runs before anything is written, and the header of a new log is
// written with its first record (a refused first call creates no file). I/O failures of the
// log throw std::runtime_error.
//
// Thread safety: every public member locks an internal mutex, so one Optimizer may be shared by
// several worker threads (each asks, evaluates, tells); calls are serialized.
#ifndef GPBANDIT_PLUGIN_OPTIMIZER_H_
#define GPBANDIT_PLUGIN_OPTIMIZER_H_

#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/gp/kernel.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/plugin/domain.h"
#include "gpbandit/plugin/optimizer_options.h"
#include "gpbandit/plugin/strategy_registry.h"

namespace gpbandit {

class ObservationLogWriter;
struct LogHeader;
struct LogRecord;

// What Best() recommends: the observed point with the highest posterior mean.
struct Recommendation {
  Eigen::VectorXd x;           // action, original units
  Eigen::VectorXd z;           // its context (empty without contexts)
  double posterior_mean = 0;   // mu_t at (x, z), original output units
  double observed_reward = 0;  // the reward told for it (the last one, if told several times)
};

// One told observation as the optimizer keeps it (accepted or failed).
struct Observation {
  Eigen::VectorXd x, z;
  double y = 0;
  bool accepted = true;  // false: a non-finite reward (NonFiniteRewardPolicy kSkip, kImputeWorst)
  // The reward the model was told instead of a non-finite y (kImputeWorst); NaN if none.
  double imputed = std::numeric_limits<double>::quiet_NaN();
  // True if the observation is in the model (accepted, or failed with an imputed reward).
  bool in_model() const { return accepted || !std::isnan(imputed); }
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
  // field) or a kernel that does not fit the domain; std::runtime_error when options.log_path
  // holds a log that cannot be read or whose header does not match (then nothing is written).
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
  // released. Non-finite y: see OptimizerOptions::non_finite_rewards. Logged and fsynced
  // before the model is updated.
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y);
  void Tell(const Eigen::VectorXd& x, double y) { Tell(x, Eigen::VectorXd(), y); }
  // Warm start: tells every column (X: action_dim x n, Z: context_dim x n or empty, y: n).
  // All-or-nothing: every column is checked before the first is recorded.
  void TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z, const Eigen::VectorXd& y);
  // Forgets the pending points (e.g. evaluations that were abandoned). Logged.
  void ClearPending();

  // The observed point with the highest posterior mean among accepted observations (so a
  // skipped -inf never becomes the incumbent). Throws std::logic_error before any accepted
  // observation.
  Recommendation Best() const;

  // ---- State ---------------------------------------------------------------------------------
  const Domain& domain() const { return domain_; }
  const std::string& strategy_name() const { return strategy_name_; }
  // The strategy's options as logged: for a strategy given by name, its default options with
  // the given ones over them; for a strategy object, its OptionsJson().
  const StrategyParams& strategy_options() const { return strategy_options_; }
  const OptimizerOptions& options() const { return options_; }
  // The model over unit-cube inputs, holding the accepted observations and the failures with
  // imputed rewards, in the order told (no pending points); its outputs are rewards divided by
  // reward_unit().
  const GaussianProcess& model() const { return *gp_; }
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
  // Pending points (action_dim x p) and their contexts (context_dim x p).
  Eigen::MatrixXd pending_actions() const;
  Eigen::MatrixXd pending_contexts() const;
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
  // fingerprints make the same suggestions. Used by tests to prove a rejected call changed
  // nothing.
  std::string Fingerprint() const;

 private:
  struct Pending {
    Eigen::VectorXd x, z;
  };
  // One Ask/AskBatch call and one model-driven round of it (defined in optimizer.cc).
  struct AskCall;
  struct ModelRound;

  void Initialize(std::unique_ptr<Kernel> kernel);
  void BuildDesign();
  void OpenLog();
  void Replay(const LogRecord& record);
  LogHeader MakeHeader() const;
  Eigen::VectorXd UnitUpper() const;
  int InitialDesignSize() const;
  Rng RoundRng(long round, int stream) const;
  void CheckContextArg(const Eigen::VectorXd& z, const char* field) const;
  Eigen::MatrixXd AskLocked(int q, const Eigen::VectorXd& z);
  void CheckAsk(int q, const Eigen::VectorXd& z) const;
  AskCall TakeDesignPoints(int q, const Eigen::VectorXd& z) const;
  void ChooseByModel(AskCall* call);
  std::unique_ptr<GaussianProcess> HallucinatedCopy(const AskCall& call) const;
  ModelRound PrepareModelRound(const AskCall& call) const;
  Eigen::VectorXd ChooseCandidate(const GaussianProcess& scratch, const ModelRound& m, Rng& rng,
                                  AskCall* call) const;
  Eigen::VectorXd ChooseInBox(const GaussianProcess& scratch, const ModelRound& m, int slot,
                              Rng& rng, const AskCall& call) const;
  void RecordPending(const AskCall& call);
  void MaybeRefit(long round);
  void CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                 const std::string& x_field, const std::string& z_field,
                 const std::string& y_field) const;
  void TellLocked(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y);
  void ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y, bool accepted);
  // The reward a failure told now enters the model with (kImputeWorst), or NaN.
  double ImputedReward() const;
  // Adds a reward (original units) at unit-cube input u to the model, first moving the model to
  // the reward unit that y requires.
  void AddToModel(const Eigen::VectorXd& u, double y);
  // The log, its header written on first use; nullptr without a log.
  ObservationLogWriter* Log();

  mutable std::mutex mutex_;
  Domain domain_;
  std::string strategy_name_;
  StrategyParams strategy_options_;
  OptimizerOptions options_;
  std::unique_ptr<Strategy> strategy_;
  bool default_kernel_ = true;
  Eigen::VectorXd initial_kernel_log_params_;
  std::unique_ptr<GaussianProcess> gp_;
  std::unique_ptr<ObservationLogWriter> log_;
  // A new log's bytes to keep when it is opened on first use (drops a torn line).
  long long log_intact_bytes_ = -1;
  std::vector<Observation> observations_;
  std::vector<Pending> pending_;
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
  Eigen::MatrixXd design_;  // action_dim x n unit-cube design, or 1 x n candidate indices
};

}  // namespace gpbandit

#endif  // GPBANDIT_PLUGIN_OPTIMIZER_H_
