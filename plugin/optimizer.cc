#include "gpbandit/plugin/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "gpbandit/acquisition/box_maximizer.h"
#include "gpbandit/acquisition/candidate_posterior.h"
#include "gpbandit/acquisition/finite_argmax.h"
#include "gpbandit/acquisition/gp_ts.h"
#include "gpbandit/acquisition/mean_only.h"
#include "gpbandit/gp/finite_set_posterior.h"
#include "gp/format.h"
#include "gpbandit/gp/kernel_factory.h"
#include "gpbandit/gp/time_kernels.h"
#include "plugin/finite_set_model.h"
#include "gpbandit/plugin/log_header.h"
#include "gpbandit/plugin/observation_log.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Streams of the per-round generators: independent sequences for independent jobs, so that
// e.g. a refit (which may or may not happen) never shifts the numbers the maximizer draws.
constexpr int kStreamChoose = 0;
constexpr int kStreamFit = 1;
constexpr int kStreamDesign = 2;
constexpr int kStreamFallback = 3;
constexpr int kStreamBest = 4;

// The default kernel's lengthscale prior, log(l) ~ N(log 0.3, 1) in the unit cube
// (optimizer_options.h, `fit`). Median 0.5 did as well on Hartmann-6 (10 seeds), but it and
// medians 0.7 and 1 lost the short pagmo runs of tests/plugin/pagmo_algorithm_test.cc
// (10 evaluations in 3-D).
constexpr double kDefaultLengthscalePriorMedian = 0.3;
constexpr double kDefaultLengthscalePriorStddevLog = 1.0;
// The default kernel's signal-variance prior, log(s2) ~ N(log 1, 1.5^2) with standardized
// outputs (whose variance is 1). Without it, a fit on the first 10 Hartmann-6 points can end in
// the white-noise optimum (signal variance at its lower bound 1e-3, noise ~1), and the model
// then learns nothing until the next refit, 50 rounds later in bench/plugin_bench.cc: 3 of 8
// seeds with the fit's tolerance at 1e-8, 1 of 30 at 1e-6; with the prior, none
// (tests/plugin/optimizer_defaults_test.cc). The prior costs ~4.7 nats at s2 = 0.01, which the
// likelihood of a truly noisy objective outweighs.
constexpr double kDefaultSignalVariancePriorStddevLog = 1.5;

// The priors the optimizer fits the default kernel with when the caller gave none, by the kind
// of each log-param: the lengthscale prior on every lengthscale and, with standardized outputs,
// the signal-variance prior on every signal variance; none on other kinds.
std::vector<LogNormalPrior> DefaultKernelPriors(const std::vector<ParamKind>& kinds,
                                                bool standardized_outputs) {
  std::vector<LogNormalPrior> priors(kinds.size());
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    if (kinds[j] == ParamKind::kLengthscale) {
      priors[j].mean_log = std::log(kDefaultLengthscalePriorMedian);
      priors[j].stddev_log = kDefaultLengthscalePriorStddevLog;
    } else if (kinds[j] == ParamKind::kSignalVariance && standardized_outputs) {
      priors[j].mean_log = 0.0;
      priors[j].stddev_log = kDefaultSignalVariancePriorStddevLog;
    }
  }
  return priors;
}

// lengthscale: the initial lengthscale of every input (unit cube).
std::unique_ptr<Kernel> DefaultKernel(const Domain& domain, double lengthscale) {
  if (domain.context_dim() == 0)
    return MakeMatern52(FirstDims(domain.action_dim()), true, 1.0, lengthscale);
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeMatern52(FirstDims(domain.action_dim()), true, 1.0, lengthscale));
  parts.push_back(
      MakeMatern52(DimRange(domain.action_dim(), domain.context_dim()), true, 1.0, lengthscale));
  return MakeProduct(std::move(parts));
}

// The default kernel's initial lengthscale: 1 (the unit cube's width), or for safe strategies
// the lengthscale prior's median, 0.3: their refits may only shorten it
// (Optimizer::CautiousFitOptions). Starting from 1, runs on the test functions of
// bench/safe_opt_study.cc evaluated 1-2 unsafe points in their first 15 rounds (3-7 per 100
// rounds without refits); from 0.3, none (docs/benchmarks.md, "Safe exploration").
double DefaultLengthscale(const Strategy& strategy) {
  return strategy.safe_seeds().cols() > 0 ? kDefaultLengthscalePriorMedian : 1.0;
}

bool SameVector(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && (a.size() == 0 || a == b);
}

