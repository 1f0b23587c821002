#include "examples/studies/regret_study.h"

#include <omp.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "cli/command.h"
#include "cli/progress.h"
#include "examples/problems/synthetic_functions.h"
#include "examples/report_text.h"
#include "gpbandit/acquisition/beta_schedule.h"
#include "gpbandit/gp/finite_set_posterior.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/maximizer/finite_bandit_loop.h"
#include "gpbandit/numerics/format.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/strategy_registry.h"

namespace gpbandit {
namespace examples {
namespace {

using Clock = std::chrono::steady_clock;

// The generators of trial i of a study with seed s are seeded by (s, i, stream) through a seed
// sequence (gp/random.h), so studies with different seeds share no problem instance.
constexpr std::uint64_t kProblemStream = 0;   // the instance f, then the observation noise
constexpr std::uint64_t kStrategyStream = 1;  // GP-TS draws, the optimizer's own seed

bool IsFiniteProblemName(const std::string& name) {
  return name == "gp-sample" || name == "rkhs" || name == "file";
}

// One trial's problem: a finite set of candidates with the true f, or a box function.
struct Instance {
  bool finite = true;
  int action_dim = 0, context_dim = 0;
  // Finite problems.
  Eigen::MatrixXd candidates;     // (a + m) x N, original units (what rows report)
  Eigen::MatrixXd action_inputs;  // q x Na: inputs of the action kernel (index or x)
  std::vector<int> action_index;  // N
  int num_actions = 0;
  std::unique_ptr<Kernel> action_kernel;   // over dims 0..q-1
  std::unique_ptr<Kernel> context_kernel;  // over dims q..q+m-1 (contextual only)
  Eigen::VectorXd f;                       // N
  Eigen::MatrixXd contexts;                // m x C, the revealed sequence
  bool has_kernel_matrix = false;
  // Box problems.
  problems::SyntheticFunction box;
  // Both.
  double noise = 0.0;
  double rkhs_norm = -1.0;  // ||f||_k when known
};

Eigen::MatrixXd GridPoints(int n) {
  Eigen::MatrixXd X(1, n);
  for (int i = 0; i < n; ++i) X(0, i) = n == 1 ? 0.5 : static_cast<double>(i) / (n - 1);
  return X;
}

// A joint draw of f ~ N(0, K) at the columns of X.
Eigen::VectorXd DrawFromPrior(const Kernel& kernel, const Eigen::MatrixXd& X, Rng& rng) {
  return SampleMultivariateNormal(kernel.Gram(X), rng, 1e-2);
}

void FillActions(Instance* in, const Eigen::MatrixXd& X) {
  in->action_dim = static_cast<int>(X.rows());
  in->candidates = X;
  in->action_inputs = X;
  in->num_actions = static_cast<int>(X.cols());
  in->action_index.resize(X.cols());
  for (int i = 0; i < X.cols(); ++i) in->action_index[i] = i;
}

Instance MakeInstance(const RegretStudyOptions& o, const io::FiniteProblem* file, int trial,
                      Rng& rng) {
  Instance in;
  if (!IsFiniteProblemName(o.problem)) {
    in.finite = false;
    in.box = o.problem == "rosenbrock" ? problems::MakeRosenbrock(2)
                                       : problems::MakeSyntheticFunction(o.problem);
    in.action_dim = static_cast<int>(in.box.lower.size());
    in.noise = std::max(0.0, o.noise);
    return in;
  }
  if (o.problem == "gp-sample") {
    FillActions(&in, GridPoints(o.grid > 0 ? o.grid : 1000));
    in.action_kernel = MakeKernel(o.kernel, {0}, true, 1.0, o.lengthscale);
    in.f = DrawFromPrior(*in.action_kernel, in.candidates, rng);
    in.noise = o.noise >= 0 ? o.noise : 0.025;
  } else if (o.problem == "rkhs") {
    const int n = o.grid > 0 ? o.grid : 100;
    Eigen::MatrixXd X(1, n);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < n; ++i) X(0, i) = unit(rng);
    FillActions(&in, X);
    in.action_kernel = MakeKernel(o.kernel, {0}, true, 1.0, o.lengthscale);
    // f = K alpha with alpha = (K + 0.01 I)^-1 f0: the posterior mean of a GP draw f0, a
    // function of known RKHS norm sqrt(alpha^T K alpha) (Chowdhury & Gopalan's experiments).
    const Eigen::MatrixXd K = in.action_kernel->Gram(X);
    const Eigen::VectorXd f0 = DrawFromPrior(*in.action_kernel, X, rng);
    const Eigen::MatrixXd A = K + 0.01 * Eigen::MatrixXd::Identity(n, n);
    const Eigen::VectorXd alpha = A.llt().solve(f0);
    in.f = K * alpha;
    in.rkhs_norm = std::sqrt(std::max(0.0, alpha.dot(K * alpha)));
    in.noise = o.noise >= 0 ? o.noise : 0.01 * (in.f.maxCoeff() - in.f.minCoeff());
  } else {
    in.action_dim = file->action_dim;
    in.context_dim = file->context_dim;
    in.candidates = file->candidates;
    in.action_index = file->action_index;
    in.num_actions = file->num_actions();
    in.f = file->functions.col(trial % file->functions.cols());
    in.contexts = file->contexts;
    in.noise = o.noise >= 0 ? o.noise : 0.5;
    if (file->kernel_matrix.size() > 0) {
      in.has_kernel_matrix = true;
      in.action_inputs = Eigen::RowVectorXd::LinSpaced(in.num_actions, 0, in.num_actions - 1);
      in.action_kernel = MakeIndexKernel(0, file->kernel_matrix, o.signal_variance);
    } else {
      in.action_inputs = file->actions;
      in.action_kernel =
          MakeKernel(o.kernel, FirstDims(in.action_dim), true, o.signal_variance, o.lengthscale);
    }
    if (in.context_dim > 0) {
      const int q = static_cast<int>(in.action_inputs.rows());
      in.context_kernel =
          MakeKernel(o.kernel, DimRange(q, in.context_dim), true, 1.0, o.context_lengthscale);
    }
  }
  return in;
}

// The options the study sets for every strategy that has them (problem-independent part).
StrategyParams StudyParams(const RegretStudyOptions& o) {
  StrategyParams p = o.strategy_options;
  if (o.beta_schedule) p = p.WithText("beta_schedule", *o.beta_schedule);
  if (o.constant_beta) p = p.With("constant_beta", *o.constant_beta);
  if (o.incumbent_rule) p = p.WithText("incumbent_rule", *o.incumbent_rule);
  if (o.beta_scale) p = p.With("beta_scale", *o.beta_scale);
  if (o.delta) p = p.With("delta", *o.delta);
  if (o.xi) p = p.With("xi", *o.xi);
  if (o.rkhs_bound >= 0) p = p.With("rkhs_bound", o.rkhs_bound);
  if (o.noise_bound >= 0) p = p.With("noise_bound", o.noise_bound);
  return p;
}

// The options `strategy` was given by name (--option strategy:key=value); none if it was not.
StrategyParams OwnParams(const RegretStudyOptions& o, const std::string& strategy) {
  const auto own = o.strategy_options_by_name.find(strategy);
  return own == o.strategy_options_by_name.end() ? StrategyParams() : own->second;
}

// The options of `strategy` in this instance: the study's, with B and R taken from the problem
// when not given, kept where the strategy has the key; then its own.
StrategyParams MakeStrategyParams(const RegretStudyOptions& o, const Instance& in,
                                  const std::string& strategy) {
  StrategyParams p = StudyParams(o);
  if (o.rkhs_bound < 0 && in.rkhs_norm >= 0) p = p.With("rkhs_bound", in.rkhs_norm);
  // The papers' R on a known-kernel finite problem; elsewhere the strategy's own rule.
  // R is measured against the prior standard deviation of f (confidence_terms.h).
  if (o.noise_bound < 0 && in.finite && !o.fit)
    p = p.With("noise_bound", std::sqrt(in.noise / o.signal_variance));
  return p.Intersection(StrategyRegistry::Default().DefaultOptions(strategy))
      .MergedWith(OwnParams(o, strategy));
}

// One posterior over a subset of the candidates, with its own strategy (the "ignore" mode has
// one per context).
struct Arm {
  std::unique_ptr<FiniteSetPosterior> posterior;
  std::unique_ptr<Strategy> strategy;
  // The round of the simulated bandit (acquisition/finite_bandit_loop.h) the bench studies
  // play too, over the two above.
  std::unique_ptr<FiniteBanditPlayer> player;
  std::vector<int> members;  // local index -> candidate (joint, ignore) or action (merge)
};

// Keys contexts by their exact coordinates.
std::vector<double> Key(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

class FiniteRun {
 public:
  FiniteRun(const Instance& in, const std::string& mode, const std::string& strategy,
            const StrategyParams& so, double prior_mean)
      : in_(in), mode_(mode), strategy_(strategy), so_(so), prior_mean_(prior_mean) {
    const int n = static_cast<int>(in.candidates.cols());
    const int m = in.context_dim;
    // Distinct contexts and the candidates of each.
    for (int i = 0; i < n; ++i) {
      const Eigen::VectorXd z = in.candidates.col(i).tail(m);
      auto [it, inserted] = context_ids_.emplace(Key(z), static_cast<int>(by_context_.size()));
      if (inserted) by_context_.emplace_back();
      by_context_[it->second].push_back(i);
      context_of_.push_back(it->second);
    }
    best_f_.resize(by_context_.size());
    for (size_t c = 0; c < by_context_.size(); ++c) {
      double best = -std::numeric_limits<double>::infinity();
      for (int i : by_context_[c]) best = std::max(best, in.f(i));
      best_f_[c] = best;
    }
    if (m == 0 || mode == "joint") {
      std::vector<int> all(n);
      for (int i = 0; i < n; ++i) all[i] = i;
      arms_.push_back(MakeArm(all, /*joint=*/m > 0, /*by_action=*/false));
    } else if (mode == "merge") {
      std::vector<int> actions(in.num_actions);
      for (int a = 0; a < in.num_actions; ++a) actions[a] = a;
      arms_.push_back(MakeArm(actions, false, /*by_action=*/true));
    } else {  // ignore: one arm per context, created on first use
      arms_.resize(by_context_.size());
    }
  }

  // Plays round t (1-based): returns the chosen candidate.
  int Play(int t, Rng& rng, int threads) {
    const int m = in_.context_dim;
    int context = 0;
    if (m > 0) {
      const Eigen::VectorXd z = in_.contexts.col((t - 1) % in_.contexts.cols());
      context = context_ids_.at(Key(z));
    }
    current_context_ = context;
    Arm& arm = ArmFor(context);
    const int size = static_cast<int>(arm.members.size());
    Eigen::Array<bool, Eigen::Dynamic, 1> allowed(size);
    if (m == 0 || mode_ == "ignore") {
      allowed.setConstant(true);
    } else if (mode_ == "joint") {
      allowed.setConstant(false);
      for (int i : by_context_[context]) allowed(i) = true;
    } else {
      allowed.setConstant(false);
      for (int i : by_context_[context]) allowed(in_.action_index[i]) = true;
    }
    const int local = arm.player->Choose(allowed, rng, threads);
    last_local_ = local;
    if (m > 0 && mode_ == "merge") {
      for (int i : by_context_[context])
        if (in_.action_index[i] == local) return i;
      throw std::logic_error("merge mode chose an action without a candidate");
    }
    return arm.members[local];
  }

  void Observe(double y) { ArmFor(current_context_).player->Observe(last_local_, y); }

  double BestF(int candidate) const { return best_f_[context_of_[candidate]]; }

 private:
  Arm& ArmFor(int context) {
    if (mode_ != "ignore" || in_.context_dim == 0) return arms_[0];
    if (!arms_[context].posterior) arms_[context] = MakeArm(by_context_[context], false, false);
    return arms_[context];
  }

  // members: candidates (or actions when by_action). joint: the inputs carry the context too.
  Arm MakeArm(const std::vector<int>& members, bool joint, bool by_action) {
    const int q = static_cast<int>(in_.action_inputs.rows());
    const int m = in_.context_dim;
    Eigen::MatrixXd inputs(joint ? q + m : q, members.size());
    for (size_t j = 0; j < members.size(); ++j) {
      const int action = by_action ? members[j] : in_.action_index[members[j]];
      inputs.col(j).head(q) = in_.action_inputs.col(action);
      if (joint) inputs.col(j).tail(m) = in_.candidates.col(members[j]).tail(m);
    }
    Arm arm;
    if (joint) {
      std::vector<std::unique_ptr<Kernel>> parts;
      parts.push_back(in_.action_kernel->Clone());
      parts.push_back(in_.context_kernel->Clone());
      const std::unique_ptr<Kernel> product = MakeProduct(std::move(parts));
      arm.posterior =
          std::make_unique<FiniteSetPosterior>(*product, inputs, in_.noise, prior_mean_);
    } else {
      arm.posterior =
          std::make_unique<FiniteSetPosterior>(*in_.action_kernel, inputs, in_.noise, prior_mean_);
    }
    arm.strategy = StrategyRegistry::Default().Create(strategy_, so_);
    arm.player =
        std::make_unique<FiniteBanditPlayer>(*arm.strategy, *arm.posterior, in_.action_dim);
    arm.members = members;
    return arm;
  }

  const Instance& in_;
  std::string mode_, strategy_;
  StrategyParams so_;
  double prior_mean_;
  std::map<std::vector<double>, int> context_ids_;
  std::vector<std::vector<int>> by_context_;
  std::vector<int> context_of_;
  std::vector<double> best_f_;
  std::vector<Arm> arms_;
  int current_context_ = 0;
  int last_local_ = 0;
};

// Every study-wide option is an option of some strategy of the study, and each strategy accepts
// the values (its own checks, naming the field).
// The constant schedule takes its beta from an explicit flag, never from a silent default.
bool ConstantBetaIsExplicit(const RegretStudyOptions& o, std::string* error) {
  const char* message = nullptr;
  bool constant = false;
  // Each strategy's options as given (the study's and its own), before they are cut down to the
  // keys it has: a constant schedule without its beta is refused whoever it was meant for.
  for (const std::string& strategy : o.strategies) {
    const nlohmann::json given =
        nlohmann::json::parse(StudyParams(o).MergedWith(OwnParams(o, strategy)).json());
    if (given.value("beta_schedule", std::string()) != "constant") continue;
    constant = true;
    if (!given.contains("constant_beta"))
      message = "--beta-schedule constant needs its beta: --constant-beta B (mu + sqrt(B) sigma)";
  }
  if (!constant && o.constant_beta)
    message = "--constant-beta applies to --beta-schedule constant only";
  if (message != nullptr && error != nullptr) *error = message;
  return message == nullptr;
}

bool StrategyParamsAreValid(const RegretStudyOptions& o, std::string* error) {
  for (const auto& [strategy, params] : o.strategy_options_by_name) {
    if (std::find(o.strategies.begin(), o.strategies.end(), strategy) != o.strategies.end())
      continue;
    if (error)
      *error = "--option " + strategy + ":" + params.json() + ": not a strategy of the study";
    return false;
  }
  if (!ConstantBetaIsExplicit(o, error)) return false;
  const StrategyParams study = StudyParams(o);
  std::vector<std::string> unused = study.keys();
  for (const std::string& s : o.strategies) {
    const StrategyParams defaults = StrategyRegistry::Default().DefaultOptions(s);
    for (const std::string& key : defaults.keys())
      unused.erase(std::remove(unused.begin(), unused.end(), key), unused.end());
    try {
      StrategyRegistry::Default().Create(s,
                                         study.Intersection(defaults).MergedWith(OwnParams(o, s)));
    } catch (const std::invalid_argument& e) {
      if (error) *error = "--strategy " + s + ": " + e.what();
      return false;
    }
  }
  if (unused.empty()) return true;
  if (error)
    *error = "strategy option " + unused.front() +
             ": no strategy of the study has it (gpbandit strategies lists their options)";
  return false;
}

}  // namespace

bool RegretStudyOptions::IsValid(std::string* error) const {
  auto fail = [error](const std::string& message) {
    if (error) *error = message;
    return false;
  };
  const std::vector<std::string> known = {"gp-sample", "rkhs",       "branin", "hartmann3",
                                          "hartmann6", "rosenbrock", "file"};
  if (std::find(known.begin(), known.end(), problem) == known.end())
    return fail("--problem '" + problem +
                "' is unknown; known: gp-sample, rkhs, branin, hartmann3, hartmann6, rosenbrock, "
                "file");
  if (strategies.empty()) return fail("--strategy: no strategy given");
  for (const std::string& s : strategies) {
    if (!StrategyRegistry::Default().Contains(s)) {
      std::string names;
      for (const std::string& n : StrategyRegistry::Default().Names())
        names += (names.empty() ? "" : ", ") + n;
      return fail("--strategy '" + s + "' is not registered; known: " + names);
    }
  }
  // Every kernel the factory builds by name except the constant one, which alone models no
  // dependence on the inputs.
  std::vector<std::string> kernels = KernelNames();
  kernels.erase(std::remove(kernels.begin(), kernels.end(), "constant"), kernels.end());
  if (std::find(kernels.begin(), kernels.end(), kernel) == kernels.end()) {
    std::string known;
    for (const std::string& k : kernels) known += (known.empty() ? "" : ", ") + k;
    return fail("--kernel '" + kernel + "' is unknown; known: " + known);
  }
  if (!(lengthscale > 0) || !std::isfinite(lengthscale))
    return fail("--lengthscale " + FormatDouble(lengthscale) + " must be > 0");
  if (!(context_lengthscale > 0) || !std::isfinite(context_lengthscale))
    return fail("--context-lengthscale " + FormatDouble(context_lengthscale) + " must be > 0");
  if (!std::isfinite(noise)) return fail("--noise-sd must be finite");
  if (T < 1) return fail("--rounds " + std::to_string(T) + " must be >= 1");
  if (trials < 1) return fail("--trials " + std::to_string(trials) + " must be >= 1");
  if (threads < 0) return fail("--threads " + std::to_string(threads) + " must be >= 0");
  if (grid < 0) return fail("--grid " + std::to_string(grid) + " must be >= 0");
  if (!std::isfinite(prior_mean)) return fail("--prior-mean must be finite");
  if (beta_schedule) {
    try {
      ParseBetaScheduleKind(*beta_schedule);
    } catch (const std::invalid_argument&) {
      return fail("--beta-schedule '" + *beta_schedule +
                  "' is unknown; known: auto, finite, compact, rkhs, constant, dim-log");
    }
  }
  if (!(signal_variance > 0) || !std::isfinite(signal_variance))
    return fail("--signal-variance " + FormatDouble(signal_variance) + " must be > 0");
  if (signal_variance != 1.0 && problem != "file")
    return fail(
        "--signal-variance applies to --problem file (box problems standardize their "
        "rewards; gp-sample and rkhs are drawn with variance 1)");
  if (!StrategyParamsAreValid(*this, error)) return false;
  if (!std::isfinite(rkhs_bound)) return fail("--rkhs-bound must be finite");
  if (!std::isfinite(noise_bound)) return fail("--noise-bound must be finite");
  if (context_modes.empty()) return fail("--context-mode: no mode given");
  for (const std::string& mode : context_modes) {
    if (mode != "joint" && mode != "ignore" && mode != "merge")
      return fail("--context-mode '" + mode + "' is unknown; known: joint, ignore, merge");
  }
  if (problem == "file" && (files.candidates.empty() || files.functions.empty()))
    return fail("--problem file needs --candidates and --functions");
  if (problem != "file" && (!files.candidates.empty() || !files.functions.empty() ||
                            !files.kernel_matrix.empty() || !files.contexts.empty()))
    return fail("--candidates/--functions/--kernel-matrix/--contexts need --problem file");
  return true;
}

namespace {

// The Optimizer of one trial: the Optimizer's own model (nullptr) where the study asks for it,
// as a library user gets it; else the study's kernel. On finite problems the papers' known
// prior: no standardization, the true noise; on boxes the model's noise is
// GaussianProcessOptions' default, or fitted.
std::unique_ptr<Optimizer> MakeTrialOptimizer(const RegretStudyOptions& o, const Instance& in,
                                              const std::string& strategy,
                                              const StrategyParams& params,
                                              std::uint64_t trial_key) {
  OptimizerOptions oo;
  oo.seed = DerivedSeed({o.seed, trial_key, kStrategyStream});
  oo.refit.enabled = o.fit;
  oo.num_threads = o.threads;
  oo.sync_log = false;
  const Domain domain =
      in.finite ? Domain::FiniteSet(in.candidates) : Domain::Box(in.box.lower, in.box.upper);
  std::unique_ptr<Kernel> kernel;
  if (in.finite || !o.fit || !o.optimizer_default_model)
    kernel = MakeKernel(o.kernel, FirstDims(in.action_dim), true, o.signal_variance, o.lengthscale);
  if (in.finite) {
    oo.gp.standardize_outputs = o.fit;
    if (!o.fit) oo.gp.noise_variance = in.noise;
  }
  return std::make_unique<Optimizer>(domain, std::move(kernel), strategy, params, oo);
}

// One round of an Optimizer on the instance: its point, the noisy reward told, the regret.
void PlayOptimizerRound(const Instance& in, Optimizer& optimizer, double noise_sd,
                        std::normal_distribution<double>& normal, Rng& noise_rng, RegretRow* row) {
  row->x = optimizer.Ask();
  if (in.finite) {
    int i = 0;
    while (i < in.candidates.cols() && in.candidates.col(i) != row->x) ++i;
    if (i == in.candidates.cols()) throw std::logic_error("the optimizer left the candidate set");
    row->f = in.f(i);
    row->regret = in.f.maxCoeff() - row->f;
  } else {
    row->f = in.box.reward(row->x);
    row->regret = in.box.max_reward - row->f;
  }
  row->y = row->f + noise_sd * normal(noise_rng);
  optimizer.Tell(row->x, row->y);
}

// One round of the study's own finite-set run.
void PlayFiniteRound(const Instance& in, FiniteRun& finite, int t, Rng& strategy_rng, int threads,
                     double noise_sd, std::normal_distribution<double>& normal, Rng& noise_rng,
                     RegretRow* row) {
  const int i = finite.Play(t, strategy_rng, threads);
  row->f = in.f(i);
  row->y = row->f + noise_sd * normal(noise_rng);
  finite.Observe(row->y);
  row->x = in.candidates.col(i).head(in.action_dim);
  row->z = in.candidates.col(i).tail(in.context_dim);
  row->regret = finite.BestF(i) - row->f;
}

// One trial of a strategy (and context mode): its rows to on_row, its totals to the summary.
void RunTrial(const RegretStudyOptions& o, const io::FiniteProblem* file,
              const std::string& strategy, const std::string& mode, int trial,
              const std::function<void(const RegretRow&)>& on_row, std::ostream& progress,
              cli::ProgressClock& progress_clock, StrategySummary* summary,
              RegretStudyResult* result) {
  const std::uint64_t trial_key = static_cast<std::uint64_t>(trial);
  Rng problem_rng = SeededRng({o.seed, trial_key, kProblemStream});
  const Instance in = MakeInstance(o, file, trial, problem_rng);
  result->action_dim = in.action_dim;
  result->context_dim = in.context_dim;
  // The noise stream continues the problem's generator: identical for every strategy.
  Rng& noise_rng = problem_rng;
  Rng strategy_rng = SeededRng({o.seed, trial_key, kStrategyStream});
  std::normal_distribution<double> normal(0.0, 1.0);
  const double noise_sd = std::sqrt(in.noise);
  const StrategyParams so = MakeStrategyParams(o, in, strategy);
  const auto trial_start = Clock::now();
  std::unique_ptr<FiniteRun> finite;
  std::unique_ptr<Optimizer> optimizer;
  if (in.finite && !o.fit)
    finite = std::make_unique<FiniteRun>(in, mode, strategy, so, o.prior_mean);
  else
    optimizer = MakeTrialOptimizer(o, in, strategy, so, trial_key);
  double cumulative = 0.0, simple = std::numeric_limits<double>::infinity();
  for (int t = 1; t <= o.T; ++t) {
    RegretRow row;
    row.trial = trial;
    row.strategy = summary->strategy;
    row.t = t;
    if (finite)
      PlayFiniteRound(in, *finite, t, strategy_rng, o.threads, noise_sd, normal, noise_rng, &row);
    else
      PlayOptimizerRound(in, *optimizer, noise_sd, normal, noise_rng, &row);
    cumulative += row.regret;
    simple = std::min(simple, row.regret);
    row.cumulative = cumulative;
    row.simple = simple;
    summary->mean_average_regret[t - 1] += cumulative / t / o.trials;
    if (on_row) on_row(row);
    if (progress_clock.Due())
      progress << "[run] " << summary->strategy << "  trial " << trial + 1 << "/" << o.trials
               << "  t " << t << "/" << o.T << "  R_t/t " << std::setprecision(4) << cumulative / t
               << "  elapsed " << std::fixed << std::setprecision(1) << progress_clock.Elapsed()
               << " s" << std::defaultfloat << std::endl;
  }
  summary->cumulative.push_back(cumulative);
  summary->simple.push_back(simple);
  summary->seconds.push_back(Seconds(trial_start));
}

}  // namespace

RegretStudyResult RunRegretStudy(const RegretStudyOptions& o,
                                 const std::function<void(const RegretRow&)>& on_row,
                                 std::ostream& progress) {
  std::string error;
  if (!o.IsValid(&error)) throw std::invalid_argument(error);
  if (o.threads > 0) omp_set_num_threads(o.threads);
  io::FiniteProblem file;
  if (o.problem == "file") file = io::LoadFiniteProblem(o.files);
  const bool contextual = o.problem == "file" && file.context_dim > 0;
  if (o.fit && IsFiniteProblemName(o.problem) && (contextual || file.kernel_matrix.size() > 0))
    throw std::invalid_argument(
        "--fit is supported on box problems and on finite problems without contexts and "
        "without --kernel-matrix (the index kernel's matrix is fixed)");
  const std::vector<std::string> modes =
      contextual ? o.context_modes : std::vector<std::string>{"joint"};

  RegretStudyResult result;
  cli::ProgressClock progress_clock;
  for (const std::string& strategy : o.strategies) {
    for (const std::string& mode : modes) {
      StrategySummary summary;
      summary.strategy = contextual ? strategy + "/" + mode : strategy;
      summary.mean_average_regret.assign(o.T, 0.0);
      for (int trial = 0; trial < o.trials; ++trial)
        RunTrial(o, &file, strategy, mode, trial, on_row, progress, progress_clock, &summary,
                 &result);
      result.summaries.push_back(std::move(summary));
    }
  }
  return result;
}

namespace {

std::string PlusMinus(const std::vector<double>& v, double divide = 1.0) {
  double mean, sd;
  cli::MeanAndSd(v, &mean, &sd);
  std::ostringstream out;
  out << std::setprecision(4) << mean / divide << " +- " << sd / divide;
  return out.str();
}

}  // namespace

void PrintSummary(const RegretStudyResult& result, int T, std::ostream& out) {
  size_t width = 8;
  for (const StrategySummary& s : result.summaries) width = std::max(width, s.strategy.size());
  out << std::left << std::setw(static_cast<int>(width)) << "strategy"
      << "  " << std::setw(22) << "R_T (mean +- sd)"
      << "  " << std::setw(22) << "R_T / T"
      << "  " << std::setw(22) << "simple regret"
      << "  "
      << "s/trial"
      << "\n";
  for (const StrategySummary& s : result.summaries) {
    double sec, sec_sd;
    cli::MeanAndSd(s.seconds, &sec, &sec_sd);
    std::ostringstream seconds;
    seconds << std::setprecision(3) << sec;
    out << std::setw(static_cast<int>(width)) << s.strategy << "  " << std::setw(22)
        << PlusMinus(s.cumulative) << "  " << std::setw(22) << PlusMinus(s.cumulative, T) << "  "
        << std::setw(22) << PlusMinus(s.simple) << "  " << seconds.str() << "\n";
  }
  out << std::right;
}

}  // namespace examples
}  // namespace gpbandit
