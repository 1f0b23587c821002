// gpbandit as a pagmo2 user-defined algorithm: any registered strategy, by name.
//
//   pagmo::problem prob{pagmo::rosenbrock{2}};
//   pagmo::population pop{prob, 5, 42};
//   pagmo::algorithm algo{gpbandit::BanditAlgorithm{"igp-ucb", 30}};
//   pagmo::algorithm tuned{gpbandit::BanditAlgorithm{
//       "gp-ucb", 30, 1, 42, gpbandit::StrategyParams(R"({"beta_scale": 0.2})")}};
//   pop = algo.evolve(pop);
//
// evolve(pop): the population's evaluated individuals are the initial data (no evaluation
// wasted; individuals outside the bounds or with a non-finite fitness are left out of the
// model), then `rounds` rounds each ask the Optimizer (optimizer.h) for one point, or for
// batch_size points evaluated through pagmo's bfe, call the problem's fitness (counted in
// get_fevals), tell the fitness to an optimizer set to ObjectiveSense::kMinimize (pagmo
// minimizes; whatever sense the options give is overridden), and append the
// new individuals to the population, which is returned (it grows by rounds * batch_size).
//
// A non-finite fitness follows options.non_finite_rewards: evolve throws (the default), or the
// individual is kept in the population but left out of the model (kSkip), or enters the model
// with the worst reward so far, which keeps later rounds away from it (kImputeWorst).
//
// Seeding: evolve number k (0-based, since construction or set_seed) runs an Optimizer seeded by
// (seed, k), so two algorithms with the same seed give identical populations and logs.
//
// Mixed-integer problems (get_nix() > 0): the last nix variables are integers of the
// optimizer's parameter space (parameter_space.h), searched over their levels by the mixed
// maximizer, so every individual evolve adds keeps them integral; the population's individuals
// with non-integral values there are left out of the model like those outside the bounds.
//
// Rejected, with pagmo-style messages (std::invalid_argument): multi-objective or constrained
// problems, non-finite bounds, an empty population. thread_safety::basic. Fork
// islands: libgomp is not fork-safe, so a child of fork() is switched to one OpenMP thread
// (pthread_atfork handler registered by the constructor), and std::cout is flushed before a
// fork so that buffered output is not printed twice.
//
// This header includes pagmo; include it only where pagmo is used.
#ifndef GPBANDIT_PAGMO_PAGMO_ALGORITHM_H_
#define GPBANDIT_PAGMO_PAGMO_ALGORITHM_H_

#include <Eigen/Core>
#include <pagmo/algorithm.hpp>
#include <pagmo/bfe.hpp>
#include <pagmo/population.hpp>
#include <pagmo/s11n.hpp>
#include <pagmo/threading.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

class Optimizer;

class BanditAlgorithm {
 public:
  // One log line per `verbosity` rounds: round, fevals, best fitness so far (pagmo's sign),
  // the strategy's figure (beta_t, v_t, xi; NaN in design rounds), number of observations
  // in the model.
  using log_line_type = std::tuple<unsigned, unsigned long long, double, double, unsigned>;
  using log_type = std::vector<log_line_type>;

  // strategy: a registered name (StrategyRegistry::Default()); strategy_options: its
  // parameters over its defaults (keys in the strategy's header, e.g. acquisition/gp_ucb.h);
  // rounds >= 0; batch_size >= 1 (> 1 evaluates through the bfe); options.seed is ignored
  // (see `seed`), and so is options.log_path (the islands of an archipelago would share one
  // file). Throws std::invalid_argument for an unknown strategy, batch_size 0, or invalid
  // strategy or optimizer options.
  explicit BanditAlgorithm(const std::string& strategy = "gp-ucb", unsigned rounds = 10,
                           unsigned batch_size = 1, unsigned seed = pagmo::random_device::next(),
                           const StrategyParams& strategy_options = StrategyParams(),
                           const OptimizerOptions& options = OptimizerOptions());

  pagmo::population evolve(pagmo::population pop) const;

  void set_seed(unsigned seed);
  unsigned get_seed() const { return seed_; }
  // 0: silent; n > 0: print and log a line every n rounds (a header every 50 lines).
  void set_verbosity(unsigned level) { verbosity_ = level; }
  unsigned get_verbosity() const { return verbosity_; }
  // The batch evaluator used when batch_size > 1. Default pagmo::bfe{} (default_bfe).
  void set_bfe(const pagmo::bfe& b) { bfe_ = b; }

  std::string get_name() const;
  std::string get_extra_info() const;
  // The log of the last evolve.
  const log_type& get_log() const { return log_; }
  pagmo::thread_safety get_thread_safety() const { return pagmo::thread_safety::basic; }

  const std::string& strategy() const { return strategy_; }
  unsigned rounds() const { return rounds_; }
  unsigned batch_size() const { return batch_size_; }
  // Every option of the strategy: its defaults with the given ones over them.
  StrategyParams strategy_options() const;
  OptimizerOptions optimizer_options() const;

  template <typename Archive>
  void serialize(Archive& ar, unsigned) {
    pagmo::detail::archive(ar, strategy_, rounds_, batch_size_, seed_, evolves_, verbosity_, log_,
                           settings_, bfe_);
  }

 private:
  // Throws (pagmo-style) for a problem or population evolve cannot work on.
  void CheckEvolvable(const pagmo::population& pop) const;
  // The fitnesses of the columns of X (one each, pagmo's sign), through the bfe if batched.
  pagmo::vector_double Evaluate(const pagmo::problem& prob, const Eigen::MatrixXd& X) const;
  // Prints and logs one progress line (a header every 50 lines).
  void LogProgress(unsigned round, const pagmo::problem& prob, double best,
                   const Optimizer& optimizer, unsigned* printed) const;

  std::string strategy_;
  unsigned rounds_;
  unsigned batch_size_;
  unsigned seed_;
  // Evolves run since construction or set_seed: evolve k seeds its optimizer with (seed, k).
  mutable unsigned long long evolves_ = 0;
  unsigned verbosity_ = 0;
  mutable log_type log_;
  // The strategy's options and OptimizerOptions as JSON (log_header.h, FormatSettings), which
  // keeps serialization to one string whatever fields the option structs grow.
  std::string settings_;
  pagmo::bfe bfe_;
};

}  // namespace gpbandit

PAGMO_S11N_ALGORITHM_EXPORT_KEY(gpbandit::BanditAlgorithm)

#endif  // GPBANDIT_PAGMO_PAGMO_ALGORITHM_H_