// Equal, or both NaN.
bool SameReward(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// FNV-1a over raw bytes: a compact digest for Fingerprint().
class Digest {
 public:
  void Add(const void* data, std::size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      hash_ ^= p[i];
      hash_ *= 1099511628211ULL;
    }
  }
  void Add(double v) { Add(&v, sizeof v); }
  void Add(long v) { Add(&v, sizeof v); }
  void Add(const Eigen::VectorXd& v) {
    Add(static_cast<long>(v.size()));
    if (v.size() > 0) Add(v.data(), sizeof(double) * static_cast<std::size_t>(v.size()));
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

// The posterior means (model units) at the accepted observations (in order; their indices into
// `observations` in *index). The model holds the observations that are in_model() first, in
// order (then any hallucinated pending points), so the means cost O(t)
// (GaussianProcess::MeansAtObservations).
Eigen::VectorXd ObservedMeans(const std::vector<Observation>& observations,
                              const GaussianProcess& gp, std::vector<int>* index) {
  index->clear();
  std::vector<Eigen::Index> rows;
  Eigen::Index row = 0;
  for (int i = 0; i < static_cast<int>(observations.size()); ++i) {
    const Observation& o = observations[static_cast<std::size_t>(i)];
    if (o.accepted) {
      index->push_back(i);
      rows.push_back(row);
    }
    if (o.in_model()) ++row;
  }
  if (gp.num_observations() < row)
    throw std::logic_error("the model holds " + std::to_string(gp.num_observations()) +
                           " observations, fewer than the " + std::to_string(row) + " told to it");
  if (rows.empty()) return Eigen::VectorXd();
  const Eigen::VectorXd all = gp.MeansAtObservations();
  Eigen::VectorXd means(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) means(static_cast<Eigen::Index>(j)) = all(rows[j]);
  return means;
}

// The exponent k of the reward unit 2^k for rewards whose largest magnitude is `largest`
// (optimizer.h, "Units"): 0 within [2^-256, 2^256), else a multiple of 128 leaving the
// magnitude within 2^128 of 1.
int RewardExponent(double largest) {
  constexpr int kBand = 256, kStep = 128;
  if (!(largest > 0.0)) return 0;
  const int exponent = std::ilogb(largest);  // largest in [2^exponent, 2^(exponent + 1))
  if (exponent >= -kBand && exponent < kBand) return 0;
  return kStep * (exponent / kStep);  // toward zero
}

// The `count` observations with the highest posterior means (ties: lower index), under the
// round's context: the maximizer's extra starts.
Eigen::MatrixXd BestStarts(const Domain& domain, const std::vector<Observation>& observations,
                           const Eigen::VectorXd& means, const std::vector<int>& index,
                           const Eigen::VectorXd& unit_z, int count) {
  std::vector<std::pair<double, int>> scored;
  for (std::size_t j = 0; j < index.size(); ++j)
    scored.emplace_back(-means(static_cast<Eigen::Index>(j)), index[j]);
  const int k = std::min<int>(count, static_cast<int>(scored.size()));
  std::partial_sort(scored.begin(), scored.begin() + k, scored.end());
  Eigen::MatrixXd starts(domain.input_dim(), k);
  for (int j = 0; j < k; ++j) {
    const Observation& o =
        observations[static_cast<std::size_t>(scored[static_cast<std::size_t>(j)].second)];
    Eigen::VectorXd u = domain.ToUnit(o.x, o.z);
    // The observed action under this round's context.
    if (domain.context_dim() > 0) u.tail(domain.context_dim()) = unit_z;
    starts.col(j) = u;
  }
  return starts;
}

// RoundState::signal_variance: the mean of the kernel's diagonal at the observations times the
// output scale squared (the kernel lives in standardized units); the scale squared alone before
// any observation, or if the diagonal is not finite and positive (a linear kernel at the
// origin), which is the standardized outputs' unit variance. Clamped into the positive normal
// doubles, as the validation of RoundState requires, for output scales near the limits.
double SignalVariance(const GaussianProcess& gp) {
  const double scale2 = gp.output_scale() * gp.output_scale();
  double variance = scale2;
  if (gp.num_observations() > 0) {
    const double diagonal = gp.kernel().Diagonal(gp.inputs()).mean();
    if (std::isfinite(diagonal) && diagonal > 0.0) variance = diagonal * scale2;
  }
  return std::clamp(variance, std::numeric_limits<double>::min(),
                    std::numeric_limits<double>::max());
}

// What RoundState takes from the model of the accepted observations, in original units: the
// information gain and the sequential variances behind it, the noise and signal variances, the
// best observed reward.
void FillModelStatistics(const GaussianProcess& gp, RoundState* state) {
  const double scale2 = gp.output_scale() * gp.output_scale();
  state->information_gain = gp.InformationGain();
  state->sequential_variances = gp.SequentialVariances() * scale2;
  state->noise_variance = (gp.noise_variance() + gp.jitter()) * scale2;
  state->signal_variance = SignalVariance(gp);
  state->best_observed = gp.num_observations() > 0 ? gp.outputs().maxCoeff()
                                                   : -std::numeric_limits<double>::infinity();
}

BoxMaximizerOptions MaximizerOptions(const OptimizerOptions& options) {
  BoxMaximizerOptions box;
  box.num_raw_samples = options.maximizer_raw_samples;
  box.raw_sample_design = options.maximizer_raw_sample_design;
  box.num_starts = options.maximizer_starts;
  box.num_threads = options.num_threads;
  box.max_iterations = options.maximizer_iterations;
  box.function_tolerance = options.maximizer_function_tolerance;
  return box;
}

// Throws std::runtime_error (prefixed by `where`) when an optimizer cannot be rebuilt from this
// header: a kernel is given for a default-kernel log or missing for another, or its strategy is
// not registered.
void CheckResumable(const LogHeader& header, bool kernel_given, const std::string& where) {
  if (header.default_kernel && kernel_given)
    throw std::runtime_error(where +
                             ": it was written with the default kernel, but a kernel "
                             "was given");
  if (!header.default_kernel && !kernel_given)
    throw std::runtime_error(where + ": it was written with kernel " + header.kernel_description +
                             "; pass that kernel to Resume");
  if (!StrategyRegistry::Default().Contains(header.strategy))
    throw std::runtime_error(where + ": it was written by strategy '" + header.strategy +
                             "', which is not registered (register its factory with "
                             "StrategyRegistry::Default().Register before Resume)");
}

// The strategy's own check of the kernel and the domain (Strategy::CheckSupports), its message
// prefixed with the combination, so that a user strategy's refusal names both too.
void CheckStrategySupports(const Strategy& strategy, const Kernel& kernel, const Domain& domain) {
  SearchSpace space;
  space.finite_set = domain.kind() == DomainKind::kFiniteSet;
  space.action_dim = domain.action_dim();
  space.context_dim = domain.context_dim();
  try {
    strategy.CheckSupports(kernel, space);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("strategy '" + strategy.name() + "' cannot run with kernel '" +
                                kernel.Describe() + "' on " + domain.Describe() + ": " + e.what());
  }
}

void CheckOptimizerOptions(const OptimizerOptions& options) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("OptimizerOptions: " + error);
}

}  // namespace

Optimizer::Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
                     const std::string& strategy, const StrategyParams& strategy_options,
                     const OptimizerOptions& options)
    : domain_(domain),
      strategy_name_(strategy),
      options_(options),
      figure_(std::numeric_limits<double>::quiet_NaN()) {
  CheckOptimizerOptions(options);
  strategy_ = StrategyRegistry::Default().Create(strategy, strategy_options);
  strategy_options_ = StrategyRegistry::Default().ResolveOptions(strategy, strategy_options);
  Initialize(std::move(kernel), nullptr);
}

Optimizer::Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
                     const std::string& strategy, const StrategyParams& strategy_options,
                     const OptimizerOptions& options, std::unique_ptr<StudyStorage> storage)
    : domain_(domain),
      strategy_name_(strategy),
      options_(options),
      figure_(std::numeric_limits<double>::quiet_NaN()) {
  CheckOptimizerOptions(options);
  if (storage == nullptr) throw std::invalid_argument("storage: null");
  if (!options.log_path.empty() || !options.storage.empty())
    throw std::invalid_argument(
        "OptimizerOptions: log_path and storage must be empty when a "
        "storage object is given");
  strategy_ = StrategyRegistry::Default().Create(strategy, strategy_options);
  strategy_options_ = StrategyRegistry::Default().ResolveOptions(strategy, strategy_options);
  Initialize(std::move(kernel), std::move(storage));
}

Optimizer::Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
                     std::unique_ptr<Strategy> strategy, const OptimizerOptions& options)
    : domain_(domain), options_(options), figure_(std::numeric_limits<double>::quiet_NaN()) {
  CheckOptimizerOptions(options);
  if (strategy == nullptr) throw std::invalid_argument("strategy: null");
  strategy_name_ = strategy->name();
  try {
    strategy_options_ = StrategyParams(strategy->OptionsJson());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("strategy '" + strategy_name_ + "': OptionsJson(): " + e.what());
  }
  strategy_ = std::move(strategy);
  Initialize(std::move(kernel), nullptr);
}

// storage: a ready one, or nullptr for the one the options name (if any).
void Optimizer::Initialize(std::unique_ptr<Kernel> kernel, std::unique_ptr<StudyStorage> storage) {
  figure_name_ = strategy_->figure_name();
  default_kernel_ = kernel == nullptr;
  if (!kernel) kernel = DefaultKernel(domain_, DefaultLengthscale(*strategy_));
  if (kernel->MinInputDim() > domain_.input_dim()) {
    throw std::invalid_argument(
        "kernel needs inputs of dimension >= " + std::to_string(kernel->MinInputDim()) +
        " but the domain's input dimension is " + std::to_string(domain_.input_dim()));
  }
  if (domain_.kind() == DomainKind::kBox && strategy_->name() == "gp-ts")
    CheckContinuousGpTsKernel(*kernel);
  time_model_ = strategy_->time_model();
  kernel = WithTimeKernel(std::move(kernel));
  std::string error;
  if (!FitOptionsMatchKernel(options_.fit, *kernel, &error))
    throw std::invalid_argument("OptimizerOptions.fit." + error);
  CheckStrategySupports(*strategy_, *kernel, domain_);
  InitializeSafety(*kernel);
  gp_ = std::make_unique<GaussianProcess>(std::move(kernel), ModelDim(), options_.gp);
  CheckTimeFitBounds();
  last_round_report_.round = -1;
  initial_kernel_log_params_ = gp_->kernel_log_params();
  if (options_.finite_set_rank_one_updates && domain_.kind() == DomainKind::kFiniteSet &&
      domain_.context_dim() == 0 && !options_.refit.enabled && !has_time()) {
    Eigen::MatrixXd unit_candidates(domain_.input_dim(), domain_.num_candidates());
    for (int c = 0; c < domain_.num_candidates(); ++c)
      unit_candidates.col(c) = domain_.ToUnit(domain_.candidates().col(c), Eigen::VectorXd());
    finite_model_ = std::make_unique<FiniteSetModel>(unit_candidates);
  }
  BuildDesign();
  if (!storage) storage = StorageFromOptions(options_);
  if (storage) AttachStorage(std::move(storage));
}

