// TV-GP-UCB (Bogunovic, Scarlett & Cevher, "Time-Varying Gaussian Process Bandit Optimization",
// AISTATS 2016): GP-UCB on a model that forgets smoothly. The objective drifts as
// f_{t+1} = sqrt(1 - eps) f_t + sqrt(eps) g_{t+1}; the model's kernel is the spatial kernel times
// k_time(t, t') = (1 - eps)^{|t - t'| / 2} over the round index (gp/time_kernels.h), and
// x_t = argmax mu_{t-1}(x, t) + sqrt(beta_t) sigma_{t-1}(x, t), mu and sigma taken at the round
// being asked. beta_t: GP-UCB's schedules (gp_ucb.h; their Theorem 4.3 keeps Srinivas et al.'s
// beta_t). eps given, or fitted with the other hyperparameters (log eps a log-param of kind
// kOther within [log min_epsilon, log max_epsilon]). Registered as "tv-gp-ucb".
//
// JSON options: GP-UCB's keys (gp_ucb.h), and epsilon (in (0, 1), default 0.01; the start of
// the fit when fit_epsilon), fit_epsilon (default false), min_epsilon, max_epsilon (the fit's
// bounds, 0 < min < max < 1, defaults 1e-4 and 0.5). With contexts it is CGP-UCB on the
// forgetting model. Which other strategies the construction carries over to: time_model.h.
//
// Thread-safety: const members may run concurrently; BeginRound needs exclusive access.
#ifndef GPBANDIT_ACQUISITION_TV_GP_UCB_H_
#define GPBANDIT_ACQUISITION_TV_GP_UCB_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/gp_ucb.h"

namespace gpbandit {

struct TvGpUcbOptions {
  GpUcbOptions ucb;
  double epsilon = 0.01;
  bool fit_epsilon = false;
  double min_epsilon = 1e-4;
  double max_epsilon = 0.5;

  bool IsValid(std::string* error) const;
};

class TvGpUcb : public GpUcb {
 public:
  // Throws std::invalid_argument naming the invalid field and value.
  explicit TvGpUcb(const TvGpUcbOptions& options = TvGpUcbOptions());
  // The registry's factory (keys above). Throws std::invalid_argument naming an unknown key, a
  // value of the wrong type or an invalid value.
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "tv-gp-ucb"; }
  std::unique_ptr<Strategy> Clone() const override;
  std::string OptionsJson() const override;
  TimeModel time_model() const override;

  const TvGpUcbOptions& tv_options() const { return tv_options_; }

 private:
  TvGpUcbOptions tv_options_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_TV_GP_UCB_H_
