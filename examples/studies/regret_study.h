// The regret studies behind `gpbandit run`: a problem (a GP sample or an RKHS function on a
// finite grid, a synthetic function on a box, or a finite problem from files), one or more
// strategies from the registry, T rounds, several trials; one row per round and a summary per
// strategy.
//
// How each problem is played:
// - Finite problems with known hyperparameters (gp-sample, rkhs, file without --fit): the papers'
//   setting. A FiniteSetPosterior (prior mean prior_mean, no output standardization) is updated
//   by rank-one steps, O(N^2) per round whatever t (Chowdhury & Gopalan appendix F); the
//   strategy scores every candidate and the argmax among the candidates carrying this round's
//   context is played. With contexts, context_mode picks the model (Krause & Ong's comparison):
//   joint = one GP over actions x contexts with the product kernel k_S (x) k_Z (CGP-UCB);
//   ignore = a separate GP over the actions for each distinct context; merge = one GP over the
//   actions that never sees the context.
// - Box problems (branin, hartmann3, hartmann6, rosenbrock) and finite problems with --fit: the
//   ask/tell Optimizer (optimizer/optimizer.h): unit cube, standardized outputs, hyperparameters
//   refitted on its schedule when fit is set (fixed otherwise); on box problems with fit, the
//   Optimizer's default model unless a kernel is asked for (optimizer_default_model).
// Regret: r_t = max over the candidates with context z_t of f - f(x_t) (the contextual regret;
// plain regret without contexts); cumulative R_T = sum r_t; simple regret = min_{s <= t} r_s.
//
// Randomness: trial i draws its problem instance (f) and its observation noise from a generator
// seeded by (seed, i) through a seed sequence (gp/random.h SeededRng), so the trials of
// `--seed 1` and `--seed 2` are unrelated (with Rng(seed + i) they shared all but one
// instance); every strategy sees the same instance and the same noise sequence in trial i
// (common random numbers make the comparison fairer). Strategy randomness (GP-TS, designs)
// comes from a second stream of (seed, i).
#ifndef GPBANDIT_EXAMPLES_STUDIES_REGRET_STUDY_H_
#define GPBANDIT_EXAMPLES_STUDIES_REGRET_STUDY_H_

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "examples/io/finite_problem.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace examples {

