#include "gpbandit/acquisition/gp_ts.h"

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <Eigen/Cholesky>

#include "gpbandit/acquisition/beta_schedule.h"
#include "gpbandit/acquisition/option_checks.h"
#include "gpbandit/acquisition/options_json.h"
#include "gpbandit/gp/cholesky.h"
#include "gpbandit/gp/stationary_kernel.h"

namespace gpbandit {
namespace {

using internal::Fail;

constexpr double kPi = 3.14159265358979323846;

// One posterior function sample (see gp_ts.h):
//   f_std(x) = v g(x) + k(x, X) c,  c = (K + s^2 I)^-1 (y_std - v (g(X) + e)),
// returned in original units: offset + scale * f_std(x). Immutable after construction.
class PathwiseSample : public ContinuousAcquisition {
 public:
  PathwiseSample(const GaussianProcess& gp, const StationaryKernel& kernel, double v,
                 int num_features, Rng& rng)
      : gp_(gp), kernel_(kernel), dims_(kernel.dims()), v_(v) {
    const int d = static_cast<int>(dims_.size());
    const int m = num_features;
    const Eigen::VectorXd lengthscales = kernel.lengthscales();
    // Spectral measure of the kernel: N(0, I / l^2) for SE; for Matern-nu the Student-t with
    // 2 nu degrees of freedom, i.e. N(0, I / l^2) divided by sqrt(G), G ~ Gamma(nu, 1 / nu).
    double nu = 0.0;
    switch (kernel.family()) {
      case StationaryFamily::kSquaredExponential: nu = 0.0; break;
      case StationaryFamily::kMatern12: nu = 0.5; break;
      case StationaryFamily::kMatern32: nu = 1.5; break;
      case StationaryFamily::kMatern52: nu = 2.5; break;
    }
    frequencies_ = StandardNormalMatrix(d, m, rng);
    if (nu > 0.0) {
      std::gamma_distribution<double> gamma(nu, 1.0 / nu);
      for (int j = 0; j < m; ++j) frequencies_.col(j) /= std::sqrt(gamma(rng));
    }
    for (int i = 0; i < d; ++i) {
      const double l = lengthscales.size() == 1 ? lengthscales(0) : lengthscales(i);
      frequencies_.row(i) /= l;
    }
    std::uniform_real_distribution<double> uniform(0.0, 2.0 * kPi);
    phases_.resize(m);
    for (int j = 0; j < m; ++j) phases_(j) = uniform(rng);
    weights_ = StandardNormalVector(m, rng) * std::sqrt(2.0 * kernel.variance() / m);

    const int t = gp.num_observations();
    if (t == 0) return;
    observed_ = gp.inputs();
    const double noise = gp.noise_variance() + gp.jitter();
    const Eigen::VectorXd noise_draw = StandardNormalVector(t, rng) * std::sqrt(noise);
    Eigen::VectorXd prior_at_observed(t);
    for (int i = 0; i < t; ++i) prior_at_observed(i) = Prior(observed_.col(i), nullptr);
    Eigen::MatrixXd K = kernel.Gram(observed_);
    K.diagonal().array() += noise;
    const JitteredCholesky chol = FactorizeWithJitter(K, gp.options().max_relative_jitter);
    if (!chol.ok) throw std::runtime_error("gp-ts: the Gram matrix could not be factorized");
    const Eigen::VectorXd rhs = gp.standardized_outputs() - v_ * (prior_at_observed + noise_draw);
    const auto L = chol.lower.triangularView<Eigen::Lower>();
    coefficients_ = L.transpose().solve(L.solve(rhs));
  }

  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    if (gradient != nullptr) gradient->setZero(x.size());
    double f = v_ * Prior(x, gradient);
    if (gradient != nullptr) *gradient *= v_;
    for (int i = 0; i < coefficients_.size(); ++i) {
      f += coefficients_(i) * kernel_.Value(x, observed_.col(i));
      if (gradient != nullptr)
        kernel_.AccumulateGradientA(x, observed_.col(i), coefficients_(i), *gradient);
    }
    const double scale = gp_.output_scale();
    if (gradient != nullptr) *gradient *= scale;
    return gp_.output_offset() + scale * f;
  }

