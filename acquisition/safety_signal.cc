#include "gpbandit/acquisition/safety_signal.h"

#include <cmath>

#include "acquisition/option_checks.h"
#include "acquisition/options_json.h"

namespace gpbandit {
namespace {

using internal::Fail;

bool KnownKernel(const std::string& name) {
  return name.empty() || name == "se" || name == "matern12" || name == "matern32" ||
         name == "matern52";
}

// A finite, positive value or NaN.
bool PositiveOrNaN(double v) { return std::isnan(v) || (v > 0.0 && std::isfinite(v)); }

}  // namespace

bool SignalModelOptions::IsValid(std::string* error, const std::string& field) const {
  if (!KnownKernel(kernel))
    return Fail(error, field + "kernel", "\"" + kernel + "\"",
                "must be \"\" (the default), \"se\", \"matern12\", \"matern32\" or \"matern52\"");
  for (std::size_t i = 0; i < lengthscales.size(); ++i)
    if (!(lengthscales[i] > 0.0) || !std::isfinite(lengthscales[i]))
      return Fail(error, field + "lengthscales[" + std::to_string(i) + "]", lengthscales[i],
                  "must be finite and > 0 (a fraction of the box's width)");
  if (!PositiveOrNaN(stddev))
    return Fail(error, field + "stddev", stddev, "must be finite and > 0, or null");
  if (!PositiveOrNaN(noise_stddev))
    return Fail(error, field + "noise_stddev", noise_stddev, "must be finite and > 0, or null");
  if (!(noise_floor >= 0.0 && noise_floor < 1.0))
    return Fail(error, field + "noise_floor", noise_floor, "must be in [0, 1)");
  if (std::isinf(prior_mean))
    return Fail(error, field + "prior_mean", prior_mean, "must be finite, or null");
  if (!(context_lengthscale_cap >= 0.0) || !std::isfinite(context_lengthscale_cap))
    return Fail(error, field + "context_lengthscale_cap", context_lengthscale_cap,
                "must be finite and >= 0 (a fraction of the context's range)");
  return true;
}

namespace {
nlohmann::json NumberOrNull(double v) {
  return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}
}  // namespace

void to_json(nlohmann::json& j, const SignalModelOptions& o) {
  j = {{"kernel", o.kernel},
       {"lengthscales", o.lengthscales},
       {"stddev", NumberOrNull(o.stddev)},
       {"noise_stddev", NumberOrNull(o.noise_stddev)},
       {"noise_floor", o.noise_floor},
       {"prior_mean", NumberOrNull(o.prior_mean)},
       {"fit", o.fit},
       {"cautious", o.cautious},
       {"context_lengthscale_cap", o.context_lengthscale_cap},
       {"stddev_covers_measured", o.stddev_covers_measured}};
}

void from_json(const nlohmann::json& j, SignalModelOptions& o) {
  internal::OptionsReader reader(j);
  reader.Read("kernel", &o.kernel);
  reader.Read("lengthscales", &o.lengthscales);
  reader.ReadNumberOrNull("stddev", &o.stddev);
  reader.ReadNumberOrNull("noise_stddev", &o.noise_stddev);
  reader.Read("noise_floor", &o.noise_floor);
  reader.ReadNumberOrNull("prior_mean", &o.prior_mean);
  reader.Read("fit", &o.fit);
  reader.Read("cautious", &o.cautious);
  reader.Read("context_lengthscale_cap", &o.context_lengthscale_cap);
  reader.Read("stddev_covers_measured", &o.stddev_covers_measured);
  reader.Finish();
}

}  // namespace gpbandit
