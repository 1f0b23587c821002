// SafeOpt (Sui, Gotovos, Burdick & Krause, ICML 2015) and SafeOpt-MC with contexts (Berkenkamp,
// Krause & Schoellig 2016): explore only where every safety signal's lower confidence bound
// clears its threshold, choosing among the safe set's maximizers and expanders by confidence
// width (the rule and its formulas: safe_set.h). Registered as "safe-opt".
//
// Safety contract: every point this strategy suggests is a declared safe seed or has
//   mu_i(x) - beta sigma_i(x) >= h_i   for the reward (if `threshold` is set) and every
//                                      constraint signal g_i (constraint_thresholds),
// under the current posteriors of the models of the accepted observations, at the round's
// context (SafeOpt-MC with contexts: the safe set at the revealed context). Seeds are actions the
// user vouches for at every context. Pending points never make a point safe (their hallucinated
// observations shrink the widths only). Tested as a property (tests/safe/safe_opt_test.cc).
//
// Rounds: the seeds not yet in the model are suggested first, in order; then a rule of
// safe_set.h (option `rule`: SafeOpt's widest maximizer or expander, or the safe point with the
// highest upper bound of the reward) on
// - a finite set: every candidate (exact); seeds must be candidates;
// - a box: a candidate set drawn afresh each round: box_samples scrambled Sobol points over the
//   box, plus local_samples Gaussian perturbations (radii 0.02, 0.05, 0.1, 0.2 of the unit cube,
//   in turn) around every seed and every observed action (the cloud grows with the safe set,
//   where the boundary and the maximizers are), then a refinement: the rule again on these
//   points plus 32 points within 0.01-0.03 of the first choice. Sui et al. grid the domain,
//   which costs (1/h)^d points; the cloud concentrates the points where the safe set's edge is,
//   which a grid of the same size does not in 4-D. Every suggestion is checked safe as above, so
//   a coarse cloud costs exploration speed, never safety.
//
// Models: the strategy declares its safety signals (Strategy::safety_signals()), and the
// Optimizer models each in its own units (safety_signal.h; model/signal_model.h): the
// decisions do not change when a signal is scaled or shifted. With `calibrated` false, the
// models of log format <= 4: every signal in the caller's units with the reward's kernel (the
// Optimizer then needs OptimizerOptions::gp.standardize_outputs = false).
// With fidelities (OptimizerOptions::fidelities; calibrated models only) each signal's model is
// joint over (x, fidelity) and every decision above reads it at the target: the safety
// contract is the target's, and a point the fidelity rule sends to a lower fidelity lies in the
// target's safe set too (docs/fidelities.md, "Safety across fidelities").
//
// beta: a constant (default 2), or with `delta` on a finite set Sui et al.'s
//   beta_t = sqrt(2 log(|D| t^2 pi^2 / (6 delta)))
// under which, with the true kernel and noise (SignalModelOptions with fit = false), every
// evaluation is safe with probability >= 1 - delta (their Theorem 1).
//
// JSON options (Create, OptionsJson): threshold (number, or null = no threshold on the reward;
// reward units), constraint_thresholds (array: h_i of each constraint signal, in its units),
// seeds (array of actions in original units, e.g. [[0.1, 0.2]]; also accepted as that text, as
// the command line passes it), beta, delta (number or null), box_samples, local_samples,
// calibrated, signal_models (array of SignalModelOptions objects, safety_signal.h: [] or one
// for the reward then one per constraint signal), rule ("safeopt" or "ucb"), recommendation
// ("observed" or "safe-set").
//
// Thread-safety: const members may run concurrently.
#ifndef GPBANDIT_SAFE_SAFE_OPT_H_
#define GPBANDIT_SAFE_SAFE_OPT_H_

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/safe/safe_set.h"

