// How the acquisition sources read and write their options as JSON (nlohmann), and the bridge
// between StrategyParams and nlohmann::json. Internal (not installed API): it includes
// nlohmann/json.hpp, which public headers do not.
//
// The rules every strategy's from_json follows: a missing key keeps the struct's default; an
// unknown key is rejected, naming it and listing the valid ones; a value of the wrong type is
// rejected, naming the key and the value; enums are read and written by name. Ranges are not
// checked here but by the options' IsValid, in the strategy's constructor.
#ifndef GPBANDIT_ACQUISITION_OPTIONS_JSON_H_
#define GPBANDIT_ACQUISITION_OPTIONS_JSON_H_

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/acquisition/information_gain_bound.h"
#include "gpbandit/acquisition/safety_signal.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {

// SignalModelOptions as a JSON object (safety_signal.h lists the keys); in the type's namespace
// so that nlohmann finds them.
void to_json(nlohmann::json& j, const SignalModelOptions& o);
void from_json(const nlohmann::json& j, SignalModelOptions& o);

namespace internal {

struct StrategyParamsAccess {
  static const nlohmann::json& Json(const StrategyParams& params);
  // Throws std::invalid_argument if object is not a JSON object.
  static StrategyParams FromJson(nlohmann::json object);
};

// Reads the fields of one options object (see the rules above). Each Read takes its key if
// present and remembers it as valid; Finish rejects the keys no Read asked for.
class OptionsReader {
 public:
  // Throws std::invalid_argument if object is not a JSON object.
  explicit OptionsReader(const nlohmann::json& object);

  void Read(const char* key, double* field);
  void Read(const char* key, int* field);
  void Read(const char* key, bool* field);
  // A number, or null for "none" (NaN).
  void ReadNumberOrNull(const char* key, double* field);
  // An array of numbers, or of arrays of numbers (points), given as JSON or as a string holding
  // that JSON (how the command line's --option key=[[0,1]] arrives).
  void Read(const char* key, std::vector<double>* field);
  void Read(const char* key, std::vector<std::vector<double>>* field);
  void Read(const char* key, std::string* field);
  // An array of objects, each read by Object's from_json (given as JSON or as a string holding
  // it); an error names the key and the element.
  template <typename Object>
  void ReadObjects(const char* key, std::vector<Object>* field);
  // An enum written by name(value); `values` lists every value of the enum.
  template <typename Enum>
  void ReadEnum(const char* key, Enum* field, std::string (*name)(Enum),
                std::initializer_list<Enum> values);
  void Finish() const;

 private:
  // The value at key, or nullptr if absent; remembers key as valid.
  const nlohmann::json* Find(const char* key);
  [[noreturn]] void Reject(const char* key, const nlohmann::json& value,
                           const std::string& expected) const;

  const nlohmann::json& object_;
  std::vector<std::string> known_;
};

template <typename Object>
void OptionsReader::ReadObjects(const char* key, std::vector<Object>* field) {
  const nlohmann::json* value = Find(key);
  if (value == nullptr) return;
  nlohmann::json array = *value;
  if (array.is_string())
    array = nlohmann::json::parse(array.get<std::string>(), nullptr, /*allow_exceptions=*/false);
  if (!array.is_array()) Reject(key, *value, "expected an array of objects");
  std::vector<Object> objects;
  for (std::size_t i = 0; i < array.size(); ++i) {
    try {
      objects.push_back(array[i].get<Object>());
    } catch (const std::exception& e) {
      throw std::invalid_argument(std::string(key) + "[" + std::to_string(i) + "]: " + e.what());
    }
  }
  *field = std::move(objects);
}

template <typename Enum>
void OptionsReader::ReadEnum(const char* key, Enum* field, std::string (*name)(Enum),
                             std::initializer_list<Enum> values) {
  const nlohmann::json* value = Find(key);
  if (value == nullptr) return;
  std::string names;
  for (Enum v : values) {
    if (value->is_string() && value->get<std::string>() == name(v)) {
      *field = v;
      return;
    }
    names += (names.empty() ? "" : ", ") + name(v);
  }
  Reject(key, *value, "expected one of " + names);
}

// GammaOptions as the flat keys gamma_source, gamma_dim, gamma_nu, gamma_scale (shared by the
// UCB family and GP-TS).
void WriteGammaFields(const GammaOptions& gamma, nlohmann::json* object);
void ReadGammaFields(OptionsReader* reader, GammaOptions* gamma);

// B, R, delta and gamma of Chowdhury & Gopalan's schedules (IGP-UCB's and GP-TS's options):
// keys rkhs_bound, noise_bound, min_noise_bound, delta and the gamma keys.
template <typename Options>
void WriteBoundFields(const Options& options, nlohmann::json* object) {
  (*object)["rkhs_bound"] = options.rkhs_bound;
  (*object)["noise_bound"] = options.noise_bound;
  (*object)["min_noise_bound"] = options.min_noise_bound;
  (*object)["delta"] = options.delta;
  WriteGammaFields(options.gamma, object);
}
template <typename Options>
void ReadBoundFields(OptionsReader* reader, Options* options) {
  reader->Read("rkhs_bound", &options->rkhs_bound);
  reader->Read("noise_bound", &options->noise_bound);
  reader->Read("min_noise_bound", &options->min_noise_bound);
  reader->Read("delta", &options->delta);
  ReadGammaFields(reader, &options->gamma);
}

// The options of strategy `who` from params over `defaults` (a key params lacks keeps its value
// there), through the options' from_json, checked by their IsValid; errors become
// std::invalid_argument "<who> options: <message>" (the message names the key, e.g. "ei
// options: xi = -1: must be finite and >= 0").
template <typename Options>
Options ReadOptions(const StrategyParams& params, const std::string& who,
                    const Options& defaults = Options()) {
  Options options = defaults;
  try {
    StrategyParamsAccess::Json(params).get_to(options);
  } catch (const std::exception& e) {
    throw std::invalid_argument(who + " options: " + e.what());
  }
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument(who + " options: " + error);
  return options;
}

// The options as a compact JSON object text, through their to_json.
template <typename Options>
std::string WriteOptions(const Options& options) {
  return nlohmann::json(options).dump();
}

// For a strategy that extends another's options with its own keys (TV-GP-UCB and R-GP-UCB
// extend GP-UCB's): removes `own_keys` from *params and returns them as their own object.
nlohmann::json TakeOwnKeys(StrategyParams* params, std::initializer_list<const char*> own_keys);

// Reads a strategy's own keys through read(reader), then checks options.IsValid; errors become
// std::invalid_argument "<who> options: <message>", as ReadOptions's.
template <typename Options, typename Read>
void ReadOwnKeys(const nlohmann::json& own, const std::string& who, Options* options, Read read) {
  try {
    OptionsReader reader(own);
    read(reader);
    reader.Finish();
  } catch (const std::exception& e) {
    throw std::invalid_argument(who + " options: " + e.what());
  }
  std::string error;
  if (!options->IsValid(&error)) throw std::invalid_argument(who + " options: " + error);
}

// For strategies without options: throws std::invalid_argument naming the first key of params.
void ExpectNoOptions(const StrategyParams& params, const std::string& who);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_OPTIONS_JSON_H_