Optimizer::~Optimizer() = default;

// ---- The time coordinate --------------------------------------------------------------------

std::unique_ptr<Kernel> Optimizer::WithTimeKernel(std::unique_ptr<Kernel> kernel) const {
  if (!has_time()) return kernel;
  const int time_dim = domain_.input_dim();
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(kernel));
  if (time_model_.kind == TimeModelKind::kForgetting) {
    parts.push_back(
        std::make_unique<ForgettingKernel>(time_dim, time_model_.epsilon, time_model_.fit_epsilon));
  } else {
    parts.push_back(std::make_unique<EpochKernel>(time_dim, time_model_.epoch_length));
  }
  return MakeProduct(std::move(parts));
}

// log(epsilon) is the last log-param of the product (the time kernel is its last part); explicit
// fit bounds must keep it below 0 (epsilon < 1).
void Optimizer::CheckTimeFitBounds() const {
  if (time_model_.kind != TimeModelKind::kForgetting || !time_model_.fit_epsilon) return;
  if (!options_.refit.enabled || options_.fit.upper_log_bounds.empty()) return;
  const std::size_t j = options_.fit.upper_log_bounds.size() - 1;
  if (!(options_.fit.upper_log_bounds[j] <= 0.0))
    throw std::invalid_argument("OptimizerOptions.fit.upper_log_bounds[" + std::to_string(j) +
                                "] = " + FormatDouble(options_.fit.upper_log_bounds[j]) +
                                ": the bound on log(epsilon) of the forgetting kernel must be "
                                "<= 0 (epsilon < 1)");
}

Eigen::VectorXd Optimizer::ModelInput(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                      long round) const {
  const Eigen::VectorXd u = domain_.ToUnit(x, z);
  if (!has_time()) return u;
  Eigen::VectorXd input(u.size() + 1);
  input << u, static_cast<double>(round);
  return input;
}

long Optimizer::TellRound(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  const int j = PendingIndex(x, z);
  if (j >= 0) return pending_[static_cast<std::size_t>(j)].round;
  return std::max(0L, rounds_ - 1);
}

HyperparameterFitOptions Optimizer::RefitOptions(int observed) const {
  HyperparameterFitOptions fit = options_.fit;
  if (observed >= options_.fit_restarts_until) fit.num_restarts = 0;
  if (options_.num_threads > 0) fit.num_threads = options_.num_threads;
  if (default_kernel_ && fit.kernel_priors.empty()) {
    // The default priors (optimizer_options.h, `fit`).
    fit.kernel_priors =
        DefaultKernelPriors(gp_->kernel().ParamKinds(), gp_->options().standardize_outputs);
  }
  if (time_model_.kind == TimeModelKind::kForgetting && time_model_.fit_epsilon &&
      fit.lower_log_bounds.empty()) {
    // The kind defaults for every log-param but log(epsilon), which must stay below 0.
    DefaultLogBounds(fit, gp_->kernel().ParamKinds(), &fit.lower_log_bounds, &fit.upper_log_bounds);
    fit.lower_log_bounds.back() = std::log(time_model_.min_epsilon);
    fit.upper_log_bounds.back() = std::log(time_model_.max_epsilon);
  }
  return fit;
}

std::unique_ptr<Optimizer> Optimizer::Resume(const std::string& log_path,
                                             std::unique_ptr<Kernel> kernel) {
  const LogContents contents = ReadLog(log_path);
  if (contents.records.empty())
    throw std::runtime_error("cannot resume from '" + log_path + "': no log header in it");
  LogHeader header = ParseLogHeader(contents.records.front().json);
  CheckResumable(header, kernel != nullptr, "cannot resume from '" + log_path + "'");
  header.options.log_path = log_path;
  return std::make_unique<Optimizer>(header.domain, std::move(kernel), header.strategy,
                                     header.strategy_options, header.options);
}

std::unique_ptr<Optimizer> Optimizer::Open(std::unique_ptr<StudyStorage> storage,
                                           std::unique_ptr<Kernel> kernel,
                                           const WorkerOptions& worker) {
  if (storage == nullptr) throw std::invalid_argument("storage: null");
  std::string error;
  if (!worker.IsValid(&error)) throw std::invalid_argument("WorkerOptions: " + error);
  const std::string where = "cannot open the study " + storage->Describe();
  std::string header_json = storage->Begin(LockMode::kShared)->header();
  if (header_json.empty()) throw std::runtime_error(where + ": no such study");
  LogHeader header = ParseLogHeader(header_json);
  CheckResumable(header, kernel != nullptr, where);
  header.options.worker = worker;
  return std::make_unique<Optimizer>(header.domain, std::move(kernel), header.strategy,
                                     header.strategy_options, header.options, std::move(storage));
}

std::unique_ptr<Optimizer> Optimizer::Open(const std::string& storage, const std::string& study,
                                           std::unique_ptr<Kernel> kernel,
                                           const WorkerOptions& worker) {
  StorageOptions storage_options;
  storage_options.reconnect_timeout_seconds = worker.reconnect_timeout_seconds;
  std::unique_ptr<Optimizer> optimizer =
      Open(OpenStudyStorage(storage, study, storage_options), std::move(kernel), worker);
  optimizer->options_.storage = storage;
  optimizer->options_.study = study;
  return optimizer;
}

// The checks a study's header must pass to be continued by this optimizer.
void Optimizer::CheckStudyHeader(const std::string& header_json) const {
  const LogHeader logged = ParseLogHeader(header_json);
  const LogHeader mine = MakeHeader();
  const std::string where = "the study " + storage_->Describe() + " was written ";
  if (logged.domain != mine.domain)
    throw std::runtime_error(where + "for domain " + logged.domain.Describe() +
                             " with other bounds or candidates than " + mine.domain.Describe());
  if (logged.strategy != mine.strategy)
    throw std::runtime_error(where + "by strategy " + logged.strategy + ", not " + mine.strategy);
  if (logged.options.seed != mine.options.seed)
    throw std::runtime_error(where + "with seed " + std::to_string(logged.options.seed) + ", not " +
                             std::to_string(mine.options.seed));
  if (logged.kernel_description != mine.kernel_description ||
      !SameVector(logged.kernel_log_params, mine.kernel_log_params))
    throw std::runtime_error(where + "with kernel " + logged.kernel_description +
                             " (or other initial hyperparameters), not " + mine.kernel_description);
}

// ---- Construction helpers -------------------------------------------------------------------

int Optimizer::InitialDesignSize() const {
  int n = options_.initial_design_size;
  // A safe strategy evaluates its seeds first and nothing unvouched for (InitializeSafety).
  if (safe_strategy()) return 0;
  if (n < 0) n = std::max(2, domain_.action_dim() + 1);
  if (domain_.kind() == DomainKind::kFiniteSet) n = std::min(n, domain_.num_candidates());
  return n;
}

