#include "model/signal_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "gpbandit/acquisition/fidelity_rule.h"
#include "gpbandit/kernel/fidelity_kernels.h"
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

// The part of a joint kernel (kernel/fidelity_kernels.h) each log-param belongs to, -1 for the
// mixing parameters; every param is part 0's for any other kernel.
std::vector<int> SignalParamParts(const Kernel& kernel) {
  std::vector<int> parts(static_cast<std::size_t>(kernel.NumParams()), 0);
  const auto* joint = dynamic_cast<const FidelityKernel*>(&kernel);
  if (joint == nullptr) return parts;
  std::size_t j = 0;
  for (int l = 0; l < joint->num_parts(); ++l)
    for (int p = 0; p < joint->part(l).NumParams(); ++p) parts[j++] = l;
  for (; j < parts.size(); ++j) parts[j] = -1;
  return parts;
}

// Per log-param: whether it is the first signal variance of its part (the part's amplitude).
std::vector<bool> PartAmplitudes(const std::vector<ParamKind>& kinds,
                                 const std::vector<int>& parts) {
  std::vector<bool> first(kinds.size(), false);
  int last_part = -1;
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    if (parts[j] < 0 || parts[j] == last_part || kinds[j] != ParamKind::kSignalVariance) continue;
    first[j] = true;
    last_part = parts[j];
  }
  return first;
}

// The range of the joint kernel's signed mixing parameters (FidelityFactorKind's).
constexpr double kFactorBound = 5.0;
// How far the ICM's kappa and the further parts' amplitudes may move (factor).
constexpr double kMixingRange = 1e3;

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
                         const GaussianProcessOptions& gp_options, const SignalFidelity& fidelity)
    : threshold_(threshold),
      center_(std::isnan(options.prior_mean) ? threshold : options.prior_mean),
      context_dim_(context_dim),
      options_(options),
      posterior_(std::move(kernel), input_dim, SignalGpOptions(gp_options, options)),
      fidelity_(fidelity) {
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
    AfterAdd();
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
  AfterAdd();
}

