#include "gpbandit/acquisition/gp_ts.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"
#include "gpbandit/acquisition/beta_schedule.h"
#include "gpbandit/kernel/kernel_features.h"
#include "numerics/cholesky.h"

namespace gpbandit {
namespace {

using internal::Fail;

// One posterior function sample (see gp_ts.h):
//   f_std(x) = v g(x) + k(x, X) c,  c = (K + s^2 I)^-1 (y_std - v (g(X) + e)),
// g(x) = w . phi(x) with w ~ N(0, I) and phi the kernel's random features; returned in original
// units: offset + scale * f_std(x). Immutable after construction.
class PathwiseSample : public ContinuousAcquisition {
 public:
  PathwiseSample(const GaussianProcess& gp, double v, int num_features, Rng& rng)
      : gp_(gp), kernel_(gp.kernel()), v_(v) {
    features_ = kernel_.DrawFeatures(num_features, rng);
    weights_ = StandardNormalVector(features_->size(), rng);
    const int t = gp.num_observations();
    if (t == 0) return;
    observed_ = gp.inputs();
    const double noise = gp.noise_variance() + gp.jitter();
    const Eigen::VectorXd noise_draw = StandardNormalVector(t, rng) * std::sqrt(noise);
    Eigen::VectorXd prior_at_observed(t);
    for (int i = 0; i < t; ++i) prior_at_observed(i) = Prior(observed_.col(i), nullptr);
    Eigen::MatrixXd K = kernel_.Gram(observed_);
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
    if (coefficients_.size() > 0) {
      // The update term k(x, X) c in one pass of the kernel's CrossWithPoint.
      thread_local KernelPointCache cache;
      kernel_.CrossWithPoint(x, observed_, gradient != nullptr, &cache);
      f += cache.values.dot(coefficients_);
      if (gradient != nullptr)
        kernel_.AccumulateWeightedGradientA(x, observed_, cache, coefficients_, 1.0, *gradient);
    }
    const double scale = gp_.output_scale();
    if (gradient != nullptr) *gradient *= scale;
    return gp_.output_offset() + scale * f;
  }

 private:
  // g(x) = w . phi(x); its gradient is added to *gradient (full input dimension) when non-null.
  double Prior(const ConstVectorRef& x, Eigen::VectorXd* gradient) const {
    thread_local Eigen::VectorXd phi;
    features_->Evaluate(x, &phi);
    if (gradient != nullptr) features_->AccumulateWeightedGradient(x, weights_, *gradient);
    return weights_.dot(phi);
  }

  const GaussianProcess& gp_;
  const Kernel& kernel_;
  double v_;
  std::unique_ptr<KernelFeatures> features_;
  Eigen::VectorXd weights_;       // w, one per feature
  Eigen::MatrixXd observed_;      // input_dim x t
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
  if (!internal::BoundFieldsAreValid(*this, error)) return false;
  if (!(fixed_scale >= 0.0) || !std::isfinite(fixed_scale))
    return Fail(error, "fixed_scale", fixed_scale, "must be finite and >= 0");
  if (num_features < 1) return Fail(error, "num_features", num_features, "must be >= 1");
  return true;
}

GpTs::GpTs(const GpTsOptions& options) : options_(options) {
  internal::ThrowIfInvalid(options_, "GpTsOptions");
  scale_ = options_.fixed_scale > 0.0
               ? options_.fixed_scale
               : GpTsScale(options_.rkhs_bound,
                           InitialNoiseBound(options_.noise_bound, options_.min_noise_bound), 0.0,
                           options_.delta);
}

void GpTs::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  if (options_.fixed_scale > 0.0) {
    scale_ = options_.fixed_scale;
    return;
  }
  const ConfidenceTerms terms =
      ResolveConfidenceTerms(options_.noise_bound, options_.min_noise_bound, options_.gamma, state);
  scale_ = GpTsScale(options_.rkhs_bound, terms.noise_bound, terms.gamma, options_.delta);
}

Eigen::VectorXd GpTs::ScoreCandidates(const CandidatePosterior& posterior, Rng& rng) const {
  return posterior.SampleJoint(1, scale_, rng).col(0);
}

void CheckContinuousGpTsKernel(const Kernel& kernel) {
  if (kernel.HasFeatures()) return;
  throw std::invalid_argument(
      "gp-ts: kernel '" + kernel.Describe() +
      "' provides no random features of its prior (Kernel::HasFeatures() is false), so GP-TS "
      "cannot draw a sample path on a box; use a finite candidate set (Domain::FiniteSet), where "
      "GP-TS samples the posterior jointly, or a kernel gpbandit ships");
}

std::unique_ptr<ContinuousAcquisition> GpTs::MakeContinuous(const GaussianProcess& gp,
                                                            Rng& rng) const {
  CheckContinuousGpTsKernel(gp.kernel());
  return std::make_unique<PathwiseSample>(gp, scale_, options_.num_features, rng);
}

void GpTs::CheckSupports(const Kernel& kernel, const SearchSpace& space) const {
  if (!space.finite_set) CheckContinuousGpTsKernel(kernel);
}

std::unique_ptr<Strategy> GpTs::Clone() const { return std::make_unique<GpTs>(*this); }

std::unique_ptr<Strategy> GpTs::Create(const StrategyParams& params) {
  return std::make_unique<GpTs>(internal::ReadOptions<GpTsOptions>(params, "gp-ts"));
}

std::string GpTs::OptionsJson() const { return internal::WriteOptions(options_); }

}  // namespace gpbandit