Rng Optimizer::RoundRng(long round, int stream) const {
  const std::uint64_t s = options_.seed, r = static_cast<std::uint64_t>(round);
  std::seed_seq seq{static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(s >> 32),
                    static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(r >> 32),
                    static_cast<std::uint32_t>(stream)};
  return Rng(seq);
}

void Optimizer::BuildDesign() {
  const int n = InitialDesignSize();
  Rng rng = RoundRng(0, kStreamDesign);
  if (n == 0) return;
  if (domain_.kind() == DomainKind::kBox) {
    design_ = LatinHypercube(Eigen::VectorXd::Zero(domain_.action_dim()), UnitUpper(), n, rng);
  } else {
    // A random subset of the candidates (Fisher-Yates on the index list).
    std::vector<int> index(static_cast<std::size_t>(domain_.num_candidates()));
    std::iota(index.begin(), index.end(), 0);
    for (int i = static_cast<int>(index.size()) - 1; i > 0; --i) {
      std::uniform_int_distribution<int> pick(0, i);
      std::swap(index[static_cast<std::size_t>(i)], index[static_cast<std::size_t>(pick(rng))]);
    }
    design_.resize(1, n);
    for (int j = 0; j < n; ++j) design_(0, j) = index[static_cast<std::size_t>(j)];
  }
}

Eigen::VectorXd Optimizer::UnitUpper() const {
  Eigen::VectorXd upper(domain_.action_dim());
  for (int i = 0; i < domain_.action_dim(); ++i)
    upper(i) = domain_.upper()(i) > domain_.lower()(i) ? 1.0 : 0.0;
  return upper;
}

LogHeader Optimizer::MakeHeader() const {
  LogHeader h;
  h.domain = domain_;
  h.strategy = strategy_name_;
  h.strategy_options = strategy_options_;
  h.options = options_;
  h.options.log_path.clear();
  h.default_kernel = default_kernel_;
  h.kernel_description = gp_->kernel().Describe();
  h.kernel_log_params = initial_kernel_log_params_;
  return h;
}

// Replays one record with exactly the model operations the live run performed, so that the
// rebuilt state is bit-for-bit the same.
void Optimizer::Replay(const LogRecord& record) {
  switch (record.type) {
    case LogRecordType::kPending:
      domain_.CheckAction(record.x, "log pending x");
      domain_.CheckContext(record.z, "log pending z");
      pending_.push_back({record.x, record.z, record.round, record.worker, record.lease_until});
      rounds_ = std::max(rounds_, record.round + 1);
      if (record.design_index >= 0)
        design_handed_out_ = std::max(design_handed_out_, record.design_index + 1);
      break;
    case LogRecordType::kTell:
      domain_.CheckAction(record.x, "log tell x");
      domain_.CheckContext(record.z, "log tell z");
      CheckConstraints(record.y, record.constraints);
      ApplyTell(record.x, record.z, record.y, record.accepted,
                record.round >= 0 ? record.round : TellRound(record.x, record.z),
                record.constraints);
      if (!SameReward(observations_.back().imputed, record.imputed))
        throw std::runtime_error("a failed tell imputed " + FormatDouble(record.imputed) +
                                 " in the log, but " + FormatDouble(observations_.back().imputed) +
                                 " on replay");
      break;
    case LogRecordType::kFit:
      gp_->SetHyperparameters(record.log_params, record.noise_variance);
      if (record.constraint_log_params.size() != constraint_gps_.size())
        throw std::runtime_error(
            "a fit record holds " + std::to_string(record.constraint_log_params.size()) +
            " constraint models, the strategy has " + std::to_string(constraint_gps_.size()));
      for (std::size_t i = 0; i < constraint_gps_.size(); ++i)
        constraint_gps_[i]->SetHyperparameters(record.constraint_log_params[i],
                                               record.constraint_noise_variances[i]);
      last_fit_observations_ = gp_->num_observations();
      has_fit_report_ = true;
      last_fit_report_ = HyperparameterFitReport();
      last_fit_report_.success = true;
      last_fit_report_.kernel_log_params = record.log_params;
      last_fit_report_.noise_variance = record.noise_variance;
      last_fit_report_.message = "restored from the log";
      break;
    case LogRecordType::kRelease:
      RemovePending(record.x, record.z);
      break;
    case LogRecordType::kClearPending:
      pending_.clear();
      break;
    case LogRecordType::kHeader:
      throw std::runtime_error("a second header record in the log");
  }
}

// ---- Ask ------------------------------------------------------------------------------------

void Optimizer::CheckContextArg(const Eigen::VectorXd& z, const char* field) const {
  domain_.CheckContext(z, field);
}

Eigen::VectorXd Optimizer::Ask(const Eigen::VectorXd& context) {
  return AskBatch(1, context).col(0);
}

Eigen::MatrixXd Optimizer::AskBatch(int q, const Eigen::VectorXd& context) {
  Eigen::MatrixXd chosen;
  RoundReport report;
  std::function<void(const RoundReport&)> callback;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    chosen = AskLocked(q, context);
    report = last_round_report_;
    callback = round_callback_;
  }
  // Outside the lock, so that the callback may query the optimizer.
  if (callback) callback(report);
  return chosen;
}

void Optimizer::SetRoundCallback(std::function<void(const RoundReport&)> callback) {
  std::lock_guard<std::mutex> lock(mutex_);
  round_callback_ = std::move(callback);
}

RoundReport Optimizer::last_round_report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_round_report_;
}

void Optimizer::MaybeRefit(long round) {
  // Counted in model rows: failures with imputed rewards are data the fit must explain too.
  const int observed = gp_->num_observations();
  if (!options_.refit.enabled || observed == 0) return;
  if (!options_.refit.ShouldRefit(observed, std::max(0, last_fit_observations_))) return;
  if (last_fit_observations_ == observed) return;
  SaveFit();
  Rng rng = RoundRng(round, kStreamFit);
  const HyperparameterFitOptions fit = CautiousFitOptions(RefitOptions(observed));
  refitted_in_call_ = true;
  HyperparameterFitReport report = FitHyperparameters(fit, rng, gp_.get());
  // Refactorize once more from the final hyperparameters, exactly as a replay of the log does,
  // so that live and resumed runs hold bit-identical models.
  gp_->SetHyperparameters(gp_->kernel_log_params(), gp_->noise_variance());
  std::vector<Eigen::VectorXd> constraint_log_params;
  std::vector<double> constraint_noise_variances;
  RefitConstraints(fit, round, &constraint_log_params, &constraint_noise_variances);
  last_fit_observations_ = observed;
  has_fit_report_ = true;
  last_fit_report_ = std::move(report);
  Stage(FormatFitRecord(round, gp_->kernel_log_params(), gp_->noise_variance(),
                        last_fit_report_.BriefReport(), constraint_log_params,
                        constraint_noise_variances));
}

// One Ask/AskBatch call: q slots, each a design point or a model-driven choice, filled in order.
struct Optimizer::AskCall {
  long round = 0;
  Eigen::VectorXd z, unit_z;
  Eigen::MatrixXd chosen;             // action_dim x q, original units
  std::vector<long> design_index;     // per slot: the design point handed out, or -1 (model)
  std::vector<int> chosen_candidate;  // finite sets: the candidates this batch holds
  long design_next = 0;               // the design points handed out after this call
  int num_model = 0;                  // slots left to the model
  // For the round's report: per slot the acquisition value (NaN for design points), and the t
  // and figure of the first model-driven slot.
  std::vector<double> acquisition_values;
  int first_t = 0;
  double first_figure = kNaN;
};

