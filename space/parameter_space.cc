#include "gpbandit/space/parameter_space.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

bool ValidName(const std::string& name) {
  if (name.empty()) return false;
  const auto first = static_cast<unsigned char>(name[0]);
  if (!std::isalpha(first) && name[0] != '_') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '.' || c == '-';
  });
}

bool IsInteger(double v) { return std::isfinite(v) && v == std::floor(v); }

// "parameters[i] 'name'": how messages name a parameter.
std::string Where(std::size_t i, const Parameter& p) {
  return "parameters[" + std::to_string(i) + "] '" + p.name + "'";
}

void CheckBounds(const std::string& where, const Parameter& p) {
  const std::string bounds =
      where + " bounds [" + FormatDouble(p.lower) + ", " + FormatDouble(p.upper) + "]";
  if (!std::isfinite(p.lower) || !std::isfinite(p.upper))
    throw std::invalid_argument(bounds + " are not finite");
  if (p.lower > p.upper) throw std::invalid_argument(bounds + ": lower is greater than upper");
  if (!std::isfinite(p.upper - p.lower))
    throw std::invalid_argument(bounds + ": the width upper - lower overflows; rescale it");
  if (p.kind == ParameterKind::kInteger) {
    if (!IsInteger(p.lower) || !IsInteger(p.upper))
      throw std::invalid_argument(bounds + " of an integer parameter are not integers");
    if (std::abs(p.lower) > kMaxIntegerBound || std::abs(p.upper) > kMaxIntegerBound)
      throw std::invalid_argument(bounds + " of an integer parameter exceed +-2^53");
  }
  if (p.scale == ParameterScale::kLog) {
    const double least = p.kind == ParameterKind::kInteger ? 1.0 : 0.0;
    const bool ok = p.kind == ParameterKind::kInteger ? p.lower >= least : p.lower > least;
    if (!ok)
      throw std::invalid_argument(bounds + ": a log scale needs lower " +
                                  (p.kind == ParameterKind::kInteger ? ">= 1" : "> 0"));
  }
}

void CheckLabels(const std::string& where, const Parameter& p) {
  if (p.scale != ParameterScale::kLinear)
    throw std::invalid_argument(where + ": a categorical parameter has no log scale");
  if (p.labels.empty()) throw std::invalid_argument(where + " has no labels");
  std::set<std::string> seen;
  for (std::size_t k = 0; k < p.labels.size(); ++k) {
    const std::string at = where + " labels[" + std::to_string(k) + "]";
    if (p.labels[k].empty()) throw std::invalid_argument(at + " is empty");
    if (!seen.insert(p.labels[k]).second)
      throw std::invalid_argument(at + " = '" + p.labels[k] + "' is repeated");
  }
}

// The text of a value for messages: 'label', or the number.
std::string Quoted(const ParameterValue& v) {
  if (std::holds_alternative<std::string>(v)) return "'" + std::get<std::string>(v) + "'";
  return FormatParameterValue(v);
}

}  // namespace

std::string ParameterKindName(ParameterKind kind) {
  switch (kind) {
    case ParameterKind::kReal:
      return "real";
    case ParameterKind::kInteger:
      return "integer";
    case ParameterKind::kCategorical:
      return "categorical";
  }
  return "?";
}

std::string ParameterScaleName(ParameterScale scale) {
  return scale == ParameterScale::kLog ? "log" : "linear";
}

std::string FormatParameterValue(const ParameterValue& value) {
  if (const auto* d = std::get_if<double>(&value)) return FormatDouble(*d);
  if (const auto* i = std::get_if<long long>(&value)) return std::to_string(*i);
  return std::get<std::string>(value);
}

Parameter Parameter::Real(const std::string& name, double lower, double upper,
                          ParameterScale scale) {
  Parameter p;
  p.name = name;
  p.kind = ParameterKind::kReal;
  p.scale = scale;
  p.lower = lower;
  p.upper = upper;
  return p;
}

