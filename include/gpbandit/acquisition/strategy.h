// The interface every acquisition strategy implements (GP-UCB, CGP-UCB, IGP-UCB, GP-TS, EI, PI,
// mean, variance, and user strategies registered at run time).
//
// A strategy is a small formula over a posterior (as in BoTorch): it does not know how its
// argmax is found (finite_argmax.h, box_maximizer.h) nor how the model was fitted
// (hyperparams/). Each round the optimizer calls BeginRound(state) once, then asks for scores on
// a finite candidate set or for a continuous acquisition function that the multi-start L-BFGS
// maximizer (box_maximizer.h) climbs.
//
// All values are in the model's original output units. Maximization throughout.
//
// Thread safety: BeginRound needs exclusive access; after it, the const members may be called
// concurrently, and a ContinuousAcquisition's Evaluate and EvaluateMany must be callable from
// several threads at once (the maximizer runs its starts under OpenMP). Determinism: a
// strategy's scores depend only on its options, the round state, the posterior and the draws
// from the rng it is handed, so a seed fixes the suggestions.
#ifndef GPBANDIT_ACQUISITION_STRATEGY_H_
#define GPBANDIT_ACQUISITION_STRATEGY_H_

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/safety_signal.h"
#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/acquisition/time_model.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {

// What a strategy may use to set its per-round parameters.
struct RoundState {
  // The round being chosen, 1-based: the t of beta_t. Never 0 (limbo issue 329).
  int t = 1;
  // The 0-based ask round of the Optimizer (Optimizer::rounds() before this ask): the time
  // coordinate of a time model (time_model.h). 0 where there are no ask rounds (the finite-set
  // loops).
  long round = 0;
  // The first round of the epoch `round` belongs to under a time model with restarts
  // (TimeModelKind::kRestarts: the model has forgotten every earlier round); 0 otherwise.
  long epoch_start = 0;
  // Number of action coordinates (the d of the compact-set beta_t); contexts excluded.
  int action_dim = 1;
  // |D| for a finite candidate set, 0 for a continuous domain.
  int num_candidates = 0;
  // gamma_{t-1}: the information gain of the observations so far (or a kernel-family bound,
  // when the strategy is configured so; see beta_schedule.h).
  double information_gain = 0.0;
  // sigma_{i-1}^2(x_i) of each observation given those before it, in original output units
  // (GaussianProcess::SequentialVariances): what a strategy needs to take the information gain
  // at a noise level other than the model's. Empty when not known (the finite-set loops) or not
  // read (Strategy::reads_sequential_variances); strategies then use information_gain.
  Eigen::VectorXd sequential_variances;
  // (y_i - mu_{i-1}(x_i)) / sqrt(sigma_{i-1}^2(x_i) + noise) for each observation i in the order
  // told: its one-step-ahead standardized residual under the current model (N(0, 1) when the
  // model is right; GaussianProcess::OneStepResiduals). Empty when not known (the finite-set
  // models).
  Eigen::VectorXd one_step_residuals;
  // The incumbent for EI/PI: the highest posterior mean among observed points (original units);
  // -infinity when there are no observations.
  double incumbent = -std::numeric_limits<double>::infinity();
  // The highest reward observed so far (original units): the incumbent of the papers' EI and PI
  // baselines (ImprovementOptions::incumbent_rule); -infinity when there are no observations.
  double best_observed = -std::numeric_limits<double>::infinity();
  // The noise variance of the model, in original output units.
  double noise_variance = 0.0;
  // The prior variance of f, k(x, x), in original output units: the scale against which
  // strategies measure noise and posterior variances (IGP-UCB's and GP-TS's noise bound R,
  // LogEI's variance floor). The optimizer passes the mean of the kernel's diagonal at the
  // observations times the output scale squared. Default 1: the papers' normalization
  // k(x, x) <= 1 with unstandardized outputs.
  double signal_variance = 1.0;
};

// Throws std::invalid_argument naming the field and value if the state is invalid: t < 1,
// action_dim < 1, num_candidates < 0, information_gain negative or non-finite, incumbent or
// best_observed NaN or +infinity, noise_variance negative or non-finite, signal_variance not
// finite and > 0, a sequential variance negative or non-finite, a one-step residual not finite.
// Every built-in BeginRound calls
// it first.
void ValidateRoundState(const RoundState& state);

// The posterior over a finite candidate set, as strategies see it. Implemented over a
// FiniteSetPosterior (O(N^2) updates) or over a GaussianProcess and a candidate matrix.
class CandidatePosterior {
 public:
  virtual ~CandidatePosterior() = default;
  virtual int size() const = 0;
  virtual const Eigen::VectorXd& means() const = 0;      // N
  virtual const Eigen::VectorXd& variances() const = 0;  // N, clamped at 0
  // Joint samples of f over the candidates from N(means, scale^2 Sigma): N x num_samples.
  virtual Eigen::MatrixXd SampleJoint(int num_samples, double scale, Rng& rng) const = 0;
};

