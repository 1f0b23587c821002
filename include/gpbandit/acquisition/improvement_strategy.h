// What expected improvement and probability of improvement share: the margin xi, the incumbent
// best taken from each round's RoundState, and xi as the reported figure. Subclasses add the
// formula (Score) and their name. JSON options (strategy_params.h): xi, relative_xi,
// relative_xi_per_dim, incumbent_rule ("posterior-mean", "best-observed").
//
// Thread safety and determinism: as every Strategy (strategy.h).
#ifndef GPBANDIT_ACQUISITION_IMPROVEMENT_STRATEGY_H_
#define GPBANDIT_ACQUISITION_IMPROVEMENT_STRATEGY_H_

#include <limits>
#include <string>

#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {

// Which value improvement is measured against.
enum class IncumbentRule {
  // The highest posterior mean among the observed points (RoundState::incumbent): robust to
  // noise, where one lucky observation would otherwise set the bar (BoTorch's noisy EI does
  // similarly).
  kPosteriorMean,
  // The best observed reward (RoundState::best_observed), as in Mockus's EI and in the papers'
  // baselines (Srinivas et al., Chowdhury & Gopalan).
  kBestObserved,
};

// "posterior-mean", "best-observed" (and the reverse; throws std::invalid_argument otherwise).
std::string IncumbentRuleName(IncumbentRule rule);
IncumbentRule ParseIncumbentRule(const std::string& name);

struct ImprovementOptions {
  // The exploration margin xi, in output units: improvement counts above best + xi. >= 0 and
  // finite. Default 0.
  double xi = 0.0;
  // A margin in units of the prior standard deviation of f (sqrt(RoundState::signal_variance)),
  // added to xi each round: a scale-free margin (Lizotte 2008 suggests 0.01 of the outputs'
  // spread for PI and EI). >= 0 and finite. Default 0.
  double relative_xi = 0.0;
  // A margin in the same units per action dimension (RoundState::action_dim), added to
  // relative_xi: exploration that grows with the dimension, as GP-UCB's dim-log beta_t does
  // (beta_schedule.h). >= 0 and finite. Default 0.
  double relative_xi_per_dim = 0.0;
  // The incumbent `best`. Default kPosteriorMean.
  IncumbentRule incumbent_rule = IncumbentRule::kPosteriorMean;

  bool IsValid(std::string* error) const;
};

class ImprovementStrategy : public IndexStrategy {
 public:
  // Throws std::invalid_argument naming the field when options are invalid.
  explicit ImprovementStrategy(const ImprovementOptions& options);

  // Takes the round's incumbent by the rule (-infinity before any observation).
  void BeginRound(const RoundState& state) override;
  // The round's margin xi + (relative_xi + relative_xi_per_dim action_dim) sqrt(signal_variance)
  // (xi before the first round).
  double figure() const override { return margin_; }
  std::string figure_name() const override { return "xi"; }
  bool reads_sequential_variances() const override { return false; }
  std::string OptionsJson() const override;

  double incumbent() const { return incumbent_; }
  // The round's margin: improvement counts above incumbent() + margin().
  double margin() const { return margin_; }
  const ImprovementOptions& options() const { return options_; }

 protected:
  // The options from params for strategy `who` (keys above; a missing key keeps its value in
  // `defaults`).
  // Throws std::invalid_argument naming an unknown key or a value of the wrong type.
  static ImprovementOptions ReadOptions(const StrategyParams& params, const std::string& who,
                                        const ImprovementOptions& defaults = ImprovementOptions());

 private:
  ImprovementOptions options_;
  double incumbent_ = -std::numeric_limits<double>::infinity();
  double margin_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_IMPROVEMENT_STRATEGY_H_