Parameter Parameter::Integer(const std::string& name, long long lower, long long upper,
                             ParameterScale scale) {
  Parameter p = Real(name, static_cast<double>(lower), static_cast<double>(upper), scale);
  p.kind = ParameterKind::kInteger;
  return p;
}

Parameter Parameter::Categorical(const std::string& name, const std::vector<std::string>& labels) {
  Parameter p;
  p.name = name;
  p.kind = ParameterKind::kCategorical;
  p.lower = 0.0;
  p.upper = 0.0;
  p.labels = labels;
  return p;
}

Parameter Parameter::Fixed(const std::string& name, const ParameterValue& value) {
  if (const auto* d = std::get_if<double>(&value)) return Real(name, *d, *d);
  if (const auto* i = std::get_if<long long>(&value)) return Integer(name, *i, *i);
  return Categorical(name, {std::get<std::string>(value)});
}

bool Parameter::fixed() const {
  return kind == ParameterKind::kCategorical ? labels.size() == 1 : lower == upper;
}

double Parameter::vector_lower() const { return kind == ParameterKind::kCategorical ? 0.0 : lower; }

double Parameter::vector_upper() const {
  return kind == ParameterKind::kCategorical ? static_cast<double>(labels.size()) - 1.0 : upper;
}

std::string Parameter::Describe() const {
  std::ostringstream s;
  s << name << ": " << ParameterKindName(kind) << " ";
  if (kind == ParameterKind::kCategorical) {
    s << "{";
    for (std::size_t k = 0; k < labels.size(); ++k) s << (k ? ", " : "") << labels[k];
    s << "}";
  } else {
    s << "[" << FormatDouble(lower) << ", " << FormatDouble(upper) << "]";
    if (scale == ParameterScale::kLog) s << " log";
  }
  return s.str();
}

bool Parameter::operator==(const Parameter& o) const {
  // Bounds compare by value: -0 and 0 are one bound.
  return name == o.name && kind == o.kind && scale == o.scale && lower == o.lower &&
         upper == o.upper && labels == o.labels;
}

ParameterSpace::ParameterSpace(std::vector<Parameter> parameters)
    : parameters_(std::move(parameters)) {
  if (parameters_.empty()) throw std::invalid_argument("parameters: the space has none");
  std::set<std::string> names;
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const Parameter& p = parameters_[i];
    const std::string where = Where(i, p);
    if (!ValidName(p.name))
      throw std::invalid_argument(where +
                                  ": a name starts with a letter or '_' and holds only letters, "
                                  "digits, '_', '.' and '-'");
    if (!names.insert(p.name).second) throw std::invalid_argument(where + ": the name is repeated");
    if (p.kind == ParameterKind::kCategorical) {
      CheckLabels(where, p);
    } else {
      CheckBounds(where, p);
    }
  }
}

int ParameterSpace::Index(const std::string& name) const {
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    if (parameters_[i].name == name) return static_cast<int>(i);
  return -1;
}

bool ParameterSpace::has_discrete() const {
  return std::any_of(parameters_.begin(), parameters_.end(),
                     [](const Parameter& p) { return p.discrete(); });
}

long long ParameterSpace::NumPoints(long long cap) const {
  long long points = 1;
  for (const Parameter& p : parameters_) {
    if (p.kind == ParameterKind::kReal && !p.fixed()) return 0;
    const double levels = p.kind == ParameterKind::kCategorical
                              ? static_cast<double>(p.labels.size())
                              : p.upper - p.lower + 1.0;  // integral bounds within 2^53
    points = levels >= static_cast<double>(cap) / static_cast<double>(points)
                 ? cap
                 : points * static_cast<long long>(levels);
  }
  return std::min(points, cap);
}

bool ParameterSpace::is_linear_box() const {
  return std::all_of(parameters_.begin(), parameters_.end(), [](const Parameter& p) {
    return p.kind == ParameterKind::kReal && p.scale == ParameterScale::kLinear;
  });
}

Eigen::VectorXd ParameterSpace::vector_lower() const {
  Eigen::VectorXd v(size());
  for (int i = 0; i < size(); ++i) v(i) = parameter(i).vector_lower();
  return v;
}