// One round's acquisition function on a continuous domain. Evaluate returns the value at the
// full point x (actions and context, in the model's input units) and, if gradient is non-null,
// fills d value / d x (size x.size()). It may return a non-finite value; the maximizer then
// discards that start. Must be safe to call concurrently (const, no shared mutable state).
class ContinuousAcquisition {
 public:
  virtual ~ContinuousAcquisition() = default;
  virtual double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const = 0;
  // The values at the columns of X (no gradients): the maximizer scores its raw samples in
  // blocks through this. The default calls Evaluate column by column; IndexStrategy's batches
  // the kernel and the triangular solve (GaussianProcess::Predict), several times cheaper per
  // point. A column's value may depend on the rest of the block only through roundoff.
  virtual Eigen::VectorXd EvaluateMany(const Eigen::MatrixXd& X) const;
};

// Where a strategy will be asked to choose: what Strategy::CheckSupports needs to know of the
// domain (the Optimizer fills it from its Domain).
struct SearchSpace {
  // True for a finite candidate set (ScoreCandidates), false for a box (MakeContinuous).
  bool finite_set = false;
  // Action and context coordinates of the model's input. action_dim >= 1, context_dim >= 0.
  int action_dim = 1;
  int context_dim = 0;
};

// One safety signal's model as a round's safety decisions use it: the Optimizer's model of the
// signal (model/signal_model.h) over the same inputs as SafeRound::reward, and the threshold
// transformed with the signal into the model's output units.
struct SafetyModel {
  const GaussianProcess* gp = nullptr;
  // h in the model's output units: a point is safe for this signal when
  // mu(x) - beta sigma(x) >= threshold.
  double threshold = 0.0;
  // The model's prior standard deviation (output units, > 0): the unit its confidence widths
  // are compared in.
  double prior_stddev = 1.0;
  // The cap on the mean of its lower bound (safe_set.h, SafeSignal::max_mean): the largest
  // value the signal was measured at, model units; +infinity for none.
  double max_mean = std::numeric_limits<double>::infinity();
};

// What a safe strategy (Strategy::safe_seeds() non-empty, e.g. SafeOpt) is given each round
// instead of a candidate posterior or a box: every model over unit-cube inputs, with the round's
// context held fixed in the points below.
struct SafeRound {
  // The reward's model (the objective): the accepted observations only (never pending points
  // hallucinated at their mean, whose shrunken variance is not evidence). Its outputs are
  // rewards / reward_unit.
  const GaussianProcess* reward = nullptr;
  // The same with the pending points hallucinated (GP-BUCB): used for the confidence widths
  // only, so that a batch spreads out. May equal `reward`.
  const GaussianProcess* reward_for_widths = nullptr;
  // The power of two the reward model's outputs are in (Optimizer::reward_unit()): a threshold
  // on the reward in reward units is divided by it.
  double reward_unit = 1.0;
  // +1, or -1 when the caller minimizes (ObjectiveSense::kMinimize): the reward model then holds
  // the negated costs, and a threshold on the caller's values (cost <= h) becomes -h on it.
  double reward_sign = 1.0;
  // One model per constraint signal g_i (Strategy::num_constraints()): in the signal's units
  // when `safety` is empty, else the same models as the constraints' entries of `safety`.
  std::vector<const GaussianProcess*> constraints;
  // The models the safety decisions use when the strategy declares its safety signals with
  // calibrated models (Strategy::safety_signals(), calibrated_safety_models()): one per signal
  // with a threshold, the reward's first when it has one, then one per constraint signal, each
  // with its threshold in its own model units. Empty: the strategy compares its own thresholds
  // with `reward` (through reward_unit and reward_sign) and `constraints` (the models of log
  // format <= 4).
  std::vector<SafetyModel> safety;
  // With `safety`: the reward model's prior standard deviation (output units, > 0), the unit of
  // its confidence widths. 0: its output scale (log format <= 4).
  double reward_prior_stddev = 0.0;
  // A finite set: every candidate under the round's context (input_dim x N). Empty on a box.
  Eigen::MatrixXd candidates;
  // A box: its unit-cube bounds with the context coordinates fixed (lower == upper there).
  Eigen::VectorXd lower, upper;
  // The safe seeds still vouched for, under the round's context (input_dim x s, s >= 1), in the
  // order of safe_seeds() (a seed measured unsafe is left out).
  Eigen::MatrixXd seeds;
  // The number of action coordinates (the leading ones of every point).
  int action_dim = 1;
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  // The registry name, e.g. "gp-ucb".
  virtual std::string name() const = 0;

  // Sets the round's parameters (beta_t, ...). Throws std::invalid_argument if the state is
  // invalid (t < 1, non-finite gamma) or the schedule yields a non-finite or non-positive beta.
  virtual void BeginRound(const RoundState& state) = 0;

  // The figure this strategy reports in progress logs after BeginRound (beta_t for the UCB
  // family, v_t for GP-TS, xi for EI/PI), and its name ("beta_t", "v_t", "xi").
  virtual double figure() const = 0;
  virtual std::string figure_name() const = 0;