 private:
  // g(x) = sum_j w_j cos(omega_j . x_dims + b_j), with the amplitude folded into w; its gradient
  // is added to *gradient (full input dimension) when non-null.
  double Prior(const ConstVectorRef& x, Eigen::VectorXd* gradient) const {
    const int d = static_cast<int>(dims_.size());
    Eigen::VectorXd xs(d);
    for (int i = 0; i < d; ++i) xs(i) = x(dims_[i]);
    const Eigen::VectorXd angles = frequencies_.transpose() * xs + phases_;
    double g = 0.0;
    Eigen::VectorXd sines;
    if (gradient != nullptr) sines.resize(angles.size());
    for (int j = 0; j < angles.size(); ++j) {
      g += weights_(j) * std::cos(angles(j));
      if (gradient != nullptr) sines(j) = -weights_(j) * std::sin(angles(j));
    }
    if (gradient != nullptr) {
      const Eigen::VectorXd gs = frequencies_ * sines;
      for (int i = 0; i < d; ++i) (*gradient)(dims_[i]) += gs(i);
    }
    return g;
  }

  const GaussianProcess& gp_;
  const StationaryKernel& kernel_;
  std::vector<int> dims_;
  double v_;
  Eigen::MatrixXd frequencies_;  // |dims| x m, already divided by the lengthscales
  Eigen::VectorXd phases_;       // m
  Eigen::VectorXd weights_;      // m, times sqrt(2 s2 / m)
  Eigen::MatrixXd observed_;     // input_dim x t
  Eigen::VectorXd coefficients_;  // t
};

}  // namespace

void to_json(nlohmann::json& j, const GpTsOptions& o) {
  j = {{"fixed_scale", o.fixed_scale}, {"num_features", o.num_features}};
  internal::WriteBoundFields(o, &j);
}

void from_json(const nlohmann::json& j, GpTsOptions& o) {
  internal::OptionsReader reader(j);
  internal::ReadBoundFields(&reader, &o);
  reader.Read("fixed_scale", &o.fixed_scale);
  reader.Read("num_features", &o.num_features);
  reader.Finish();
}

bool GpTsOptions::IsValid(std::string* error) const {
  if (!(rkhs_bound >= 0.0) || !std::isfinite(rkhs_bound))
    return Fail(error, "rkhs_bound", rkhs_bound, "must be finite and >= 0");
  if (!std::isfinite(noise_bound)) return Fail(error, "noise_bound", noise_bound, "must be finite");
  if (!(min_noise_bound >= 0.0) || !std::isfinite(min_noise_bound))
    return Fail(error, "min_noise_bound", min_noise_bound, "must be finite and >= 0");
  if (!(delta > 0.0 && delta < 1.0)) return Fail(error, "delta", delta, "must be in (0, 1)");
  if (!(fixed_scale >= 0.0) || !std::isfinite(fixed_scale))
    return Fail(error, "fixed_scale", fixed_scale, "must be finite and >= 0");
  if (num_features < 1) return Fail(error, "num_features", num_features, "must be >= 1");
  return gamma.IsValid(error);
}

GpTs::GpTs(const GpTsOptions& options) : options_(options) {
  internal::ThrowIfInvalid(options_, "GpTsOptions");
  scale_ = options_.fixed_scale > 0.0
               ? options_.fixed_scale
               : GpTsScale(options_.rkhs_bound,
                           InitialNoiseBound(options_.noise_bound, options_.min_noise_bound),
                           0.0, options_.delta);
}

void GpTs::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  if (options_.fixed_scale > 0.0) {
    scale_ = options_.fixed_scale;
    return;
  }
  const ConfidenceTerms terms = ResolveConfidenceTerms(
      options_.noise_bound, options_.min_noise_bound, options_.gamma, state);
  scale_ = GpTsScale(options_.rkhs_bound, terms.noise_bound, terms.gamma, options_.delta);
}

Eigen::VectorXd GpTs::ScoreCandidates(const CandidatePosterior& posterior, Rng& rng) const {
  return posterior.SampleJoint(1, scale_, rng).col(0);
}

std::unique_ptr<ContinuousAcquisition> GpTs::MakeContinuous(const GaussianProcess& gp,
                                                             Rng& rng) const {
  const auto* kernel = dynamic_cast<const StationaryKernel*>(&gp.kernel());
  if (kernel == nullptr)
    throw std::invalid_argument("gp-ts: kernel '" + gp.kernel().Describe() +
                                "' is not stationary (SE/Matern); continuous GP-TS draws random "
                                "Fourier features and needs one. Use a finite candidate set.");
  return std::make_unique<PathwiseSample>(gp, *kernel, scale_, options_.num_features, rng);
}

std::unique_ptr<Strategy> GpTs::Clone() const { return std::make_unique<GpTs>(*this); }

std::unique_ptr<Strategy> GpTs::Create(const StrategyParams& params) {
  return std::make_unique<GpTs>(internal::ReadOptions<GpTsOptions>(params, "gp-ts"));
}

std::string GpTs::OptionsJson() const { return internal::WriteOptions(options_); }

}  // namespace gpbandit