// What every model-driven slot of a call shares.
struct Optimizer::ModelRound {
  RoundState state;
  Eigen::VectorXd unit_lower, unit_upper;  // the action box, context held fixed
  Eigen::MatrixXd unit_candidates;         // finite sets: every candidate under the context
  Eigen::MatrixXd observed_starts;         // boxes: the maximizer's starts at the best points
  BoxMaximizerOptions box_options;
};

Eigen::MatrixXd Optimizer::AskLocked(int q, const Eigen::VectorXd& z) {
  CheckAsk(q, z);  // everything is validated before anything changes
  const auto start = std::chrono::steady_clock::now();
  AskCall done;
  InStudy(
      [&] {
        refitted_in_call_ = false;
        AskCall call = TakeDesignPoints(q, z);
        if (call.num_model > 0) ChooseByModel(&call);
        done = call;
        return RecordPending(call);
      },
      Durability::kVisible);  // optimizer.h, "Shared studies": a lost pending record costs little
  RoundReport report;
  report.round = done.round;
  report.t = done.first_t;
  report.figure_name = figure_name_;
  report.figure = done.first_figure;
  report.acquisition_values = done.acquisition_values;
  report.num_design_points = q - done.num_model;
  report.fitted = refitted_in_call_;
  if (report.fitted) report.fit_report = last_fit_report_;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  last_round_report_ = std::move(report);
  return done.chosen;
}

void Optimizer::CheckAsk(int q, const Eigen::VectorXd& z) const {
  if (q < 1) throw std::invalid_argument("q must be >= 1, got " + std::to_string(q));
  CheckContextArg(z, "context");
  if (domain_.kind() == DomainKind::kFiniteSet && q > domain_.num_candidates()) {
    throw std::invalid_argument("q = " + std::to_string(q) + " exceeds the " +
                                std::to_string(domain_.num_candidates()) + " candidates");
  }
}

// The space-filling design serves the slots while fewer than its size of points are observed or
// in flight; the other slots are left to the model.
Optimizer::AskCall Optimizer::TakeDesignPoints(int q, const Eigen::VectorXd& z) const {
  AskCall call;
  call.round = rounds_;
  call.z = z;
  call.unit_z = domain_.ContextToUnit(z);
  call.chosen.resize(domain_.action_dim(), q);
  call.design_index.assign(static_cast<std::size_t>(q), -1);
  call.acquisition_values.assign(static_cast<std::size_t>(q), kNaN);
  call.design_next = design_handed_out_;
  const long design_size = design_.cols();
  const long told = static_cast<long>(observations_.size());
  const long active = std::count_if(pending_.begin(), pending_.end(),
                                    [this](const PendingPoint& p) { return Active(p); });
  for (int i = 0; i < q; ++i) {
    const long in_flight = told + active + i;
    if (call.design_next >= design_size || in_flight >= design_size) {
      ++call.num_model;
      continue;
    }
    call.design_index[static_cast<std::size_t>(i)] = call.design_next;
    if (domain_.kind() == DomainKind::kBox) {
      Eigen::VectorXd u(domain_.input_dim());
      u.head(domain_.action_dim()) = design_.col(call.design_next);
      call.chosen.col(i) = domain_.ActionFromUnit(u);
    } else {
      const int c = static_cast<int>(design_(0, call.design_next));
      call.chosen.col(i) = domain_.candidates().col(c);
      call.chosen_candidate.push_back(c);
    }
    ++call.design_next;
  }
  return call;
}

void Optimizer::ChooseByModel(AskCall* call) {
  MaybeRefit(call->round);
  Rng rng = RoundRng(call->round, kStreamChoose);
  // The rank-one posterior, when it applies, mirrors every hallucinated observation of the
  // scratch model; it is copied (O(N^2)) only when there are some.
  const bool rank_one = finite_model_ != nullptr && finite_model_->Sync(*gp_);
  std::unique_ptr<FiniteSetPosterior> finite_copy;
  // The copies (O(t^2), O(N^2)) are skipped in the common case of one point and nothing
  // pending.
  const std::unique_ptr<GaussianProcess> scratch_copy =
      HallucinatedCopy(*call, rank_one ? &finite_copy : nullptr);
  GaussianProcess& scratch = scratch_copy ? *scratch_copy : *gp_;
  const FiniteSetPosterior* finite = nullptr;
  if (rank_one) finite = finite_copy ? finite_copy.get() : &finite_model_->posterior();
  ModelRound m = PrepareModelRound(*call);
  const int q = static_cast<int>(call->chosen.cols());
  for (int i = 0; i < q; ++i) {
    if (call->design_index[static_cast<std::size_t>(i)] >= 0) continue;
    m.state.t = std::max(1, scratch.num_observations() + 1);
    strategy_->BeginRound(m.state);
    double value = kNaN;
    const Eigen::VectorXd action = safe_strategy() ? ChooseSafely(scratch, m, rng, call)
                                   : domain_.kind() == DomainKind::kFiniteSet
                                       ? ChooseCandidate(scratch, finite, m, rng, call, &value)
                                       : ChooseInBox(scratch, m, i, rng, *call, &value);
    call->chosen.col(i) = action;
    figure_ = strategy_->figure();
    call->acquisition_values[static_cast<std::size_t>(i)] = value;
    if (call->first_t == 0) {
      call->first_t = m.state.t;
      call->first_figure = figure_;
    }
    if (i + 1 < q) {
      const Eigen::VectorXd u = ModelInput(action, call->z, call->round);
      const double mean = scratch.Mean(u);
      scratch.AddObservation(u, mean);
      // q > 1 always hallucinates, so the rank-one posterior is the call's own copy.
      if (finite != nullptr)
        finite_copy->Observe(call->chosen_candidate.back(), mean - finite_model_->reference());
    }
  }
}

// GP-BUCB: pending points whose leases last (and this call's design points) are observed at
// their own posterior mean in a scratch copy, which shrinks the variance there without moving
// the mean; the real model never sees them. nullptr when there is nothing to hallucinate (one
// slot, nothing active pending): the model itself then serves as the scratch.
std::unique_ptr<GaussianProcess> Optimizer::HallucinatedCopy(
    const AskCall& call, std::unique_ptr<FiniteSetPosterior>* finite_copy) const {
  const bool any_active = std::any_of(pending_.begin(), pending_.end(),
                                      [this](const PendingPoint& p) { return Active(p); });
  if (!any_active && call.chosen.cols() == 1) return nullptr;
  auto scratch = std::make_unique<GaussianProcess>(*gp_);
  FiniteSetPosterior* finite = nullptr;
  if (finite_copy != nullptr) {
    *finite_copy = std::make_unique<FiniteSetPosterior>(finite_model_->posterior());
    finite = finite_copy->get();
  }
  auto hallucinate = [&](const Eigen::VectorXd& u) {
    const double mean = scratch->Mean(u);
    scratch->AddObservation(u, mean);
    if (finite == nullptr) return;
    // Pending points and design points of a finite set are candidates (Ask hands out nothing
    // else).
    const int c = finite_model_->CandidateIndex(u);
    if (c < 0) throw std::logic_error("a pending point of a finite set is not a candidate");
    finite->Observe(c, mean - finite_model_->reference());
  };
  for (const PendingPoint& p : pending_) {
    if (Active(p)) hallucinate(ModelInput(p.x, p.z, p.round));
  }
  for (Eigen::Index i = 0; i < call.chosen.cols(); ++i) {
    if (call.design_index[static_cast<std::size_t>(i)] < 0) continue;
    hallucinate(ModelInput(call.chosen.col(i), call.z, call.round));
  }
  return scratch;
}

