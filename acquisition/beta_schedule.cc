#include "gpbandit/acquisition/beta_schedule.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "acquisition/option_checks.h"
#include "gpbandit/numerics/format.h"
#include "numerics/math.h"

namespace gpbandit {
namespace {

using internal::Fail;
using internal::FieldValue;

void CheckRound(int t) {
  if (t < 1) throw std::invalid_argument(FieldValue("t", t) + ": rounds start at 1");
}

void CheckDelta(double delta) {
  if (!(delta > 0.0 && delta < 1.0))
    throw std::invalid_argument(FieldValue("delta", delta) + ": must be in (0, 1)");
}

void CheckNonNegative(const char* field, double value) {
  if (!(value >= 0.0) || !std::isfinite(value))
    throw std::invalid_argument(FieldValue(field, value) + ": must be finite and >= 0");
}

double CheckResult(const char* what, double beta) {
  if (!std::isfinite(beta) || !(beta > 0.0))
    throw std::invalid_argument(std::string(what) + ": beta_t = " + FormatDouble(beta) +
                                " is not finite and positive");
  return beta;
}

}  // namespace

std::string BetaScheduleKindName(BetaScheduleKind kind) {
  switch (kind) {
    case BetaScheduleKind::kAuto:
      return "auto";
    case BetaScheduleKind::kFinite:
      return "finite";
    case BetaScheduleKind::kCompact:
      return "compact";
    case BetaScheduleKind::kRkhs:
      return "rkhs";
    case BetaScheduleKind::kConstant:
      return "constant";
    case BetaScheduleKind::kDimLog:
      return "dim-log";
  }
  return "unknown";
}

BetaScheduleKind ParseBetaScheduleKind(const std::string& name) {
  for (BetaScheduleKind kind :
       {BetaScheduleKind::kAuto, BetaScheduleKind::kFinite, BetaScheduleKind::kCompact,
        BetaScheduleKind::kRkhs, BetaScheduleKind::kConstant, BetaScheduleKind::kDimLog}) {
    if (BetaScheduleKindName(kind) == name) return kind;
  }
  throw std::invalid_argument("beta schedule = '" + name +
                              "': unknown; known: auto, finite, compact, rkhs, constant, dim-log");
}

bool BetaScheduleOptions::IsValid(std::string* error) const {
  if (!(delta > 0.0 && delta < 1.0)) return Fail(error, "delta", delta, "must be in (0, 1)");
  if (!(a > 0.0) || !std::isfinite(a)) return Fail(error, "a", a, "must be finite and > 0");
  if (!(b > 0.0) || !std::isfinite(b)) return Fail(error, "b", b, "must be finite and > 0");
  if (!(r > 0.0) || !std::isfinite(r)) return Fail(error, "r", r, "must be finite and > 0");
  if (!(rkhs_bound >= 0.0) || !std::isfinite(rkhs_bound))
    return Fail(error, "rkhs_bound", rkhs_bound, "must be finite and >= 0");
  if (!(constant_beta > 0.0) || !std::isfinite(constant_beta))
    return Fail(error, "constant_beta", constant_beta, "must be finite and > 0");
  if (!(dim_log_coefficient > 0.0) || !std::isfinite(dim_log_coefficient))
    return Fail(error, "dim_log_coefficient", dim_log_coefficient, "must be finite and > 0");
  if (dim_log_max_dim < 0) return Fail(error, "dim_log_max_dim", dim_log_max_dim, "must be >= 0");
  if (!(scale > 0.0) || !std::isfinite(scale))
    return Fail(error, "beta_scale", scale, "must be finite and > 0");
  return true;
}

double BetaFinite(int t, int num_candidates, double delta) {
  CheckRound(t);
  CheckDelta(delta);
  if (num_candidates < 1)
    throw std::invalid_argument(FieldValue("num_candidates", num_candidates) +
                                ": the finite schedule needs a candidate set (|D| >= 1)");
  const double tt = static_cast<double>(t);
  return CheckResult("BetaFinite",
                     2.0 * std::log(num_candidates * tt * tt * kPi * kPi / (6.0 * delta)));
}

double BetaCompact(int t, int dim, double a, double b, double r, double delta) {
  CheckRound(t);
  CheckDelta(delta);
  if (dim < 1) throw std::invalid_argument(FieldValue("dim", dim) + ": must be >= 1");
  if (!(a > 0.0) || !(b > 0.0) || !(r > 0.0))
    throw std::invalid_argument(FieldValue("a", a) + ", " + FieldValue("b", b) + ", " +
                                FieldValue("r", r) + ": must be > 0");
  const double tt = static_cast<double>(t);
  const double inner = std::log(4.0 * dim * a / delta);
  // For 4 d a < delta the log is negative and the theorem's sqrt is undefined; such tiny a are
  // outside the theorem, so they are rejected rather than silently clamped.
  if (!(inner > 0.0))
    throw std::invalid_argument(FieldValue("a", a) + ": log(4 d a / delta) must be > 0");
  const double beta = 2.0 * std::log(tt * tt * 2.0 * kPi * kPi / (3.0 * delta)) +
                      2.0 * dim * std::log(tt * tt * dim * b * r * std::sqrt(inner));
  return CheckResult("BetaCompact", beta);
}

double BetaRkhs(int t, double rkhs_bound, double gamma, double delta) {
  CheckRound(t);
  CheckDelta(delta);
  CheckNonNegative("rkhs_bound", rkhs_bound);
  CheckNonNegative("gamma", gamma);
  const double l = std::log(static_cast<double>(t) / delta);
  return CheckResult("BetaRkhs", 2.0 * rkhs_bound * rkhs_bound + 300.0 * gamma * l * l * l);
}

double BetaDimLog(int t, int dim, double coefficient) {
  CheckRound(t);
  if (dim < 1) throw std::invalid_argument(FieldValue("dim", dim) + ": must be >= 1");
  if (!(coefficient > 0.0) || !std::isfinite(coefficient))
    throw std::invalid_argument(FieldValue("coefficient", coefficient) +
                                ": must be finite and > 0");
  return CheckResult("BetaDimLog", coefficient * dim * std::log(2.0 * t));
}

double ComputeBeta(const BetaScheduleOptions& options, int t, int num_candidates, int dim,
                   double gamma) {
  internal::ThrowIfInvalid(options, "BetaScheduleOptions");
  BetaScheduleKind kind = options.kind;
  if (kind == BetaScheduleKind::kAuto)
    kind = num_candidates > 0 ? BetaScheduleKind::kFinite : BetaScheduleKind::kDimLog;
  double beta = 0.0;
  switch (kind) {
    case BetaScheduleKind::kFinite:
      beta = BetaFinite(t, num_candidates, options.delta);
      break;
    case BetaScheduleKind::kCompact:
      beta = BetaCompact(t, dim, options.a, options.b, options.r, options.delta);
      break;
    case BetaScheduleKind::kRkhs:
      beta = BetaRkhs(t, options.rkhs_bound, gamma, options.delta);
      break;
    case BetaScheduleKind::kConstant:
      CheckRound(t);
      beta = options.constant_beta;
      break;
    case BetaScheduleKind::kDimLog:
      beta =
          BetaDimLog(t, options.dim_log_max_dim > 0 ? std::min(dim, options.dim_log_max_dim) : dim,
                     options.dim_log_coefficient);
      break;
    case BetaScheduleKind::kAuto:
      break;
  }
  return CheckResult("ComputeBeta", options.scale * beta);
}

// B + R sqrt(2 (gamma + 1 + log(c / delta))): Chowdhury & Gopalan's confidence width, c = 1 for
// IGP-UCB's beta and c = 2 for GP-TS's scale.
double ChowdhuryGopalanWidth(const char* what, double rkhs_bound, double noise_bound, double gamma,
                             double delta, double c) {
  CheckNonNegative("rkhs_bound", rkhs_bound);
  CheckNonNegative("noise_bound", noise_bound);
  CheckNonNegative("gamma", gamma);
  CheckDelta(delta);
  return CheckResult(
      what, rkhs_bound + noise_bound * std::sqrt(2.0 * (gamma + 1.0 + std::log(c / delta))));
}

double IgpUcbBeta(double rkhs_bound, double noise_bound, double gamma, double delta) {
  return ChowdhuryGopalanWidth("IgpUcbBeta", rkhs_bound, noise_bound, gamma, delta, 1.0);
}

double GpTsScale(double rkhs_bound, double noise_bound, double gamma, double delta) {
  return ChowdhuryGopalanWidth("GpTsScale", rkhs_bound, noise_bound, gamma, delta, 2.0);
}

double IgpUcbLambda(int horizon) {
  if (horizon < 1) throw std::invalid_argument(FieldValue("horizon", horizon) + ": must be >= 1");
  return 1.0 + 2.0 / horizon;
}

}  // namespace gpbandit
