#include "gpbandit/space/parameter_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "space/parameter_space_json.h"

namespace gpbandit {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// The whole of `text` as a double (strtod: decimal, exponent, "inf" and "nan" are read, and
// refused later by the space's checks), or std::invalid_argument naming `where`.
double ParseDouble(const std::string& text, const std::string& where) {
  char* end = nullptr;
  errno = 0;
  const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE)
    throw std::invalid_argument(where + ": '" + text + "' is not a number");
  return v;
}

long long ParseInteger(const std::string& text, const std::string& where) {
  char* end = nullptr;
  errno = 0;
  const long long v = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE)
    throw std::invalid_argument(where + ": '" + text + "' is not an integer");
  return v;
}

// "name=rest" -> name, rest.
void SplitPair(const std::string& text, const std::string& what, std::string* name,
               std::string* rest) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(what + " '" + text + "' is not of the form name=...");
  *name = text.substr(0, eq);
  *rest = text.substr(eq + 1);
}

Parameter Bounded(const std::string& name, const std::string& kind,
                  const std::vector<std::string>& fields, const std::string& where) {
  if (fields.size() != 3)
    throw std::invalid_argument(where + ": '" + kind + "' takes two bounds, " + kind +
                                ":lower:upper");
  if (kind == "int" || kind == "int-log") {
    const ParameterScale scale = kind == "int" ? ParameterScale::kLinear : ParameterScale::kLog;
    return Parameter::Integer(name, ParseInteger(fields[1], where + " lower"),
                              ParseInteger(fields[2], where + " upper"), scale);
  }
  const ParameterScale scale = kind == "log" ? ParameterScale::kLog : ParameterScale::kLinear;
  return Parameter::Real(name, ParseDouble(fields[1], where + " lower"),
                         ParseDouble(fields[2], where + " upper"), scale);
}

}  // namespace

Parameter ParseParameterSpec(const std::string& spec) {
  std::string name, rest;
  SplitPair(spec, "parameter spec", &name, &rest);
  const std::string where = "parameter spec '" + spec + "'";
  Parameter p;
  const std::vector<std::string> fields = Split(rest, ':');
  if (rest.rfind("cat:", 0) == 0) {
    if (rest.size() == 4) throw std::invalid_argument(where + ": 'cat' takes labels, cat:a,b,c");
    p = Parameter::Categorical(name, Split(rest.substr(4), ','));
  } else if (fields[0] == "real" || fields[0] == "log" || fields[0] == "int" ||
             fields[0] == "int-log") {
    p = Bounded(name, fields[0], fields, where);
  } else if (fields.size() == 2) {  // name=lower:upper, a linear real
    p = Parameter::Real(name, ParseDouble(fields[0], where + " lower"),
                        ParseDouble(fields[1], where + " upper"));
  } else {
    throw std::invalid_argument(where + ": the kind '" + fields[0] +
                                "' is not real, log, int, int-log or cat");
  }
  try {
    ParameterSpace({p});  // the space's checks of one parameter
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + ": " + e.what());
  }
  return p;
}

std::string FormatParameterSpec(const Parameter& p) {
  if (p.kind == ParameterKind::kCategorical) {
    std::string labels;
    for (const std::string& label : p.labels) {
      if (label.find(',') != std::string::npos)
        throw std::invalid_argument("parameter '" + p.name + "': the label '" + label +
                                    "' holds ',' and has no spec form");
      labels += (labels.empty() ? "" : ",") + label;
    }
    return p.name + "=cat:" + labels;
  }
  const bool log = p.scale == ParameterScale::kLog;
  const std::string kind =
      p.kind == ParameterKind::kInteger ? (log ? "int-log" : "int") : (log ? "log" : "real");
  return p.name + "=" + kind + ":" + FormatDouble(p.lower) + ":" + FormatDouble(p.upper);
}

ParameterSpace ParseParameterSpecs(const std::vector<std::string>& specs) {
  std::vector<Parameter> parameters;
  for (const std::string& spec : specs) parameters.push_back(ParseParameterSpec(spec));
  return ParameterSpace(std::move(parameters));
}

std::string FormatParameterSpaceJson(const ParameterSpace& space) {
  return nlohmann::json{{"parameters", internal::ParametersToJson(space)}}.dump();
}

ParameterSpace ParseParameterSpaceJson(const std::string& json_text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("parameter space: not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("parameters"))
    throw std::invalid_argument("parameter space: the JSON object has no \"parameters\"");
  return internal::ParametersFromJson(j.at("parameters"), "parameters");
}

std::string FormatNamedValues(const ParameterSpace& space, const NamedValues& values,
                              const std::string& separator) {
  space.ToVector(values, "values");  // every parameter, legal
  std::string text;
  for (const Parameter& p : space.parameters())
    text +=
        (text.empty() ? "" : separator) + p.name + "=" + FormatParameterValue(values.at(p.name));
  return text;
}

NamedValues ParseNamedValues(const ParameterSpace& space, const std::vector<std::string>& pairs) {
  NamedValues values;
  for (const std::string& pair : pairs) {
    std::string name, text;
    SplitPair(pair, "value", &name, &text);
    const int i = space.Index(name);
    if (i < 0)
      throw std::invalid_argument("value '" + pair + "': '" + name +
                                  "' is no parameter of the space");
    if (values.count(name) > 0)
      throw std::invalid_argument("value '" + pair + "': '" + name + "' is given twice");
    const Parameter& p = space.parameter(i);
    const std::string where = "value '" + pair + "'";
    if (p.kind == ParameterKind::kCategorical) {
      values[name] = text;
    } else if (p.kind == ParameterKind::kInteger) {
      values[name] = ParseInteger(text, where);
    } else {
      values[name] = ParseDouble(text, where);
    }
  }
  space.ToVector(values, "values");  // every parameter named, legal values
  return values;
}

}  // namespace gpbandit