Optimizer::ModelRound Optimizer::PrepareModelRound(const AskCall& call) const {
  ModelRound m;
  m.state.round = call.round;
  m.state.action_dim = domain_.action_dim();
  m.state.num_candidates = domain_.kind() == DomainKind::kFiniteSet ? domain_.num_candidates() : 0;
  FillModelStatistics(*gp_, &m.state);
  // The posterior means at the observations (O(t)) serve both the incumbent and the
  // maximizer's observed starts.
  std::vector<int> observed_index;
  const Eigen::VectorXd observed_means = ObservedMeans(observations_, *gp_, &observed_index);
  m.state.incumbent = observed_means.size() > 0 ? observed_means.maxCoeff()
                                                : -std::numeric_limits<double>::infinity();
  m.box_options = MaximizerOptions(options_);
  const int dim = domain_.action_dim();
  SearchBox(call.z, call.round, &m.unit_lower, &m.unit_upper);
  if (domain_.kind() == DomainKind::kFiniteSet) {
    m.unit_candidates = CandidateInputs(call.z, call.round);
  } else {
    m.observed_starts = WithRound(BestStarts(domain_, observations_, observed_means, observed_index,
                                             call.unit_z, options_.maximizer_observed_starts),
                                  call.round);
  }
  return m;
}

void Optimizer::SearchBox(const Eigen::VectorXd& z, long round, Eigen::VectorXd* lower,
                          Eigen::VectorXd* upper) const {
  *lower = Eigen::VectorXd::Zero(ModelDim());
  *upper = Eigen::VectorXd::Zero(ModelDim());
  upper->head(domain_.action_dim()) = UnitUpper();
  if (domain_.context_dim() > 0) {
    const Eigen::VectorXd unit_z = domain_.ContextToUnit(z);
    lower->segment(domain_.action_dim(), domain_.context_dim()) = unit_z;
    upper->segment(domain_.action_dim(), domain_.context_dim()) = unit_z;
  }
  if (has_time()) {
    (*lower)(domain_.input_dim()) = static_cast<double>(round);
    (*upper)(domain_.input_dim()) = static_cast<double>(round);
  }
}

Eigen::MatrixXd Optimizer::CandidateInputs(const Eigen::VectorXd& z, long round) const {
  Eigen::MatrixXd inputs(ModelDim(), domain_.num_candidates());
  for (int c = 0; c < domain_.num_candidates(); ++c)
    inputs.col(c) = ModelInput(domain_.candidates().col(c), z, round);
  return inputs;
}

Eigen::MatrixXd Optimizer::WithRound(const Eigen::MatrixXd& unit_inputs, long round) const {
  if (!has_time()) return unit_inputs;
  Eigen::MatrixXd inputs(ModelDim(), unit_inputs.cols());
  inputs.topRows(unit_inputs.rows()) = unit_inputs;
  inputs.row(unit_inputs.rows()).setConstant(static_cast<double>(round));
  return inputs;
}

// The argmax of the strategy's scores over the candidates this batch does not hold yet.
Eigen::VectorXd Optimizer::ChooseCandidate(const GaussianProcess& scratch,
                                           const FiniteSetPosterior* finite, const ModelRound& m,
                                           Rng& rng, AskCall* call, double* value) const {
  std::unique_ptr<CandidatePosterior> posterior;
  if (finite != nullptr) {
    posterior = std::make_unique<FiniteSetCandidatePosterior>(
        *finite, finite_model_->reference(), scratch.output_offset(), scratch.output_scale());
  } else {
    posterior = std::make_unique<GpCandidatePosterior>(scratch, m.unit_candidates);
  }
  const Eigen::VectorXd scores = strategy_->ScoreCandidates(*posterior, rng);
  Eigen::Array<bool, Eigen::Dynamic, 1> allowed =
      Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(domain_.num_candidates(), true);
  for (int c : call->chosen_candidate) allowed(c) = false;
  int best;
  try {
    best = FiniteArgmaxMasked(scores, allowed, options_.num_threads);
  } catch (const std::invalid_argument&) {
    // Every allowed score was NaN: take the first allowed candidate rather than fail.
    best = 0;
    while (!allowed(best)) ++best;
  }
  call->chosen_candidate.push_back(best);
  *value = scores(best);
  return domain_.candidates().col(best);
}

// The maximizer of the strategy's acquisition over the action box. A batch holds distinct
// points, distinct from the active pending points too: a repeat (possible for strategies whose
// argmax ignores the variance, like mean-only) is replaced by a uniform point of the box.
Eigen::VectorXd Optimizer::ChooseInBox(const GaussianProcess& scratch, const ModelRound& m,
                                       int slot, Rng& rng, const AskCall& call,
                                       double* value) const {
  const std::unique_ptr<ContinuousAcquisition> acquisition =
      strategy_->MakeContinuous(scratch, rng);
  const BoxMaximizerResult result = MaximizeOverBox(*acquisition, m.unit_lower, m.unit_upper,
                                                    m.observed_starts, m.box_options, rng);
  const Eigen::VectorXd action = domain_.ActionFromUnit(result.x);
  *value = result.value;
  bool repeat = false;
  for (int j = 0; j < slot; ++j) repeat = repeat || SameVector(call.chosen.col(j), action);
  for (const PendingPoint& p : pending_)
    repeat = repeat || (Active(p) && SameVector(p.x, action) && SameVector(p.z, call.z));
  if (!repeat) return action;
  Rng fallback = RoundRng(call.round * 1024 + slot, kStreamFallback);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  Eigen::VectorXd u = m.unit_lower;
  for (int d = 0; d < domain_.action_dim(); ++d) u(d) = m.unit_upper(d) * u01(fallback);
  *value = acquisition->Evaluate(u, nullptr);
  return domain_.ActionFromUnit(u);
}

// A safe strategy's choice (Strategy::ChooseSafe): the safety decisions on the models of the
// told observations, the widths on the scratch copy with the pending points hallucinated.
Eigen::VectorXd Optimizer::ChooseSafely(const GaussianProcess& scratch, const ModelRound& m,
                                        Rng& rng, AskCall* call) const {
  SafeRound round;
  round.reward = gp_.get();
  round.reward_for_widths = &scratch;
  round.reward_unit = std::ldexp(1.0, reward_exponent_);
  round.reward_sign = options_.sense == ObjectiveSense::kMinimize ? -1.0 : 1.0;
  for (const auto& c : constraint_gps_) round.constraints.push_back(c.get());
  round.candidates = m.unit_candidates;
  round.lower = m.unit_lower;
  round.upper = m.unit_upper;
  round.action_dim = domain_.action_dim();
  round.seeds.resize(domain_.input_dim(), unit_seeds_.cols());
  for (Eigen::Index s = 0; s < unit_seeds_.cols(); ++s) {
    round.seeds.col(s).head(domain_.action_dim()) = unit_seeds_.col(s);
    if (domain_.context_dim() > 0) round.seeds.col(s).tail(domain_.context_dim()) = call->unit_z;
  }
  const Eigen::VectorXd u = strategy_->ChooseSafe(round, rng);
  // A seed is handed out exactly as the strategy declared it (no unit-cube round trip).
  const Eigen::MatrixXd seeds = strategy_->safe_seeds();
  for (Eigen::Index s = 0; s < unit_seeds_.cols(); ++s)
    if (u.head(domain_.action_dim()) == unit_seeds_.col(s)) return seeds.col(s);
  if (domain_.kind() == DomainKind::kBox) return domain_.ActionFromUnit(u);
  // A finite set: the candidate itself, exactly as the domain holds it.
  for (int c = 0; c < domain_.num_candidates(); ++c) {
    if (m.unit_candidates.col(c) != u) continue;
    call->chosen_candidate.push_back(c);
    return domain_.candidates().col(c);
  }
  throw std::logic_error("strategy '" + strategy_name_ + "' chose a point that is no candidate");
}