// With fidelities the unit may come from a simulator's first value, far closer to the limit
// than the target's: the floor of the target's prior variance (the largest v^2 measured) is kept
// at once, not only at the next fit, so that no answer between a tell and the next refit is
// more confident than the cautious rule allows.
void SignalModel::AfterAdd() {
  if (fidelity_.active() && options_.cautious && options_.stddev_covers_measured)
    RaiseTargetVariance(std::exp(AmplitudeFloorLog()));
  UpdateDecisionModel();
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
  const std::vector<int> parts = SignalParamParts(gp().kernel());
  const std::vector<bool> amplitudes = PartAmplitudes(kinds, parts);
  const double spread = MeanSquare();
  fit.lower_log_bounds.assign(kinds.size(), 0.0);
  fit.upper_log_bounds.assign(kinds.size(), 0.0);
  fit.kernel_priors.assign(kinds.size(), LogNormalPrior());
  // Each part's lengthscales come in the order of [action; context], the contexts' last.
  const int spatial_dim = gp().input_dim() - (fidelity_.active() ? 1 : 0);
  const int first_context = spatial_dim - context_dim_;
  int coordinate = 0;
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    const double initial = initial_log_params_(static_cast<Eigen::Index>(j));
    double lower = initial - kFixed, upper = initial + kFixed;  // held fixed unless below
    if (parts[j] < 0) {
      // The joint kernel's mixing: the signed factors within their kind's range, kappa about
      // its initial value.
      const bool factor = kinds[j] == FidelityFactorKind();
      lower = factor ? -kFactorBound : initial - std::log(kMixingRange);
      upper = factor ? kFactorBound : initial + std::log(kMixingRange);
      // kappa, each level's own share: about its initial value unless the data say otherwise,
      // as the autoregressive model's errors are about the spread.
      if (!factor) fit.kernel_priors[j] = {initial, kAmplitudePriorStddevLog};
    } else if (kinds[j] == ParamKind::kLengthscale) {
      lower = std::log(base.min_lengthscale);
      upper = options_.cautious ? initial : std::log(base.max_lengthscale);
      const int at = coordinate++;
      const bool context = (fidelity_.active() ? at % spatial_dim : at) >= first_context;
      if (context && options_.cautious && options_.lengthscales.empty())
        upper = std::max(upper, std::log(options_.context_lengthscale_cap));
      if (!(lower < upper)) lower = upper - 1.0;
      fit.kernel_priors[j] = {initial, kLengthscalePriorStddevLog};
    } else if (amplitudes[j] && parts[j] == 0) {
      lower = options_.cautious ? AmplitudeFloorLog() : std::log(spread / kAmplitudeRange);
      upper = std::max(std::log(spread * kAmplitudeRange), lower + 1.0);
      fit.kernel_priors[j] = {std::log(spread), kAmplitudePriorStddevLog};
    } else if (amplitudes[j]) {
      // A further part of the joint kernel: the error of a fidelity, fitted either way.
      lower = std::log(spread / kMixingRange);
      upper = std::log(spread * kMixingRange);
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
  if (fidelity_.active() && options_.cautious) RaiseTargetVariance(std::exp(AmplitudeFloorLog()));
  // Refactorized from the final values, exactly as a replay of the fit record does.
  mutable_gp().SetHyperparameters(gp().kernel_log_params(), gp().noise_variance());
  UpdateDecisionModel();
  return true;
}

void SignalModel::SetHyperparameters(const Eigen::VectorXd& log_params, double noise_variance) {
  mutable_gp().SetHyperparameters(log_params, noise_variance);
  UpdateDecisionModel();
}

double SignalModel::AmplitudeFloorLog() const {
  const int amplitude = FirstOfKind(gp().kernel().ParamKinds(), ParamKind::kSignalVariance);
  double floor = amplitude >= 0 ? initial_log_params_(amplitude) : 0.0;
  if (options_.stddev_covers_measured) floor = std::max(floor, std::log(LargestSquare()));
  return floor;
}

Eigen::VectorXd SignalModel::Centre(int fidelity) const {
  Eigen::VectorXd centre = Eigen::VectorXd::Constant(gp().input_dim(), 0.5);
  if (fidelity_.active()) centre(fidelity_.dim) = fidelity;
  return centre;
}

Eigen::VectorXd SignalModel::AtTarget(const Eigen::VectorXd& u) const {
  if (!fidelity_.active()) return u;
  Eigen::VectorXd input(u.size() + 1);
  input << u, static_cast<double>(fidelity_.target);
  return input;
}

double SignalModel::prior_stddev() const {
  const Eigen::MatrixXd centre = Centre(fidelity_.target);
  return gp().output_scale() * std::sqrt(std::max(gp().kernel().Diagonal(centre)(0), 0.0));
}

// Scaling every part's amplitude by one factor scales the joint kernel, hence the target's
// prior variance, by it; the mixing parameters (the relation) stay as fitted.
void SignalModel::RaiseTargetVariance(double floor) {
  const Eigen::VectorXd centre = Centre(fidelity_.target);
  const double variance = gp().kernel().Diagonal(centre)(0);
  if (!(variance > 0.0) || variance >= floor) return;
  Eigen::VectorXd log_params = gp().kernel_log_params();
  const std::vector<ParamKind> kinds = gp().kernel().ParamKinds();
  const std::vector<bool> amplitudes = PartAmplitudes(kinds, SignalParamParts(gp().kernel()));
  const double raise = std::log(floor / variance);
  for (std::size_t j = 0; j < kinds.size(); ++j)
    if (amplitudes[j]) log_params(static_cast<Eigen::Index>(j)) += raise;
  mutable_gp().SetHyperparameters(log_params, gp().noise_variance());
}

std::vector<double> SignalModel::TargetCorrelations() const {
  if (!fidelity_.active()) return {};
  const Eigen::VectorXd correlation = CorrelationWithTarget(FidelityPriorCovariance(
      gp().kernel(), Centre(fidelity_.target), fidelity_.dim, fidelity_.target + 1));
  return std::vector<double>(correlation.data(), correlation.data() + fidelity_.target);
}

void SignalModel::UpdateDecisionModel() {
  gated_.reset();
  if (!fidelity_.active() || gp().num_observations() == 0) return;
  const std::vector<double> correlations = TargetCorrelations();
  std::vector<bool> kept(correlations.size() + 1, true);
  bool any_gated = false;
  for (std::size_t m = 0; m < correlations.size(); ++m)
    if (!(correlations[m] >= fidelity_.min_correlation)) kept[m] = false;
  const Eigen::MatrixXd X = gp().inputs();
  const Eigen::VectorXd y = gp().outputs();
  std::vector<Eigen::Index> rows;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const auto level = static_cast<std::size_t>(std::lround(X(fidelity_.dim, j)));
    if (level < kept.size() && kept[level])
      rows.push_back(j);
    else
      any_gated = true;
  }
  if (!any_gated) return;
  auto gated =
      std::make_shared<GaussianProcess>(gp().kernel().Clone(), gp().input_dim(), gp().options());
  gated->SetHyperparameters(gp().kernel_log_params(), gp().noise_variance());
  Eigen::MatrixXd Xk(X.rows(), static_cast<Eigen::Index>(rows.size()));
  Eigen::VectorXd yk(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t k = 0; k < rows.size(); ++k) {
    Xk.col(static_cast<Eigen::Index>(k)) = X.col(rows[k]);
    yk(static_cast<Eigen::Index>(k)) = y(rows[k]);
  }
  if (!rows.empty()) gated->AddObservations(Xk, yk);
  gated_ = std::move(gated);
}

// At the target when it was measured there: a simulator's margins never raise the cap.
double SignalModel::max_observed() const {
  if (gp().num_observations() == 0) return std::numeric_limits<double>::infinity();
  const Eigen::VectorXd y = gp().outputs();
  if (!fidelity_.active()) return y.maxCoeff();
  const Eigen::MatrixXd X = gp().inputs();
  double at_target = -std::numeric_limits<double>::infinity();
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    if (std::lround(X(fidelity_.dim, j)) == fidelity_.target) at_target = std::max(at_target, y(j));
  return std::isfinite(at_target) ? at_target : y.maxCoeff();
}

double PriorStddev(const GaussianProcess& gp) {
  const Eigen::MatrixXd centre = Eigen::MatrixXd::Constant(gp.input_dim(), 1, 0.5);
  return gp.output_scale() * std::sqrt(std::max(gp.kernel().Diagonal(centre)(0), 0.0));
}

}  // namespace gpbandit
