#include "gpbandit/acquisition/information_gain_bound.h"

#include <cmath>
#include <stdexcept>

#include "acquisition/option_checks.h"

namespace gpbandit {
namespace {

using internal::Fail;
using internal::FieldValue;

void CheckArgs(double T, int dim) {
  if (!std::isfinite(T) || T < 0.0)
    throw std::invalid_argument(FieldValue("T", T) + ": must be finite and >= 0");
  if (dim < 1) throw std::invalid_argument(FieldValue("dim", dim) + ": must be >= 1");
}

}  // namespace

std::string GammaSourceName(GammaSource source) {
  switch (source) {
    case GammaSource::kInformationGain:
      return "information-gain";
    case GammaSource::kSquaredExponentialBound:
      return "se-bound";
    case GammaSource::kMaternBound:
      return "matern-bound";
    case GammaSource::kLinearBound:
      return "linear-bound";
  }
  return "unknown";
}

GammaSource ParseGammaSource(const std::string& name) {
  for (GammaSource source : {GammaSource::kInformationGain, GammaSource::kSquaredExponentialBound,
                             GammaSource::kMaternBound, GammaSource::kLinearBound}) {
    if (GammaSourceName(source) == name) return source;
  }
  throw std::invalid_argument("gamma source = '" + name +
                              "': unknown; known: information-gain, se-bound, matern-bound, "
                              "linear-bound");
}

bool GammaOptions::IsValid(std::string* error) const {
  if (dim < 0) return Fail(error, "gamma.dim", dim, "must be >= 0");
  if (!(nu > 0.0) || !std::isfinite(nu))
    return Fail(error, "gamma.nu", nu, "must be finite and > 0");
  if (!(scale > 0.0) || !std::isfinite(scale))
    return Fail(error, "gamma.scale", scale, "must be finite and > 0");
  return true;
}

// Below T = 1 the log is negative or zero: no information has been gained yet, so 0.
double SquaredExponentialGammaBound(double T, int dim) {
  CheckArgs(T, dim);
  if (T <= 1.0) return 0.0;
  return std::pow(std::log(T), dim + 1);
}

double MaternGammaBound(double T, int dim, double nu) {
  CheckArgs(T, dim);
  if (!(nu > 0.0)) throw std::invalid_argument(FieldValue("nu", nu) + ": must be > 0");
  if (T <= 1.0) return 0.0;
  const double dd = static_cast<double>(dim) * (dim + 1);
  return std::pow(T, dd / (2.0 * nu + dd)) * std::log(T);
}

double LinearGammaBound(double T, int dim) {
  CheckArgs(T, dim);
  if (T <= 1.0) return 0.0;
  return dim * std::log(T);
}

double ResolveGamma(const GammaOptions& options, int t, int action_dim, double information_gain) {
  internal::ThrowIfInvalid(options, "GammaOptions");
  if (t < 1) throw std::invalid_argument(FieldValue("t", t) + ": rounds start at 1");
  if (options.source == GammaSource::kInformationGain) {
    if (!std::isfinite(information_gain) || information_gain < 0.0)
      throw std::invalid_argument(FieldValue("information_gain", information_gain) +
                                  ": must be finite and >= 0");
    return information_gain;
  }
  const int d = options.dim > 0 ? options.dim : action_dim;
  const double T = static_cast<double>(t - 1);
  double bound = 0.0;
  switch (options.source) {
    case GammaSource::kSquaredExponentialBound:
      bound = SquaredExponentialGammaBound(T, d);
      break;
    case GammaSource::kMaternBound:
      bound = MaternGammaBound(T, d, options.nu);
      break;
    case GammaSource::kLinearBound:
      bound = LinearGammaBound(T, d);
      break;
    case GammaSource::kInformationGain:
      break;
  }
  return options.scale * bound;
}

}  // namespace gpbandit