// Logged (and made durable) before the points are handed out, each with this worker's lease.
std::function<void()> Optimizer::RecordPending(const AskCall& call) {
  const double lease_until = call_now_ + options_.worker.pending_lease_seconds;
  std::vector<PendingPoint> points;
  for (Eigen::Index i = 0; i < call.chosen.cols(); ++i) {
    points.push_back({call.chosen.col(i), call.z, call.round, worker_id_, lease_until});
    Stage(FormatPendingRecord(call.round, call.design_index[static_cast<std::size_t>(i)],
                              points.back().x, call.z, worker_id_, lease_until));
  }
  return [this, points, design_next = call.design_next, round = call.round] {
    pending_.insert(pending_.end(), points.begin(), points.end());
    design_handed_out_ = design_next;
    rounds_ = round + 1;
  };
}

// ---- Tell -----------------------------------------------------------------------------------

void Optimizer::Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y) {
  Tell(x, context, y, Eigen::VectorXd());
}

void Optimizer::Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
                     const Eigen::VectorXd& constraints) {
  std::lock_guard<std::mutex> lock(mutex_);
  CheckTell(x, context, y, "x", "context", "y");
  CheckConstraints(y, constraints);
  InStudy([&] {
    return StageTell(x, context, y, ImputedReward(), TellRound(x, context), constraints);
  });
}

void Optimizer::CheckConstraints(double y, const Eigen::VectorXd& constraints) const {
  const int m = num_constraints();
  const bool may_be_empty = m == 0 || !std::isfinite(y);
  if (constraints.size() != m && !(constraints.size() == 0 && may_be_empty))
    throw std::invalid_argument("constraints has " + std::to_string(constraints.size()) +
                                " values, but strategy '" + strategy_name_ + "' models " +
                                std::to_string(m) + " constraint signals" +
                                (m > 0 ? " (Tell(x, context, y, constraints))" : ""));
  for (Eigen::Index i = 0; i < constraints.size(); ++i)
    if (!std::isfinite(constraints(i)))
      throw std::invalid_argument("constraints[" + std::to_string(i) +
                                  "] is not finite: " + FormatDouble(constraints(i)));
}

void Optimizer::CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                          const std::string& x_field, const std::string& z_field,
                          const std::string& y_field) const {
  domain_.CheckAction(x, x_field);
  domain_.CheckContext(z, z_field);
  if (!std::isfinite(y) && options_.non_finite_rewards == NonFiniteRewardPolicy::kThrow) {
    std::ostringstream s;
    s << y_field << " is not finite: " << y
      << " (set OptimizerOptions::non_finite_rewards = kSkip or kImputeWorst to record it as "
         "failed)";
    throw std::invalid_argument(s.str());
  }
}

// imputed: what ApplyTell will impute for a failure (ImputedReward when it runs), logged so that
// a replay can check it.
// imputed is in the model's sense; the log holds it in the caller's (as Observation::imputed).
std::function<void()> Optimizer::StageTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                           double y, double imputed, long round,
                                           const Eigen::VectorXd& constraints) {
  const bool accepted = std::isfinite(y);
  Stage(FormatTellRecord(x, z, y, accepted, accepted ? kNaN : Reward(imputed), round, constraints));
  return [this, x = Eigen::VectorXd(x), z = Eigen::VectorXd(z), y, accepted, round,
          g = Eigen::VectorXd(constraints)] { ApplyTell(x, z, y, accepted, round, g); };
}

double Optimizer::ImputedReward() const { return ImputedReward(worst_reward_, num_accepted_); }

double Optimizer::ImputedReward(double worst, int accepted) const {
  if (options_.non_finite_rewards != NonFiniteRewardPolicy::kImputeWorst || accepted == 0)
    return kNaN;
  return worst;
}

void Optimizer::AddToModel(const Eigen::VectorXd& u, double y) {
  const int old_exponent = reward_exponent_;
  const double largest = std::max(largest_reward_magnitude_, std::abs(y));
  const int exponent = gp_->options().standardize_outputs ? RewardExponent(largest) : 0;
  if (exponent != old_exponent) gp_->ScaleOutputs(old_exponent - exponent);
  try {
    gp_->AddObservation(u, std::ldexp(y, -exponent));
  } catch (...) {
    if (exponent != old_exponent) gp_->ScaleOutputs(exponent - old_exponent);
    throw;
  }
  reward_exponent_ = exponent;
  largest_reward_magnitude_ = largest;
}

// The model sees Reward(y): the told value in the maximization sense.
void Optimizer::ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                          bool accepted, long round, const Eigen::VectorXd& constraints) {
  Observation observation{x, z, y, accepted, kNaN, constraints};
  observation.round = round;
  // The constraint models first: their inputs checked the same way, they cannot fail after the
  // reward's model has changed.
  for (Eigen::Index i = 0; i < constraints.size(); ++i)
    constraint_gps_[static_cast<std::size_t>(i)]->AddObservation(domain_.ToUnit(x, z),
                                                                 constraints(i));
  if (accepted) {
    AddToModel(ModelInput(x, z, round), Reward(y));
    ++num_accepted_;
    worst_reward_ = std::min(worst_reward_, Reward(y));
  } else {
    const double imputed = ImputedReward();
    observation.imputed = std::isnan(imputed) ? kNaN : Reward(imputed);
    if (!std::isnan(imputed)) AddToModel(ModelInput(x, z, round), imputed);
  }
  observations_.push_back(std::move(observation));
  RemovePending(x, z);
}

int Optimizer::PendingIndex(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  for (std::size_t j = 0; j < pending_.size(); ++j)
    if (SameVector(pending_[j].x, x) && SameVector(pending_[j].z, z)) return static_cast<int>(j);
  return -1;
}

bool Optimizer::RemovePending(const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  const int j = PendingIndex(x, z);
  if (j >= 0) pending_.erase(pending_.begin() + j);
  return j >= 0;
}

void Optimizer::TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z,
                         const Eigen::VectorXd& y) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (X.cols() != y.size())
    throw std::invalid_argument("X has " + std::to_string(X.cols()) + " columns but y has " +
                                std::to_string(y.size()) + " entries");
  if (X.rows() != domain_.action_dim() && X.cols() > 0)
    throw std::invalid_argument("X has " + std::to_string(X.rows()) +
                                " rows but the action dimension is " +
                                std::to_string(domain_.action_dim()));
  if (num_constraints() > 0)
    throw std::invalid_argument("TellMany carries no constraint signals, but strategy '" +
                                strategy_name_ + "' models " + std::to_string(num_constraints()) +
                                "; tell each observation with Tell(x, context, y, constraints)");
  const bool no_z = Z.size() == 0;
  if (!no_z && (Z.cols() != X.cols() || Z.rows() != domain_.context_dim()))
    throw std::invalid_argument(
        "Z is " + std::to_string(Z.rows()) + " x " + std::to_string(Z.cols()) + " but must be " +
        std::to_string(domain_.context_dim()) + " x " + std::to_string(X.cols()));
  auto column_z = [&](Eigen::Index j) {
    return no_z ? Eigen::VectorXd() : Eigen::VectorXd(Z.col(j));
  };
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const std::string at = "[" + std::to_string(j) + "]";
    CheckTell(X.col(j), column_z(j), y(j), "X.col" + at, "Z.col" + at, "y" + at);
  }
  InStudy([&] {
    // Every column is staged before the first is applied: the imputed rewards follow the worst
    // accepted reward column by column, as ApplyTell will.
    double worst = worst_reward_;
    int accepted = num_accepted_;
    std::vector<std::function<void()>> applies;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      applies.push_back(StageTell(X.col(j), column_z(j), y(j), ImputedReward(worst, accepted),
                                  TellRound(X.col(j), column_z(j))));
      if (std::isfinite(y(j))) {
        worst = std::min(worst, Reward(y(j)));
        ++accepted;
      }
    }
    return [applies] {
      for (const auto& apply : applies) apply();
    };
  });
}