Eigen::VectorXd ParameterSpace::vector_upper() const {
  Eigen::VectorXd v(size());
  for (int i = 0; i < size(); ++i) v(i) = parameter(i).vector_upper();
  return v;
}

void ParameterSpace::CheckVector(const Eigen::VectorXd& x, const std::string& field) const {
  if (x.size() != size())
    throw std::invalid_argument(field + " has size " + std::to_string(x.size()) +
                                " but the space has " + std::to_string(size()) + " parameters");
  for (int i = 0; i < size(); ++i) {
    const Parameter& p = parameter(i);
    const std::string at =
        field + "[" + std::to_string(i) + "] ('" + p.name + "') = " + FormatDouble(x(i));
    if (!std::isfinite(x(i))) throw std::invalid_argument(at + " is not finite");
    if (x(i) < p.vector_lower() || x(i) > p.vector_upper())
      throw std::invalid_argument(at + " is outside [" + FormatDouble(p.vector_lower()) + ", " +
                                  FormatDouble(p.vector_upper()) + "]");
    if (p.kind == ParameterKind::kInteger && !IsInteger(x(i)))
      throw std::invalid_argument(at + " is not an integer");
    if (p.kind == ParameterKind::kCategorical && !IsInteger(x(i)))
      throw std::invalid_argument(at + " is not the index of a label");
  }
}

Eigen::VectorXd ParameterSpace::ToVector(const NamedValues& values,
                                         const std::string& field) const {
  for (const auto& [name, value] : values)
    if (Index(name) < 0)
      throw std::invalid_argument(field + " names '" + name + "' (= " + Quoted(value) +
                                  "), which is no parameter of the space");
  Eigen::VectorXd x(size());
  for (int i = 0; i < size(); ++i) {
    const Parameter& p = parameter(i);
    const auto found = values.find(p.name);
    const std::string at = field + "['" + p.name + "']";
    if (found == values.end()) throw std::invalid_argument(at + " is missing");
    const ParameterValue& v = found->second;
    const std::string given = at + " = " + Quoted(v);
    if (p.kind == ParameterKind::kCategorical) {
      const auto* label = std::get_if<std::string>(&v);
      if (label == nullptr) throw std::invalid_argument(given + ": a label is expected");
      const auto it = std::find(p.labels.begin(), p.labels.end(), *label);
      if (it == p.labels.end()) throw std::invalid_argument(given + " is not one of its labels");
      x(i) = static_cast<double>(it - p.labels.begin());
      continue;
    }
    if (std::holds_alternative<std::string>(v))
      throw std::invalid_argument(given + ": a number is expected");
    const double number = std::holds_alternative<double>(v)
                              ? std::get<double>(v)
                              : static_cast<double>(std::get<long long>(v));
    if (p.kind == ParameterKind::kInteger && !IsInteger(number))
      throw std::invalid_argument(given + " is not an integer");
    if (!std::isfinite(number) || number < p.lower || number > p.upper)
      throw std::invalid_argument(given + " is outside [" + FormatDouble(p.lower) + ", " +
                                  FormatDouble(p.upper) + "]");
    x(i) = number;
  }
  return x;
}

ParameterValue ParameterSpace::ValueAt(int i, double v) const {
  const Parameter& p = parameter(i);
  switch (p.kind) {
    case ParameterKind::kReal:
      return v;
    case ParameterKind::kInteger:
      return static_cast<long long>(v);
    case ParameterKind::kCategorical:
      return p.labels.at(static_cast<std::size_t>(v));
  }
  return v;
}

NamedValues ParameterSpace::ToNamed(const Eigen::VectorXd& x) const {
  CheckVector(x, "x");
  NamedValues named;
  for (int i = 0; i < size(); ++i) named[parameter(i).name] = ValueAt(i, x(i));
  return named;
}

std::string ParameterSpace::Describe() const {
  std::string s;
  for (const Parameter& p : parameters_) s += (s.empty() ? "" : ", ") + p.Describe();
  return s;
}

}  // namespace gpbandit
