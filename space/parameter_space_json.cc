#include "space/parameter_space_json.h"

#include <stdexcept>
#include <vector>

namespace gpbandit {
namespace internal {

using nlohmann::json;

json ParametersToJson(const ParameterSpace& space) {
  json parameters = json::array();
  for (const Parameter& p : space.parameters()) {
    json j = {{"name", p.name}, {"type", ParameterKindName(p.kind)}};
    if (p.kind == ParameterKind::kCategorical) {
      j["labels"] = p.labels;
    } else {
      j["scale"] = ParameterScaleName(p.scale);
      j["lower"] = p.lower;
      j["upper"] = p.upper;
    }
    parameters.push_back(j);
  }
  return parameters;
}

namespace {

ParameterKind KindFromName(const std::string& name, const std::string& at) {
  for (ParameterKind k :
       {ParameterKind::kReal, ParameterKind::kInteger, ParameterKind::kCategorical})
    if (name == ParameterKindName(k)) return k;
  throw std::invalid_argument(at + ".type = \"" + name +
                              "\" is not \"real\", \"integer\" or \"categorical\"");
}

ParameterScale ScaleFromName(const std::string& name, const std::string& at) {
  if (name == "linear") return ParameterScale::kLinear;
  if (name == "log") return ParameterScale::kLog;
  throw std::invalid_argument(at + ".scale = \"" + name + "\" is not \"linear\" or \"log\"");
}

// j[field] as a T, or std::invalid_argument naming it.
template <typename T>
T Get(const json& j, const char* field, const std::string& at) {
  if (!j.is_object() || !j.contains(field))
    throw std::invalid_argument(at + "." + field + " is missing");
  try {
    return j.at(field).get<T>();
  } catch (const json::exception&) {
    throw std::invalid_argument(at + "." + field + " has the wrong type: " + j.at(field).dump());
  }
}

Parameter ParameterFromJson(const json& j, const std::string& at) {
  Parameter p;
  p.name = Get<std::string>(j, "name", at);
  p.kind = KindFromName(Get<std::string>(j, "type", at), at);
  if (p.kind == ParameterKind::kCategorical) {
    p.labels = Get<std::vector<std::string>>(j, "labels", at);
    p.lower = p.upper = 0.0;
    return p;
  }
  p.scale = j.contains("scale") ? ScaleFromName(Get<std::string>(j, "scale", at), at)
                                : ParameterScale::kLinear;
  p.lower = Get<double>(j, "lower", at);
  p.upper = Get<double>(j, "upper", at);
  return p;
}

}  // namespace

ParameterSpace ParametersFromJson(const json& parameters, const std::string& what) {
  if (!parameters.is_array()) throw std::invalid_argument(what + " is not an array");
  std::vector<Parameter> list;
  for (std::size_t i = 0; i < parameters.size(); ++i)
    list.push_back(ParameterFromJson(parameters[i], what + "[" + std::to_string(i) + "]"));
  return ParameterSpace(std::move(list));
}

json NamedValuesToJson(const ParameterSpace& space, const Eigen::VectorXd& x) {
  json named = json::object();
  for (int i = 0; i < space.size(); ++i) {
    const ParameterValue v = space.ValueAt(i, x(i));
    if (const auto* d = std::get_if<double>(&v)) {
      named[space.parameter(i).name] = *d;
    } else if (const auto* n = std::get_if<long long>(&v)) {
      named[space.parameter(i).name] = *n;
    } else {
      named[space.parameter(i).name] = std::get<std::string>(v);
    }
  }
  return named;
}

}  // namespace internal
}  // namespace gpbandit
