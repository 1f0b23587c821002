#include "model/signal_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "gpbandit/kernel/kernel_factory.h"
namespace gpbandit {
namespace {
// The default lengthscale of a signal's model, a fraction of the box's width: the Optimizer's
// default kernel starts safe strategies there too (model/default_model.h).
constexpr double kDefaultLengthscale = 0.3;
// The prior on log s2 about log rms^2: wide enough to let the data speak (the default reward
// kernel's prior on standardized outputs has the same width).
constexpr double kAmplitudePriorStddevLog = 1.5;
// The prior on each log lengthscale about its initial value.
constexpr double kLengthscalePriorStddevLog = 1.0;
// How far a fitted amplitude may range about the observed spread, and the widest noise.
constexpr double kAmplitudeRange = 1e3;
constexpr double kMaxNoiseOverSpread = 10.0;
// The noise floor when neither a floor nor a noise is given (relative to the spread): keeps
// K + noise I factorizable with repeated points.
constexpr double kTinyNoise = 1e-10;
// The half-width of the bounds that hold a log-param fixed in a fit.
constexpr double kFixed = 1e-9;

GaussianProcessOptions SignalGpOptions(const GaussianProcessOptions& base,
                                       const SignalModelOptions& options) {
  GaussianProcessOptions o = base;
  o.standardize_outputs = false;
  o.noise_variance = std::isnan(options.noise_stddev)
                         ? std::max(options.noise_floor * options.noise_floor, 1e-6)
                         : options.noise_stddev * options.noise_stddev;
  return o;
}

int FirstOfKind(const std::vector<ParamKind>& kinds, ParamKind kind) {
  for (std::size_t j = 0; j < kinds.size(); ++j)
    if (kinds[j] == kind) return static_cast<int>(j);
  return -1;
}

}  // namespace

std::unique_ptr<Kernel> MakeSignalKernel(const SignalModelOptions& options, int action_dim,
                                         int context_dim) {
  const std::string family = options.kernel.empty() ? "matern52" : options.kernel;
  const int dim = action_dim + context_dim;
  const std::size_t given = options.lengthscales.size();
  if (given != 0 && given != 1 && given != static_cast<std::size_t>(dim))
    throw std::invalid_argument("signal model lengthscales has " + std::to_string(given) +
                                " entries: give 1, or one per coordinate of [action; context] (" +
                                std::to_string(dim) + ")");
  std::unique_ptr<Kernel> kernel;
  if (context_dim == 0) {
    kernel = MakeKernel(family, FirstDims(action_dim), true, 1.0, kDefaultLengthscale);
  } else {
    std::vector<std::unique_ptr<Kernel>> parts;
    parts.push_back(MakeKernel(family, FirstDims(action_dim), true, 1.0, kDefaultLengthscale));
    parts.push_back(
        MakeKernel(family, DimRange(action_dim, context_dim), true, 1.0, kDefaultLengthscale));
    kernel = MakeProduct(std::move(parts));
  }
  if (given == 0) return kernel;
  // Lengthscales in the order of the coordinates: the kernels above list theirs so.
  Eigen::VectorXd log_params = kernel->GetLogParams();
  const std::vector<ParamKind> kinds = kernel->ParamKinds();
  std::size_t k = 0;
  for (std::size_t j = 0; j < kinds.size(); ++j)
    if (kinds[j] == ParamKind::kLengthscale)
      log_params(static_cast<Eigen::Index>(j)) =
          std::log(options.lengthscales[given == 1 ? 0 : k++]);
  kernel->SetLogParams(log_params);
  return kernel;
}

SignalModel::SignalModel(double threshold, const SignalModelOptions& options,
                         std::unique_ptr<Kernel> kernel, int input_dim, int context_dim,
                         const GaussianProcessOptions& gp_options)
    : threshold_(threshold),
      center_(std::isnan(options.prior_mean) ? threshold : options.prior_mean),
      context_dim_(context_dim),
      options_(options),
      posterior_(std::move(kernel), input_dim, SignalGpOptions(gp_options, options)) {
  if (!std::isfinite(threshold))
    throw std::invalid_argument("a safety signal's threshold must be finite");
  if (context_dim < 0 || context_dim > input_dim)
    throw std::invalid_argument("a safety signal's model has " + std::to_string(context_dim) +
                                " context coordinates of " + std::to_string(input_dim));
  // Until the unit is known the model is in told units: amplitude stddev^2, or 1.
  Eigen::VectorXd log_params = gp().kernel_log_params();
  const int amplitude = FirstOfKind(gp().kernel().ParamKinds(), ParamKind::kSignalVariance);
  if (amplitude >= 0 && !std::isnan(options_.stddev))
    log_params(amplitude) = 2.0 * std::log(options_.stddev);
  mutable_gp().SetHyperparameters(log_params, gp().noise_variance());
  initial_log_params_ = gp().kernel_log_params();
}

void SignalModel::SetUnit(double unit) {
  unit_ = unit;
  unit_set_ = true;
  // The initial hyperparameters in model units; the outputs so far are all 0 (g == c) and stay
  // so.
  Eigen::VectorXd log_params = gp().kernel_log_params();
  const int amplitude = FirstOfKind(gp().kernel().ParamKinds(), ParamKind::kSignalVariance);
  if (amplitude >= 0)
    log_params(amplitude) =
        2.0 * std::log(std::isnan(options_.stddev) ? 1.0 : options_.stddev / unit);
  double noise = std::max(options_.noise_floor * options_.noise_floor, 1e-6);
  if (!std::isnan(options_.noise_stddev))
    noise = std::max(noise, std::pow(options_.noise_stddev / unit, 2));
  mutable_gp().SetHyperparameters(log_params, noise);
  initial_log_params_ = gp().kernel_log_params();
}

void SignalModel::Add(const Eigen::VectorXd& u, double told) {
  if (!std::isfinite(told)) throw std::invalid_argument("a safety signal's value is not finite");
  const double distance = std::abs(told - center_);
  if (unit_set_ || !(distance > 0.0)) {
    mutable_gp().AddObservation(u, (told - center_) / unit_);  // unchanged if it throws
    return;
  }
  SignalModel before = *this;
  SetUnit(distance);
  try {
    mutable_gp().AddObservation(u, (told - center_) / unit_);
  } catch (...) {
    *this = std::move(before);
    throw;
  }
}

double SignalModel::MeanSquare() const {
  if (gp().num_observations() == 0) return 1.0;
  const double mean_square = gp().outputs().squaredNorm() / gp().num_observations();
  return mean_square > 0.0 ? mean_square : 1.0;
}

double SignalModel::LargestSquare() const {
  if (gp().num_observations() == 0) return 0.0;
  return gp().outputs().cwiseAbs2().maxCoeff();
}

HyperparameterFitOptions SignalModel::FitOptions(const HyperparameterFitOptions& base) const {
  HyperparameterFitOptions fit = base;
  const std::vector<ParamKind> kinds = gp().kernel().ParamKinds();
  const int amplitude = FirstOfKind(kinds, ParamKind::kSignalVariance);
  const double spread = MeanSquare();
  fit.lower_log_bounds.assign(kinds.size(), 0.0);
  fit.upper_log_bounds.assign(kinds.size(), 0.0);
  fit.kernel_priors.assign(kinds.size(), LogNormalPrior());
  // The lengthscales come in the order of the coordinates, the contexts' last.
  const int first_context = gp().input_dim() - context_dim_;
  int coordinate = 0;
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    const double initial = initial_log_params_(static_cast<Eigen::Index>(j));
    double lower = initial - kFixed, upper = initial + kFixed;  // held fixed unless below
    if (kinds[j] == ParamKind::kLengthscale) {
      lower = std::log(base.min_lengthscale);
      upper = options_.cautious ? initial : std::log(base.max_lengthscale);
      const bool context = coordinate++ >= first_context;
      if (context && options_.cautious && options_.lengthscales.empty())
        upper = std::max(upper, std::log(options_.context_lengthscale_cap));
      if (!(lower < upper)) lower = upper - 1.0;
      fit.kernel_priors[j] = {initial, kLengthscalePriorStddevLog};
    } else if (static_cast<int>(j) == amplitude) {
      lower = options_.cautious ? initial : std::log(spread / kAmplitudeRange);
      if (options_.cautious && options_.stddev_covers_measured)
        lower = std::max(lower, std::log(LargestSquare()));
      upper = std::max(std::log(spread * kAmplitudeRange), lower + 1.0);
      fit.kernel_priors[j] = {std::log(spread), kAmplitudePriorStddevLog};
    } else if (kinds[j] == ParamKind::kPeriod) {
      lower = std::log(base.min_period);
      upper = std::log(base.max_period);
    }
    fit.lower_log_bounds[j] = lower;
    fit.upper_log_bounds[j] = upper;
  }
  fit.start_min_signal_variance = spread / 10.0;
  fit.start_max_signal_variance = spread * 10.0;
  double floor = options_.noise_floor * options_.noise_floor * spread;
  if (!std::isnan(options_.noise_stddev))
    floor = std::max(floor, std::pow(options_.noise_stddev / unit_, 2));
  if (!(floor > 0.0)) floor = kTinyNoise * spread;
  fit.fit_noise = true;
  fit.noise_prior = LogNormalPrior();
  fit.min_noise_variance = floor;
  fit.max_noise_variance = std::max(kMaxNoiseOverSpread * spread, 100.0 * floor);
  fit.start_min_noise_variance = floor;
  fit.start_max_noise_variance = std::max(10.0 * floor, 0.3 * spread);
  return fit;
}

bool SignalModel::Refit(const HyperparameterFitOptions& base, Rng& rng) {
  if (!options_.fit || gp().num_observations() == 0) return false;
  FitHyperparameters(FitOptions(base), rng, &mutable_gp());
  // Refactorized from the final values, exactly as a replay of the fit record does.
  mutable_gp().SetHyperparameters(gp().kernel_log_params(), gp().noise_variance());
  return true;
}

void SignalModel::SetHyperparameters(const Eigen::VectorXd& log_params, double noise_variance) {
  mutable_gp().SetHyperparameters(log_params, noise_variance);
}

double SignalModel::max_observed() const {
  return gp().num_observations() > 0 ? gp().outputs().maxCoeff()
                                     : std::numeric_limits<double>::infinity();
}

double PriorStddev(const GaussianProcess& gp) {
  const Eigen::MatrixXd centre = Eigen::MatrixXd::Constant(gp.input_dim(), 1, 0.5);
  return gp.output_scale() * std::sqrt(std::max(gp.kernel().Diagonal(centre)(0), 0.0));
}

}  // namespace gpbandit
