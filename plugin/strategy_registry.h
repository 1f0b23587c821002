// The strategy registry: strategies by name, built from one options struct.
//
// Default() is pre-filled from an explicit name -> factory table in strategy_registry.cc
// (gp-ucb, cgp-ucb, igp-ucb, gp-ts, ei, log-ei, pi, mean, variance); there is no static
// self-registration (fragile in static libraries). User code adds its own strategies at run
// time with Register(); factories read the fields they need from StrategyOptions, and user
// strategies may read StrategyOptions::extra.
//
// Thread-safety: every member function locks a mutex; factories are called outside the lock,
// so a factory may itself use the registry.
#ifndef GPBANDIT_PLUGIN_STRATEGY_REGISTRY_H_
#define GPBANDIT_PLUGIN_STRATEGY_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpbandit/acquisition/beta_schedule.h"
#include "gpbandit/acquisition/information_gain_bound.h"
#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {

// Every parameter of every built-in strategy. Each strategy reads only its own fields.
struct StrategyOptions {
  // ---- GP-UCB / CGP-UCB: beta_t (Srinivas et al. Theorem 1; see acquisition/beta_schedule.h)
  // Schedule kind. Default kAuto (finite on candidate sets, compact on continuous domains).
  BetaScheduleKind beta_schedule = BetaScheduleKind::kAuto;
  // Compact schedule: derivative-tail constants a, b (> 0) and the domain [0, r]^d (r > 0).
  // Defaults 1, 1, 1 (the optimizer works in the unit cube).
  double a = 1.0;
  double b = 1.0;
  double r = 1.0;
  // Constant schedule: beta (> 0). Default 4.
  double constant_beta = 4.0;
  // Multiplies GP-UCB's beta_t; Srinivas et al.'s experiments use 0.2. > 0. Default 1.
  double beta_scale = 1.0;

  // ---- Shared by GP-UCB (RKHS schedule), IGP-UCB and GP-TS
  // Confidence parameter delta in (0, 1). Default 0.1.
  double delta = 0.1;
  // B, the bound on the RKHS norm of f (GP-UCB's RKHS schedule, IGP-UCB, GP-TS). >= 0.
  // Default 1.
  double rkhs_bound = 1.0;
  // R, the sub-Gaussian constant of the noise (IGP-UCB, GP-TS), against the prior standard
  // deviation of f; < 0 = from the model each round, with a floor (confidence_terms.h).
  // Finite. Default -1.
  double noise_bound = -1.0;
  // T, the horizon: IGP-UCB's lambda = 1 + 2 / T (IgpUcbLambda). 0 = unknown. >= 0.
  // Default 0. Informational for the strategies: the optimizer sets the model's noise.
  int horizon = 0;

  // ---- gamma_{t-1} (acquisition/information_gain_bound.h)
  // Source: observed information gain (default) or a kernel-family bound.
  GammaSource gamma_source = GammaSource::kInformationGain;
  // d of the bound; 0 = the number of action coordinates. >= 0. Default 0.
  int gamma_dim = 0;
  // Matern nu of the Matern bound. > 0. Default 2.5.
  double gamma_nu = 2.5;
  // Constant in front of the bound. > 0. Default 1.
  double gamma_scale = 1.0;

  // ---- EI / PI
  // Exploration margin xi (output units). >= 0. Default 0.
  double xi = 0.0;

  // ---- GP-TS (acquisition/gp_ts.h)
  // If > 0, a constant v instead of v_t (1 = the plain posterior). >= 0. Default 0.
  double ts_fixed_scale = 0.0;
  // Random Fourier features of the continuous-domain prior draw. >= 1. Default 1024.
  int ts_num_features = 1024;

  // Free-form parameters for user-registered strategies (values must be finite).
  std::map<std::string, double> extra;

  bool IsValid(std::string* error) const;
};

class StrategyRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Strategy>(const StrategyOptions&)>;

  // An empty registry (Default() is the pre-filled one).
  StrategyRegistry() = default;
  StrategyRegistry(const StrategyRegistry&) = delete;
  StrategyRegistry& operator=(const StrategyRegistry&) = delete;

  // The process-wide registry with the built-in strategies.
  static StrategyRegistry& Default();

  // Adds a strategy. Throws std::invalid_argument for an empty name, an empty factory, or a name
  // already registered (the registry is then unchanged).
  void Register(const std::string& name, Factory factory);

  // Builds a strategy. Throws std::invalid_argument for an unknown name (the message lists the
  // registered names), invalid options, or a factory returning nullptr.
  std::unique_ptr<Strategy> Create(const std::string& name,
                                   const StrategyOptions& options = StrategyOptions()) const;

  // Registered names, sorted.
  std::vector<std::string> Names() const;
  bool Contains(const std::string& name) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Factory> factories_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_PLUGIN_STRATEGY_REGISTRY_H_
