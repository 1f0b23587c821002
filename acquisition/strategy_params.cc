#include "gpbandit/acquisition/strategy_params.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "acquisition/options_json.h"
#include "gpbandit/numerics/format.h"

namespace gpbandit {

using JsonValue = nlohmann::json;

struct StrategyParams::Impl {
  JsonValue object = JsonValue::object();
};

namespace internal {

const JsonValue& StrategyParamsAccess::Json(const StrategyParams& params) {
  return params.impl_->object;
}

StrategyParams StrategyParamsAccess::FromJson(JsonValue object) {
  if (!object.is_object())
    throw std::invalid_argument("strategy parameters must be a JSON object, got " + object.dump());
  auto impl = std::make_shared<StrategyParams::Impl>();
  impl->object = std::move(object);
  return StrategyParams(std::move(impl));
}

}  // namespace internal

using internal::StrategyParamsAccess;

StrategyParams::StrategyParams() : impl_(std::make_shared<const Impl>()) {}

StrategyParams::StrategyParams(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

StrategyParams::StrategyParams(const std::string& json_object) {
  JsonValue parsed;
  try {
    parsed = JsonValue::parse(json_object);
  } catch (const JsonValue::parse_error& e) {
    throw std::invalid_argument("strategy parameters '" + json_object + "': not JSON (" + e.what() +
                                ")");
  }
  impl_ = StrategyParamsAccess::FromJson(std::move(parsed)).impl_;
}

std::string StrategyParams::json() const { return impl_->object.dump(); }

bool StrategyParams::empty() const { return impl_->object.empty(); }

bool StrategyParams::contains(const std::string& key) const { return impl_->object.contains(key); }

std::vector<std::string> StrategyParams::keys() const {
  std::vector<std::string> keys;
  for (const auto& item : impl_->object.items()) keys.push_back(item.key());
  return keys;  // nlohmann's object is a std::map: sorted
}

double StrategyParams::at(const std::string& key) const {
  if (!contains(key))
    throw std::invalid_argument("strategy parameter '" + key + "' is missing; given: " + json());
  return value(key, 0.0);
}

double StrategyParams::value(const std::string& key, double fallback) const {
  const auto it = impl_->object.find(key);
  if (it == impl_->object.end()) return fallback;
  if (!it->is_number())
    throw std::invalid_argument("strategy parameter " + key + " = " + it->dump() +
                                ": expected a number");
  return it->get<double>();
}

StrategyParams StrategyParams::With(const std::string& key, double value) const {
  if (!std::isfinite(value))
    throw std::invalid_argument("strategy parameter " + key + " = " + FormatDouble(value) +
                                ": must be finite (JSON has no infinity or NaN)");
  JsonValue object = impl_->object;
  object[key] = value;
  return StrategyParamsAccess::FromJson(std::move(object));
}

StrategyParams StrategyParams::With(const std::string& key, int value) const {
  JsonValue object = impl_->object;
  object[key] = value;
  return StrategyParamsAccess::FromJson(std::move(object));
}

StrategyParams StrategyParams::WithText(const std::string& key,
                                        const std::string& value_text) const {
  JsonValue object = impl_->object;
  JsonValue value = JsonValue::parse(value_text, nullptr, /*allow_exceptions=*/false);
  // Only scalars are taken as JSON: anything else (a bare word, a typo) is a string, which the
  // strategy then accepts (an enum name) or rejects naming the key.
  if (value.is_discarded() || !(value.is_primitive() && !value.is_null())) value = value_text;
  object[key] = std::move(value);
  return StrategyParamsAccess::FromJson(std::move(object));
}

StrategyParams StrategyParams::MergedWith(const StrategyParams& overrides) const {
  JsonValue object = impl_->object;
  for (const auto& item : overrides.impl_->object.items()) object[item.key()] = item.value();
  return StrategyParamsAccess::FromJson(std::move(object));
}

StrategyParams StrategyParams::Intersection(const StrategyParams& reference) const {
  JsonValue object = JsonValue::object();
  for (const auto& item : impl_->object.items())
    if (reference.contains(item.key())) object[item.key()] = item.value();
  return StrategyParamsAccess::FromJson(std::move(object));
}

bool StrategyParams::operator==(const StrategyParams& other) const {
  return impl_->object == other.impl_->object;
}

}  // namespace gpbandit
