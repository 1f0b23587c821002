// R-GP-UCB (Bogunovic, Scarlett & Cevher, "Time-Varying Gaussian Process Bandit Optimization",
// AISTATS 2016): GP-UCB restarted at the start of every epoch. At ask round r (0-based) in the
// epoch that began at round s, the model holds only the observations of rounds s, ..., r - 1
// (a kernel over the round index, gp/time_kernels.h, makes the posterior exactly that of the
// epoch's observations), and beta_t is GP-UCB's schedule at the round within the epoch,
// t = r - s + 1. Registered as "r-gp-ucb". Two rules say where epochs start (`restart`):
//
// - "residuals" (the default): where the data say the model is stale. Each accepted reward is
//   standardized against the model's predictive distribution before it is added, z = (y -
//   mu(x)) / sqrt(sigma^2(x) + noise variance); when the mean of z^2 over the epoch's last W =
//   restart_window observations exceeds restart_threshold, a new epoch starts at the round
//   after the latest observation (model/restart_monitor.h). Were the model exactly right, z
//   would be N(0, 1) and the mean of z^2 over W = 20 would exceed 5 with probability 1e-12; the
//   threshold is that high because fitted models' residuals are not that well calibrated, while
//   a drift the model has not seen makes the residuals far larger. W = 20 and threshold 5 were
//   chosen on generated problems; docs/benchmarks.md, section "Drifting objectives".
// - "epochs": the paper's rule, a restart every N rounds (s = floor(r / N) N): N = reset_period
//   when > 0, else a default from the drift rate `epsilon`, N = ceil(12 eps^{-1/4}) (38 rounds
//   at eps = 0.01): epochs shorten as the drift quickens. The rule of logs written before
//   format version 7, which resume with it (docs/log_format.md).
//
// Limits: the output standardization and the hyperparameter fits still see every observation
// (they set the prior's offset and scale, not what the posterior conditions on).
//
// JSON options: GP-UCB's keys (gp_ucb.h), restart ("residuals" or "epochs", default
// "residuals"), restart_window (integer >= 1, default 20), restart_threshold (> 0, default 5),
// reset_period (integer >= 0, default 0; > 0 only with "epochs"), epsilon (in (0, 1), default
// 0.01; read by "epochs" alone).
//
// Thread-safety: const members may run concurrently; BeginRound needs exclusive access.
#ifndef GPBANDIT_ACQUISITION_R_GP_UCB_H_
#define GPBANDIT_ACQUISITION_R_GP_UCB_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/gp_ucb.h"

namespace gpbandit {

enum class RestartRule { kResiduals, kEpochs };
std::string RestartRuleName(RestartRule rule);

struct RGpUcbOptions {
  GpUcbOptions ucb;
  RestartRule restart = RestartRule::kResiduals;
  int restart_window = 20;
  double restart_threshold = 5.0;
  int reset_period = 0;
  double epsilon = 0.01;

  bool IsValid(std::string* error) const;
  // N: reset_period, or ceil(12 epsilon^{-1/4}) when it is 0.
  long EpochLength() const;
};

class RGpUcb : public GpUcb {
 public:
  // Throws std::invalid_argument naming the invalid field and value.
  explicit RGpUcb(const RGpUcbOptions& options = RGpUcbOptions());
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "r-gp-ucb"; }
  // GP-UCB's BeginRound with t = state.round - the epoch's first round + 1.
  void BeginRound(const RoundState& state) override;
  std::unique_ptr<Strategy> Clone() const override;
  std::string OptionsJson() const override;
  TimeModel time_model() const override;

  const RGpUcbOptions& r_options() const { return r_options_; }

 private:
  RGpUcbOptions r_options_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_R_GP_UCB_H_