struct RegretStudyOptions {
  // gp-sample (f ~ GP(0, k) on `grid` points of [0, 1]; Srinivas et al. Fig. 5a), rkhs (f =
  // sum_i alpha_i k(x_i, .), the posterior mean of a GP draw, on `grid` uniform points of
  // [0, 1]; Chowdhury & Gopalan Figs. 1-2), branin, hartmann3, hartmann6, rosenbrock, or file.
  // Default gp-sample.
  std::string problem = "gp-sample";
  // Registry names, played one after the other. Default {gp-ucb}.
  std::vector<std::string> strategies = {"gp-ucb"};
  // se, matern12, matern32, matern52, periodic, linear (KernelNames() but constant). Default
  // matern52, the Optimizer's default kernel (Matern-5/2 with ARD) and `gpbandit fit`'s; the
  // papers' studies (Srinivas et al. 2010, Krause & Ong 2011) use se.
  std::string kernel = "matern52";
  // Kernel lengthscale (candidate units for finite problems, the unit cube for box problems).
  // > 0. Default 0.2 (the papers' l = 0.2 on [0, 1]).
  double lengthscale = 0.2;
  // Lengthscale of the kernel over contexts (joint mode), in context units. > 0. Default 3
  // (hours, for the sensor study's time-of-day context).
  double context_lengthscale = 3.0;
  // Signal variance of the model's kernel on file problems, in the units of the functions' values
  // squared: the action kernel's variance (or the index kernel's scale); a context kernel keeps
  // 1, so it is the product kernel's variance too. With --fit, the fit's starting value.
  // Finite and > 0. Default 1 (only --problem file may set another).
  double signal_variance = 1.0;
  // Variance of the observation noise (and of the model's noise on finite problems). < 0 means
  // the problem's default: gp-sample 0.025, rkhs 1% of f's range, file 0.5, box problems 0
  // (noise-free rewards; the model keeps GaussianProcessOptions' default noise). The command
  // line takes its square root, the standard deviation (--noise-sd).
  double noise = -1.0;
  // Fit hyperparameters by marginal likelihood (the Optimizer's refit schedule). Default false
  // (known kernel, the papers' setting).
  bool fit = false;
  // Box problems with `fit`: true plays the Optimizer's own default model, the one a library
  // user gets by passing no kernel (model/default_model.h: Matern-5/2 with ARD starting at
  // lengthscale 1, fitted with its lengthscale and signal-variance priors), and `kernel` and
  // `lengthscale` are not used there; false plays `kernel` from `lengthscale`, fitted without
  // priors, as the Optimizer fits any kernel it is given. Without the lengthscale prior a fit
  // on a few dozen points of a 6-D box sets some lengthscales at their upper bound (100 in the
  // unit cube): the model is flat along those coordinates, a GP-TS sample path is nearly linear
  // along them and peaks on the box's faces (docs/benchmarks.md, "GP-TS on Hartmann-6 at
  // T = 100"). Other problems always play `kernel`. The command line sets it false when
  // --kernel or --lengthscale is given. Default true.
  bool optimizer_default_model = true;
  // Rounds per trial (>= 1; --rounds) and trials (>= 1). Defaults 100 and 5.
  int T = 100;
  int trials = 5;
  // Seed of everything. Default 1.
  std::uint64_t seed = 1;
  // OpenMP threads (0 = the OpenMP default). >= 0. Default 0.
  int threads = 0;
  // Number of points of gp-sample / rkhs (0 = 1000 for gp-sample, 100 for rkhs). >= 0.
  int grid = 0;
  // Constant prior mean of the finite-set model. Default 0.
  double prior_mean = 0.0;
  // Strategy options set for the whole study: each applies to the strategies whose options have
  // that key (registry default options; e.g. beta_scale to gp-ucb and cgp-ucb only). Unset:
  // each strategy's own default. beta_t schedule: auto, finite, compact, rkhs, constant,
  // dim-log.
  std::optional<std::string> beta_schedule;
  // The beta of the constant schedule; required with beta_schedule constant (or
  // --option beta_schedule=constant), which has no silent default, and only allowed with it.
  std::optional<double> constant_beta;
  // Multiplies beta_t (Srinivas et al. use 0.2).
  std::optional<double> beta_scale;
  // delta of the UCB family and GP-TS.
  std::optional<double> delta;
  // xi of EI, LogEI and PI.
  std::optional<double> xi;
  // Their incumbent: posterior-mean or best-observed (improvement_strategy.h).
  std::optional<std::string> incumbent_rule;
  // Any other strategy options (--option key=value), applied the same way; each key must be an
  // option of at least one strategy of the study. Default none.
  StrategyParams strategy_options;
  // Options of one strategy of the study each, by its name (--option strategy:key=value),
  // applied over the study-wide ones. Each name must be one of `strategies`. Default none.
  std::map<std::string, StrategyParams> strategy_options_by_name;
  // B for the RKHS schedule, IGP-UCB and GP-TS; < 0 = the problem's own (rkhs: ||f||_k,
  // otherwise the strategy's default). Default -1.
  double rkhs_bound = -1.0;
  // R for IGP-UCB and GP-TS; < 0 = the noise standard deviation on finite problems with a known
  // kernel (the papers' setting), and the strategies' own rule on box problems and with --fit
  // (from the model, with a floor: acquisition/confidence_terms.h; a noiseless box problem
  // would otherwise get R = 0 and resample its incumbent). Default -1.
  double noise_bound = -1.0;
  // joint, ignore, merge (contextual problems only; each is played for each strategy).
  std::vector<std::string> context_modes = {"joint"};
  // The files of --problem file.
  io::FiniteProblemFiles files;

  bool IsValid(std::string* error) const;
};

// One round of one trial.
struct RegretRow {
  int trial = 0;
  std::string strategy;  // "gp-ucb", or "gp-ucb/ignore" with contexts
  int t = 0;
  Eigen::VectorXd x, z;
  double y = 0, f = 0, regret = 0, cumulative = 0, simple = 0;
};

struct StrategySummary {
  std::string strategy;
  std::vector<double> cumulative, simple, seconds;  // one per trial, at t = T
  // Mean over trials of R_t / t, t = 1..T (the papers' "mean average regret").
  std::vector<double> mean_average_regret;
};

struct RegretStudyResult {
  std::vector<StrategySummary> summaries;
  int action_dim = 0, context_dim = 0;
};

// Runs the study. Each row is passed to on_row as soon as it is known (the CSV writer); progress
// lines go to `progress` (about every 2 s). Throws std::invalid_argument for invalid options or
// an unknown strategy, io::FileFormatError for bad files.
RegretStudyResult RunRegretStudy(const RegretStudyOptions& options,
                                 const std::function<void(const RegretRow&)>& on_row,
                                 std::ostream& progress);

// The summary table: per strategy, mean +- sd of R_T, R_T / T and simple regret, and seconds
// per trial.
void PrintSummary(const RegretStudyResult& result, int T, std::ostream& out);

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_STUDIES_REGRET_STUDY_H_