  // Scores of every candidate (N); the optimizer plays the argmax. May draw from rng (GP-TS).
  virtual Eigen::VectorXd ScoreCandidates(const CandidatePosterior& posterior, Rng& rng) const = 0;

  // The acquisition function of this round over a continuous domain. The returned object may
  // keep a reference to gp, which must outlive it. May draw from rng (a GP-TS sample path).
  virtual std::unique_ptr<ContinuousAcquisition> MakeContinuous(const GaussianProcess& gp,
                                                                Rng& rng) const = 0;

  // Throws std::invalid_argument, naming this strategy and the kernel (Kernel::Describe), if the
  // strategy cannot choose with `kernel` in `space`: what ScoreCandidates or MakeContinuous
  // would refuse later for a reason knowable now (GP-TS on a box needs the kernel's random
  // features). The Optimizer calls it when it is built, so that after a successful
  // construction no Ask fails for such a reason. The default accepts every kernel and space.
  virtual void CheckSupports(const Kernel& kernel, const SearchSpace& space) const;

  // A deep copy with the same options (the pagmo adapter and batch logic copy strategies).
  virtual std::unique_ptr<Strategy> Clone() const = 0;

  // The options as a JSON object text (see strategy_params.h), such that the factory
  // registered under name() rebuilds an equal strategy from it: the Optimizer logs it, and
  // Resume rebuilds the strategy through the registry. Built-in strategies return every field
  // of their options struct; the default, "{}", suits strategies without options.
  virtual std::string OptionsJson() const { return "{}"; }

  // How the model should forget over the rounds (time_model.h). Default: kNone, a stationary
  // objective. Fixed for the strategy's lifetime (the Optimizer reads it once, when built).
  virtual TimeModel time_model() const { return TimeModel(); }
  // Whether BeginRound reads RoundState::sequential_variances (one number per observation, so
  // O(t) to hand over each round): the Optimizer fills them only for a strategy that does.
  // Default true (a user's strategy may).
  virtual bool reads_sequential_variances() const { return true; }
  // ---- Safe exploration (SafeOpt, SafeOpt-MC) ------------------------------------------------
  // The number of measured constraint signals g_i(x) every tell must carry (SafeOpt-MC); 0 for
  // strategies without constraints.
  virtual int num_constraints() const { return 0; }
  // The actions the user declared safe (action_dim x s, ORIGINAL units), empty for strategies
  // without a safety requirement. When non-empty, the optimizer checks them against the domain
  // at construction, hands out no space-filling initial design (it would evaluate points nobody
  // vouched for) and chooses every model-driven point through ChooseSafe instead of
  // ScoreCandidates / MakeContinuous.
  virtual Eigen::MatrixXd safe_seeds() const { return Eigen::MatrixXd(); }
  // The safety signals of a safe strategy: entry 0 the reward's (threshold NaN when the reward
  // is no safety signal; when the Optimizer minimizes, an upper limit on the cost), then one per
  // constraint signal, thresholds in the caller's units (safety_signal.h). The Optimizer checks
  // the seeds' measurements and recommends with them. Empty (the default): the strategy does
  // not declare them (the Optimizer then models every signal in the caller's units with the
  // reward's kernel, and the strategy compares its thresholds itself).
  virtual std::vector<SafetySignal> safety_signals() const { return {}; }
  // With declared safety signals: true (the default) when the Optimizer models each in its own
  // units (SafeRound::safety); false for the models of log format <= 4, every signal in the
  // caller's units with the reward's kernel.
  virtual bool calibrated_safety_models() const { return true; }
  // The multiplier of sigma in the safety bounds mu -+ beta sigma at round t over
  // num_candidates candidates (0 on a box), which the Optimizer's safe recommendation (Best)
  // uses too. Default 2.
  virtual double safety_beta(int t, int num_candidates) const;
  // True when Best should recommend the maximizer of the reward's posterior mean over the
  // models' safe set rather than among the evaluated points measured safe. Default false.
  virtual bool recommend_from_safe_set() const { return false; }
  // The next point, unit-cube input (input_dim, the round's context in its tail). The default
  // throws std::logic_error (only strategies with safe seeds are asked).
  virtual Eigen::VectorXd ChooseSafe(const SafeRound& round, Rng& rng) const;
};

// Strategies whose score is a function of the posterior mean and variance at the point alone
// (GP-UCB, CGP-UCB, IGP-UCB, EI, PI, mean, variance). They implement Score(); ScoreCandidates
// and MakeContinuous follow by the chain rule.
class IndexStrategy : public Strategy {
 public:
  // The score at a point with posterior mean `mean` and variance `variance` (>= 0), with the
  // partial derivatives d score / d mean and d score / d variance when the pointers are
  // non-null. Must be finite for finite input (EI and PI included, when variance is 0).
  virtual double Score(double mean, double variance, double* d_mean, double* d_variance) const = 0;

  Eigen::VectorXd ScoreCandidates(const CandidatePosterior& posterior, Rng& rng) const override;
  std::unique_ptr<ContinuousAcquisition> MakeContinuous(const GaussianProcess& gp,
                                                        Rng& rng) const override;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_STRATEGY_H_