void Optimizer::ClearPending() {
  std::lock_guard<std::mutex> lock(mutex_);
  InStudy([&] {
    Stage(FormatClearPendingRecord());
    return [this] { pending_.clear(); };
  });
}

// ---- Queries --------------------------------------------------------------------------------

Recommendation Optimizer::Best() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<int> index;
  const Eigen::VectorXd means = ObservedMeans(observations_, *gp_, &index);
  if (means.size() == 0) throw std::logic_error("Best: no accepted observation yet");
  Eigen::Index j_best = 0;
  means.maxCoeff(&j_best);  // the first of equal maxima
  const int best = index[static_cast<std::size_t>(j_best)];
  const double best_mean = means(j_best);
  const Observation& o = observations_[static_cast<std::size_t>(best)];
  Recommendation r;
  r.x = o.x;
  r.z = o.z;
  r.posterior_mean = Reward(std::ldexp(best_mean, reward_exponent_));
  r.observed_reward = o.y;
  return r;
}

Recommendation Optimizer::Best(const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  CheckContextArg(context, "context");
  return BestAtContext(context);
}

// The maximizer of the posterior mean at context z and the next round (rounds_).
Recommendation Optimizer::BestAtContext(const Eigen::VectorXd& z) const {
  Eigen::VectorXd action;
  if (domain_.kind() == DomainKind::kFiniteSet) {
    const Eigen::MatrixXd inputs = CandidateInputs(z, rounds_);
    Eigen::Index best = 0;
    double best_mean = -std::numeric_limits<double>::infinity();
    for (Eigen::Index c = 0; c < inputs.cols(); ++c) {
      const double mean = gp_->Mean(inputs.col(c));
      if (mean > best_mean) {
        best_mean = mean;
        best = c;
      }
    }
    action = domain_.candidates().col(best);
  } else {
    Rng rng = RoundRng(rounds_, kStreamBest);
    const std::unique_ptr<ContinuousAcquisition> mean = MeanOnly().MakeContinuous(*gp_, rng);
    Eigen::VectorXd lower, upper;
    SearchBox(z, rounds_, &lower, &upper);
    std::vector<int> index;
    const Eigen::VectorXd means = ObservedMeans(observations_, *gp_, &index);
    const Eigen::MatrixXd starts =
        WithRound(BestStarts(domain_, observations_, means, index, domain_.ContextToUnit(z),
                             options_.maximizer_observed_starts),
                  rounds_);
    action = domain_.ActionFromUnit(
        MaximizeOverBox(*mean, lower, upper, starts, MaximizerOptions(options_), rng).x);
  }
  Recommendation r;
  r.x = action;
  r.z = z;
  r.posterior_mean =
      Reward(std::ldexp(gp_->Mean(ModelInput(action, z, rounds_)), reward_exponent_));
  r.observed_reward = kNaN;
  for (const Observation& o : observations_)
    if (o.accepted && SameVector(o.x, action) && SameVector(o.z, z)) r.observed_reward = o.y;
  return r;
}

Prediction Optimizer::Predict(const Eigen::VectorXd& x, const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  domain_.CheckAction(x, "x");
  CheckContextArg(context, "context");
  double mean = 0, variance = 0;
  gp_->MeanAndVariance(ModelInput(x, context, rounds_), &mean, &variance);
  Prediction p;
  p.mean = Reward(std::ldexp(mean, reward_exponent_));
  p.stddev = std::ldexp(std::sqrt(std::max(variance, 0.0)), reward_exponent_);
  return p;
}

int Optimizer::t() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return gp_->num_observations() + 1;
}

double Optimizer::reward_unit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::ldexp(1.0, reward_exponent_);
}

long Optimizer::rounds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rounds_;
}

int Optimizer::num_accepted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_accepted_;
}

int Optimizer::num_failed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(observations_.size()) - num_accepted_;
}

std::vector<Observation> Optimizer::observations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return observations_;
}

Eigen::MatrixXd Optimizer::pending_actions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Eigen::MatrixXd m(domain_.action_dim(), static_cast<Eigen::Index>(pending_.size()));
  for (std::size_t j = 0; j < pending_.size(); ++j)
    m.col(static_cast<Eigen::Index>(j)) = pending_[j].x;
  return m;
}

Eigen::MatrixXd Optimizer::pending_contexts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Eigen::MatrixXd m(domain_.context_dim(), static_cast<Eigen::Index>(pending_.size()));
  for (std::size_t j = 0; j < pending_.size(); ++j)
    m.col(static_cast<Eigen::Index>(j)) = pending_[j].z;
  return m;
}

double Optimizer::figure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return figure_;
}

std::string Optimizer::figure_name() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return figure_name_;
}

double Optimizer::information_gain() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return gp_->InformationGain();
}

bool Optimizer::has_fit_report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return has_fit_report_;
}

HyperparameterFitReport Optimizer::last_fit_report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_fit_report_;
}

std::string Optimizer::Fingerprint() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Digest d;
  d.Add(rounds_);
  d.Add(design_handed_out_);
  d.Add(static_cast<long>(num_accepted_));
  d.Add(static_cast<long>(reward_exponent_));
  d.Add(static_cast<long>(last_fit_observations_));
  for (const Observation& o : observations_) {
    d.Add(o.x);
    d.Add(o.z);
    d.Add(o.y);
    d.Add(o.imputed);
    d.Add(static_cast<long>(o.accepted));
    d.Add(o.round);  // the time coordinate of a time model
  }
  d.Add(static_cast<long>(pending_.size()));
  for (const PendingPoint& p : pending_) {
    d.Add(p.x);
    d.Add(p.z);
  }
  d.Add(gp_->kernel_log_params());
  d.Add(gp_->noise_variance());
  d.Add(gp_->jitter());
  d.Add(gp_->output_offset());
  d.Add(gp_->output_scale());
  d.Add(static_cast<long>(gp_->num_observations()));
  // The model's predictions at a fixed probe stand in for its internal factor and weights.
  const Eigen::VectorXd probe = Eigen::VectorXd::Constant(ModelDim(), 0.37);
  double mean = 0, variance = 0;
  gp_->MeanAndVariance(probe, &mean, &variance);
  d.Add(mean);
  d.Add(variance);
  for (const auto& c : constraint_gps_) {
    c->MeanAndVariance(probe, &mean, &variance);
    d.Add(c->kernel_log_params());
    d.Add(c->noise_variance());
    d.Add(mean);
    d.Add(variance);
  }
  for (const Observation& o : observations_) d.Add(o.constraints);
  std::ostringstream s;
  s << "t=" << gp_->num_observations() + 1 << " told=" << observations_.size()
    << " pending=" << pending_.size() << " rounds=" << rounds_ << " digest=" << std::hex
    << std::setw(16) << std::setfill('0') << d.value();
  return s.str();
}

}  // namespace gpbandit
