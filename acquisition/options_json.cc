#include "acquisition/options_json.h"

#include <climits>
#include <cmath>
#include <limits>
#include <utility>

namespace gpbandit {
namespace internal {

using nlohmann::json;

OptionsReader::OptionsReader(const json& object) : object_(object) {
  if (!object.is_object())
    throw std::invalid_argument("expected a JSON object of options, got " + object.dump());
}

const json* OptionsReader::Find(const char* key) {
  known_.emplace_back(key);
  const auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

void OptionsReader::Reject(const char* key, const json& value, const std::string& expected) const {
  throw std::invalid_argument(std::string(key) + " = " + value.dump() + ": " + expected);
}

void OptionsReader::Read(const char* key, double* field) {
  const json* value = Find(key);
  if (value == nullptr) return;
  if (!value->is_number()) Reject(key, *value, "expected a number");
  *field = value->get<double>();
}

void OptionsReader::Read(const char* key, int* field) {
  const json* value = Find(key);
  if (value == nullptr) return;
  // Any JSON number with an integer value in int's range (64 and 64.0 alike).
  const double number = value->is_number() ? value->get<double>() : 0.5;
  if (!(number == std::floor(number) && number >= INT_MIN && number <= INT_MAX))
    Reject(key, *value,
           "expected an integer in [" + std::to_string(INT_MIN) + ", " + std::to_string(INT_MAX) +
               "]");
  *field = static_cast<int>(number);
}

void OptionsReader::Read(const char* key, bool* field) {
  const json* value = Find(key);
  if (value == nullptr) return;
  if (!value->is_boolean()) Reject(key, *value, "expected true or false");
  *field = value->get<bool>();
}

void OptionsReader::ReadNumberOrNull(const char* key, double* field) {
  const json* value = Find(key);
  if (value == nullptr) return;
  if (value->is_null()) {
    *field = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  if (!value->is_number()) Reject(key, *value, "expected a number or null");
  *field = value->get<double>();
}

namespace {

// The array at value, parsing a string that holds JSON text; a discarded value if neither.
json ArrayOrText(const json& value) {
  if (value.is_array()) return value;
  if (value.is_string()) {
    json parsed = json::parse(value.get<std::string>(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_array()) return parsed;
  }
  return json(json::value_t::discarded);
}

bool NumberArray(const json& value, std::vector<double>* out) {
  if (!value.is_array()) return false;
  out->clear();
  for (const json& item : value) {
    if (!item.is_number()) return false;
    out->push_back(item.get<double>());
  }
  return true;
}

}  // namespace

void OptionsReader::Read(const char* key, std::vector<double>* field) {
  const json* value = Find(key);
  if (value == nullptr) return;
  std::vector<double> numbers;
  if (!NumberArray(ArrayOrText(*value), &numbers))
    Reject(key, *value, "expected an array of numbers, e.g. [0.5, 2]");
  *field = std::move(numbers);
}

void OptionsReader::Read(const char* key, std::vector<std::vector<double>>* field) {
  const json* value = Find(key);
  if (value == nullptr) return;
  const json array = ArrayOrText(*value);
  std::vector<std::vector<double>> points;
  bool ok = array.is_array();
  for (std::size_t i = 0; ok && i < array.size(); ++i) {
    points.emplace_back();
    ok = NumberArray(array[i], &points.back());
  }
  if (!ok) Reject(key, *value, "expected an array of points, e.g. [[0.1, 0.2], [0.3, 0.4]]");
  *field = std::move(points);
}

void OptionsReader::Read(const char* key, std::string* field) {
  const json* value = Find(key);
  if (value == nullptr) return;
  if (!value->is_string()) Reject(key, *value, "expected a string");
  *field = value->get<std::string>();
}

void OptionsReader::Finish() const {
  for (const auto& item : object_.items()) {
    bool known = false;
    for (const std::string& k : known_) known = known || k == item.key();
    if (known) continue;
    std::string valid;
    for (const std::string& k : known_) valid += (valid.empty() ? "" : ", ") + k;
    throw std::invalid_argument("unknown key '" + item.key() +
                                "'; valid keys: " + (valid.empty() ? "none" : valid));
  }
}

void WriteGammaFields(const GammaOptions& gamma, json* object) {
  (*object)["gamma_source"] = GammaSourceName(gamma.source);
  (*object)["gamma_dim"] = gamma.dim;
  (*object)["gamma_nu"] = gamma.nu;
  (*object)["gamma_scale"] = gamma.scale;
}

void ReadGammaFields(OptionsReader* reader, GammaOptions* gamma) {
  reader->ReadEnum("gamma_source", &gamma->source, GammaSourceName,
                   {GammaSource::kInformationGain, GammaSource::kSquaredExponentialBound,
                    GammaSource::kMaternBound, GammaSource::kLinearBound});
  reader->Read("gamma_dim", &gamma->dim);
  reader->Read("gamma_nu", &gamma->nu);
  reader->Read("gamma_scale", &gamma->scale);
}

void ExpectNoOptions(const StrategyParams& params, const std::string& who) {
  try {
    OptionsReader(StrategyParamsAccess::Json(params)).Finish();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(who + " options: " + e.what());
  }
}

nlohmann::json TakeOwnKeys(StrategyParams* params, std::initializer_list<const char*> own_keys) {
  nlohmann::json rest = StrategyParamsAccess::Json(*params);
  nlohmann::json own = nlohmann::json::object();
  for (const char* key : own_keys) {
    if (!rest.contains(key)) continue;
    own[key] = rest[key];
    rest.erase(key);
  }
  *params = StrategyParamsAccess::FromJson(rest);
  return own;
}

}  // namespace internal
}  // namespace gpbandit
