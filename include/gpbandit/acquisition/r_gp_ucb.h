// R-GP-UCB (Bogunovic, Scarlett & Cevher, "Time-Varying Gaussian Process Bandit Optimization",
// AISTATS 2016): GP-UCB restarted every N rounds. At ask round r (0-based), the model holds only
// the observations of rounds floor(r / N) N, ..., r - 1 (an epoch kernel over the round index,
// gp/time_kernels.h, makes the posterior exactly that of the epoch's observations), and beta_t
// is GP-UCB's schedule at the round within the epoch, t = r mod N + 1. Registered as "r-gp-ucb".
//
// N: reset_period when > 0; with reset_period = 0, a default from the drift rate `epsilon`,
// N = ceil(12 eps^{-1/4}) (38 rounds at eps = 0.01): epochs shorten as the drift quickens. Give
// reset_period when the drift's time scale is known.
//
// Limits: the output standardization and the hyperparameter fits still see every observation
// (they set the prior's offset and scale, not what the posterior conditions on).
//
// JSON options: GP-UCB's keys (gp_ucb.h), reset_period (integer >= 0, default 0), epsilon (in
// (0, 1), default 0.01; used when reset_period = 0).
//
// Thread-safety: const members may run concurrently; BeginRound needs exclusive access.
#ifndef GPBANDIT_ACQUISITION_R_GP_UCB_H_
#define GPBANDIT_ACQUISITION_R_GP_UCB_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/gp_ucb.h"

namespace gpbandit {

struct RGpUcbOptions {
  GpUcbOptions ucb;
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
  // GP-UCB's BeginRound with t = state.round mod N + 1.
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
