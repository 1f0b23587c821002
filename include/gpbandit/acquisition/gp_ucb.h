// GP-UCB (Srinivas, Krause, Kakade & Seeger, ICML 2010): x_t = argmax mu_{t-1}(x) +
// sqrt(beta_t) sigma_{t-1}(x), with beta_t from beta_schedule.h (finite, compact, RKHS,
// constant, dim-log; times a scale). Registered as "gp-ucb".
//
// The default schedule (kAuto):
// - on a finite candidate set, Theorem 1's finite-set beta_t = 2 log(|D| t^2 pi^2 / (6 delta));
// - on a continuous domain, beta_t = c d log(2 t) with c = 0.05, d the number of action
//   coordinates: the form of Kandasamy, Schneider & Poczos (ICML 2015, "High dimensional
//   Bayesian optimisation and bandits via additive models"), Theorem 1's O(d log t) order with a
//   practical constant; their experiments and their library Dragonfly use c = 0.2 (0.5 d log(2 d
//   t + 1) in gp_bandit.py, 0.2 d log(2 d t + 1) for its multi-objective UCB). c = 0.05 was
//   chosen on generated problems; docs/benchmarks.md, section "Defaults on problems nobody tuned
//   for". Theorem 2's compact-set beta_t covers the worst case of its constants a, b and is ~150 at
//   t = 50 in 6-D, where it explores for ever (0.05 d log(2 t) is 1.4 there). The theory
//   schedules stay available by name (kCompact, kRkhs) with BetaScheduleOptions::scale
//   (Srinivas et al.'s experiments divide by 5).
//
// JSON options (Create, OptionsJson; strategy_params.h): beta_schedule ("auto", "finite",
// "compact", "rkhs", "constant", "dim-log"), delta, a, b, r, rkhs_bound, constant_beta,
// dim_log_coefficient, dim_log_max_dim, beta_scale (the fields of BetaScheduleOptions),
// gamma_source
// ("information-gain", "se-bound", "matern-bound", "linear-bound"), gamma_dim, gamma_nu,
// gamma_scale (GammaOptions).
//
// Thread-safety: const members may run concurrently; BeginRound needs exclusive access.
#ifndef GPBANDIT_ACQUISITION_GP_UCB_H_
#define GPBANDIT_ACQUISITION_GP_UCB_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/beta_schedule.h"
#include "gpbandit/acquisition/information_gain_bound.h"
#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {

struct GpUcbOptions {
  // The beta_t schedule and its parameters (see beta_schedule.h). Default: kAuto (above),
  // delta 0.1.
  BetaScheduleOptions beta;
  // Where gamma comes from for the RKHS schedule. Default: the observed information gain.
  GammaOptions gamma;

  bool IsValid(std::string* error) const;
};

class GpUcb : public IndexStrategy {
 public:
  // Throws std::invalid_argument if the options are invalid.
  explicit GpUcb(const GpUcbOptions& options = GpUcbOptions());
  // The registry's factory: the options from params (keys above; a missing key keeps its
  // default). Throws std::invalid_argument naming an unknown key, a value of the wrong type or
  // an invalid value.
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "gp-ucb"; }
  void BeginRound(const RoundState& state) override;
  double figure() const override { return beta_; }  // beta_t (already scaled)
  std::string figure_name() const override { return "beta_t"; }
  bool reads_sequential_variances() const override { return false; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override;
  std::string OptionsJson() const override;

  const GpUcbOptions& options() const { return options_; }
  // beta_t of the last BeginRound (before the first: the schedule at t = 1 is not known yet, so
  // the constant 4 is used, i.e. mu + 2 sigma).
  double beta() const { return beta_; }

 protected:
  // The options from params for strategy `who` (GP-UCB's keys; CGP-UCB shares them).
  static GpUcbOptions ReadOptions(const StrategyParams& params, const std::string& who);

 private:
  GpUcbOptions options_;
  double beta_ = 4.0;
  double sqrt_beta_ = 2.0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_GP_UCB_H_