namespace gpbandit {

// SafeOptOptions::recommendation; names "observed", "safe-set".
enum class SafeRecommendation { kObserved, kSafeSet };
std::string SafeRecommendationName(SafeRecommendation r);

// SafeOptOptions::rule, how a point of the safe set is chosen; names "safeopt", "ucb".
enum class SafeRule {
  // Sui et al.'s: the widest point of the maximizers and expanders (safe_set.h,
  // ChooseSafePoint); it grows the safe set in every direction.
  kSafeOpt,
  // The point of the safe set with the highest upper bound of the reward (safe_set.h,
  // ChooseOptimistic): goal-directed.
  kUcb,
};
std::string SafeRuleName(SafeRule r);

struct SafeOptOptions {
  // h: the reward's safety threshold, in the caller's units: a point is safe when the reward's
  // lower bound is >= h, or, when the Optimizer minimizes (OptimizerOptions::sense, the pagmo
  // adapter), when the cost's upper bound is <= h. NaN (JSON null) = the reward is not a safety
  // signal; then at least one constraint threshold is required. Default NaN.
  double threshold = std::numeric_limits<double>::quiet_NaN();
  // h_i of the constraint signals g_1..g_m every tell then carries (SafeOpt-MC). Finite.
  // Default none.
  std::vector<double> constraint_thresholds;
  // The safe seeds S_0: actions in original units, at least one. Default none (required).
  std::vector<std::vector<double>> seeds;
  // The multiplier of sigma in the confidence bounds mu -+ beta sigma (Sui et al.'s
  // beta_t^{1/2}; their experiments and the SafeOpt library use 2 and 3). Finite, > 0.
  // Default 3: with 2, about one episode in a hundred broke a limit on the plants of
  // docs/robot_tuning.md (a point on the safe set's edge is below its lower bound with
  // probability 2.3% under a calibrated model, 0.13% with 3).
  double beta = 3.0;
  // Boxes: the scrambled Sobol points per round (>= 1, default 256) and the perturbations per
  // seed or observed action (>= 0, default 16).
  int box_samples = 256;
  int local_samples = 16;
  // With a value in (0, 1): on a finite set, beta_t of Sui et al. (above) in place of `beta`.
  // NaN (JSON null, the default): the constant beta. Refused on a box (CheckSupports).
  double delta = std::numeric_limits<double>::quiet_NaN();
  // Model every signal in its own units (safety_signal.h). false: the models of log format <= 4
  // (older logs resume with it). Default true.
  bool calibrated = true;
  // Prior knowledge of each signal's model: empty (every default), or 1 + the number of
  // constraint signals entries, the reward's first (used only when `threshold` is set).
  std::vector<SignalModelOptions> signal_models;
  // How a point of the safe set is chosen (SafeRule). Default kUcb, chosen on generated plants
  // (docs/benchmarks.md, section "Safe tuning on a plant family"); kSafeOpt maps the whole safe
  // set (coverage) and keeps Sui et al.'s guarantee of reaching every reachable optimum.
  SafeRule rule = SafeRule::kUcb;
  // What Optimizer::Best recommends: kObserved (the default), the evaluated point measured safe
  // with the highest posterior mean whose lower bounds clear every threshold; kSafeSet, the
  // maximizer of the posterior mean over the models' safe set.
  SafeRecommendation recommendation = SafeRecommendation::kObserved;

  bool IsValid(std::string* error) const;
};

class SafeOpt : public Strategy {
 public:
  // Throws std::invalid_argument if the options are invalid (no threshold at all, no seed,
  // seeds of unequal lengths, non-finite values, beta <= 0, ...).
  explicit SafeOpt(const SafeOptOptions& options);
  // The registry's factory (keys above). Throws std::invalid_argument naming the key.
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);
  // The registry's default options: every field at its default (the factory itself refuses
  // them: a threshold and a seed are required).
  static std::string DefaultOptionsJson();

  std::string name() const override { return "safe-opt"; }
  // Sets the round's beta (beta_t with delta).
  void BeginRound(const RoundState& state) override;
  double figure() const override { return beta_; }
  std::string figure_name() const override { return "beta"; }
  bool reads_sequential_variances() const override { return false; }
  // Not used: a safe strategy chooses through ChooseSafe. Both throw std::logic_error.
  Eigen::VectorXd ScoreCandidates(const CandidatePosterior& posterior, Rng& rng) const override;
  std::unique_ptr<ContinuousAcquisition> MakeContinuous(const GaussianProcess& gp,
                                                        Rng& rng) const override;
  std::unique_ptr<Strategy> Clone() const override;
  std::string OptionsJson() const override;

  int num_constraints() const override {
    return static_cast<int>(options_.constraint_thresholds.size());
  }
  Eigen::MatrixXd safe_seeds() const override;
  std::vector<SafetySignal> safety_signals() const override;
  bool calibrated_safety_models() const override { return options_.calibrated; }
  double safety_beta(int t, int num_candidates) const override;
  bool recommend_from_safe_set() const override {
    return options_.recommendation == SafeRecommendation::kSafeSet;
  }
  // Refuses delta on a box.
  void CheckSupports(const Kernel& kernel, const SearchSpace& space) const override;
  // Throws std::invalid_argument when the round does not match the options (constraint models,
  // seed columns).
  Eigen::VectorXd ChooseSafe(const SafeRound& round, Rng& rng) const override;

  const SafeOptOptions& options() const { return options_; }

 private:
  // The rule's choice among the columns of X with their bounds (seeds: declared safe).
  SafeChoice Choose(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                    const SafeBounds& bounds, const Eigen::MatrixXd& seeds) const;

  SafeOptOptions options_;
  double beta_ = 3.0;  // the round's multiplier (BeginRound)
};

}  // namespace gpbandit

#endif  // GPBANDIT_SAFE_SAFE_OPT_H_
