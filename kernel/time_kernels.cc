#include "gpbandit/kernel/time_kernels.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

void CheckTimeDim(const std::string& who, int time_dim) {
  if (time_dim < 0)
    throw std::invalid_argument(who + ": time_dim = " + std::to_string(time_dim) +
                                ": must be >= 0");
}

void CheckEpsilon(const std::string& who, double epsilon) {
  if (!(epsilon > 0.0 && epsilon < 1.0))
    throw std::invalid_argument(who + ": epsilon = " + FormatDouble(epsilon) +
                                ": must be in (0, 1)");
}

}  // namespace

ForgettingKernel::ForgettingKernel(int time_dim, double epsilon, bool fit_epsilon)
    : time_dim_(time_dim), epsilon_(epsilon), fit_epsilon_(fit_epsilon) {
  CheckTimeDim("ForgettingKernel", time_dim);
  CheckEpsilon("ForgettingKernel", epsilon);
  log_epsilon_ = std::log(epsilon);
}

std::unique_ptr<Kernel> ForgettingKernel::Clone() const {
  return std::make_unique<ForgettingKernel>(*this);
}

std::string ForgettingKernel::Describe() const {
  return "forgetting(dim=" + std::to_string(time_dim_) +
         (fit_epsilon_ ? "; fitted" : "; eps=" + FormatDouble(epsilon_)) + ")";
}

Eigen::VectorXd ForgettingKernel::GetLogParams() const {
  if (!fit_epsilon_) return Eigen::VectorXd();
  return Eigen::VectorXd::Constant(1, log_epsilon_);
}

void ForgettingKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams("ForgettingKernel", NumParams(), log_params);
  if (!fit_epsilon_) return;
  if (!(log_params(0) < 0.0))
    throw std::invalid_argument("ForgettingKernel: log_epsilon = " + FormatDouble(log_params(0)) +
                                ": must be < 0 (epsilon < 1)");
  // The log-param is kept as given, so that GetLogParams returns it bit for bit (a replayed fit
  // then rebuilds the same kernel).
  log_epsilon_ = log_params(0);
  epsilon_ = std::exp(log_epsilon_);
}

std::vector<std::string> ForgettingKernel::ParamNames() const {
  if (!fit_epsilon_) return {};
  return {"forgetting.log_epsilon"};
}

std::vector<ParamKind> ForgettingKernel::ParamKinds() const {
  if (!fit_epsilon_) return {};
  return {ParamKind::kOther};
}

double ForgettingKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  // (1 - eps)^{|d| / 2} through log1p, exact for eps far below 1.
  const double d = std::abs(a(time_dim_) - b(time_dim_));
  return std::exp(0.5 * d * std::log1p(-epsilon_));
}

void ForgettingKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                           double scale, VectorRef grad) const {
  const double d = a(time_dim_) - b(time_dim_);
  if (d == 0.0) return;  // the one-sided slopes differ there; 0 as for a == b
  const double sign = d > 0.0 ? 1.0 : -1.0;
  grad(time_dim_) += scale * 0.5 * std::log1p(-epsilon_) * sign * Value(a, b);
}

void ForgettingKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                         VectorRef grad) const {
  if (!fit_epsilon_) return;
  // d/d log(eps) of exp(|d|/2 log(1 - eps)) = k |d|/2 (-eps / (1 - eps)).
  const double d = std::abs(a(time_dim_) - b(time_dim_));
  grad(0) = Value(a, b) * 0.5 * d * (-epsilon_ / (1.0 - epsilon_));
}

SameEpochKernel::SameEpochKernel(const char* who, int time_dim) : who_(who), time_dim_(time_dim) {
  CheckTimeDim(who, time_dim);
}

void SameEpochKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(who_, 0, log_params);
}

double SameEpochKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  return Epoch(a(time_dim_)) == Epoch(b(time_dim_)) ? 1.0 : 0.0;
}

EpochKernel::EpochKernel(int time_dim, long epoch_length)
    : SameEpochKernel("EpochKernel", time_dim), epoch_length_(epoch_length) {
  if (epoch_length < 1)
    throw std::invalid_argument("EpochKernel: epoch_length = " + std::to_string(epoch_length) +
                                ": must be >= 1");
}

long EpochKernel::Epoch(double t) const {
  return static_cast<long>(std::floor(t / static_cast<double>(epoch_length_)));
}

std::unique_ptr<Kernel> EpochKernel::Clone() const { return std::make_unique<EpochKernel>(*this); }

std::string EpochKernel::Describe() const {
  return "epoch(dim=" + std::to_string(time_dim()) + "; N=" + std::to_string(epoch_length_) + ")";
}

RestartKernel::RestartKernel(int time_dim, std::shared_ptr<const std::vector<long>> epoch_starts)
    : SameEpochKernel("RestartKernel", time_dim), epoch_starts_(std::move(epoch_starts)) {
  if (!epoch_starts_) throw std::invalid_argument("RestartKernel: epoch_starts = null");
}

long RestartKernel::Epoch(double t) const {
  const auto& starts = *epoch_starts_;
  const long round = static_cast<long>(std::floor(t));
  return static_cast<long>(std::upper_bound(starts.begin(), starts.end(), round) - starts.begin());
}

std::unique_ptr<Kernel> RestartKernel::Clone() const {
  return std::make_unique<RestartKernel>(*this);
}

std::string RestartKernel::Describe() const {
  return "restarts(dim=" + std::to_string(time_dim()) + ")";
}

}  // namespace gpbandit
