// The user's own parameters: a list of named parameters, each of one kind,
//   real         a double in [lower, upper], on a linear or a log scale (log: lower > 0);
//   integer      an integer in [lower, upper], on a linear or a log scale (log: lower >= 1);
//   categorical  one label of a list of distinct labels,
// any of them fixed (a real or integer with lower == upper, a categorical with one label).
// scikit-optimize's Real / Integer / Categorical dimensions and Optuna's Float / Int /
// Categorical distributions are of these kinds; a box is a space of linear reals.
//
// Two representations of one point:
// - named values (NamedValues): name -> ParameterValue, a double for a real, an integer for an
//   integer, a label for a categorical;
// - a vector (Eigen::VectorXd, one entry per parameter in the space's order): the real, the
//   integer as a double (exact: integer bounds are within +-2^53), or the label's index in the
//   list. This is the "original units" action of Optimizer::Ask/Tell (domain.h); the model sees
//   its image under the space's transform (space_transform.h).
// The two convert exactly both ways (ToVector, ToNamed).
//
// Thread safety: immutable after construction.
#ifndef GPBANDIT_SPACE_PARAMETER_SPACE_H_
#define GPBANDIT_SPACE_PARAMETER_SPACE_H_

#include <Eigen/Core>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace gpbandit {

enum class ParameterKind { kReal, kInteger, kCategorical };
enum class ParameterScale { kLinear, kLog };
// "real", "integer", "categorical"; "linear", "log".
std::string ParameterKindName(ParameterKind kind);
std::string ParameterScaleName(ParameterScale scale);

// One parameter's value: a real (double), an integer (long long) or a label (std::string).
using ParameterValue = std::variant<double, long long, std::string>;
// A point by name.
using NamedValues = std::map<std::string, ParameterValue>;
// The value as text: a real in its shortest round-trip form (gp/format.h), an integer in
// decimal, a label as is.
std::string FormatParameterValue(const ParameterValue& value);

// The largest integer bound: every integer up to it is exact as a double.
constexpr double kMaxIntegerBound = 9007199254740992.0;  // 2^53

struct Parameter {
  // A letter or '_' first, then letters, digits, '_', '.' or '-' (so that "name=value" and
  // "name=kind:..." texts parse; parameter_spec.h).
  std::string name;
  ParameterKind kind = ParameterKind::kReal;
  ParameterScale scale = ParameterScale::kLinear;
  // Reals and integers (integers: integral values). Unused for categoricals.
  double lower = 0.0, upper = 1.0;
  // Categoricals: the labels, distinct and non-empty. Unused otherwise.
  std::vector<std::string> labels;

  static Parameter Real(const std::string& name, double lower, double upper,
                        ParameterScale scale = ParameterScale::kLinear);
  static Parameter Integer(const std::string& name, long long lower, long long upper,
                           ParameterScale scale = ParameterScale::kLinear);
  static Parameter Categorical(const std::string& name, const std::vector<std::string>& labels);
  // A parameter that always has `value`: a real, an integer or a categorical of one label.
  static Parameter Fixed(const std::string& name, const ParameterValue& value);

  // lower == upper, or a single label.
  bool fixed() const;
  // Integers and categoricals that are not fixed.
  bool discrete() const { return kind != ParameterKind::kReal && !fixed(); }
  // The bounds of its vector entry: [lower, upper], or [0, labels - 1] for a categorical.
  double vector_lower() const;
  double vector_upper() const;
  // E.g. "kp: real [0.1, 100] log", "taps: integer [1, 12]", "mode: categorical {pid, lead-lag}".
  std::string Describe() const;
  bool operator==(const Parameter& other) const;
  bool operator!=(const Parameter& other) const { return !(*this == other); }
};

class ParameterSpace {
 public:
  // Throws std::invalid_argument naming the parameter (its index and name), the field and the
  // value: no parameters; a bad or repeated name; non-finite or swapped bounds, or a width
  // upper - lower that overflows; a log scale with lower <= 0 (reals) or lower < 1 (integers);
  // integer bounds that are not integers or exceed +-2^53; no labels, an empty or repeated
  // label; a log scale on a categorical.
  explicit ParameterSpace(std::vector<Parameter> parameters);

  int size() const { return static_cast<int>(parameters_.size()); }
  const std::vector<Parameter>& parameters() const { return parameters_; }
  const Parameter& parameter(int i) const { return parameters_.at(static_cast<std::size_t>(i)); }
  // The index of the parameter called `name`, or -1.
  int Index(const std::string& name) const;
  // Some parameter is discrete (an integer or categorical that is not fixed).
  bool has_discrete() const;
  // Every parameter is a real on a linear scale (the space is a box).
  bool is_linear_box() const;
  // The number of legal points when no real varies (a finite space), saturating at `cap`; 0
  // when some real varies (a continuum).
  long long NumPoints(long long cap) const;

  // The vector entries' bounds (Parameter::vector_lower / vector_upper).
  Eigen::VectorXd vector_lower() const;
  Eigen::VectorXd vector_upper() const;

  // Throws std::invalid_argument naming `field`, the parameter and the value unless x is a
  // legal point: size() entries, finite, inside the bounds, integral for integers, a label's
  // index for categoricals.
  void CheckVector(const Eigen::VectorXd& x, const std::string& field) const;
  // The vector of named values. Every parameter must be named exactly once, with a value of its
  // kind (a real may be given an integer; an integer a double with an integral value), inside
  // its bounds or among its labels; else std::invalid_argument naming `field`, the parameter
  // and the value (and an unknown name).
  Eigen::VectorXd ToVector(const NamedValues& values, const std::string& field) const;
  // The named values of a legal vector (CheckVector; std::invalid_argument otherwise).
  NamedValues ToNamed(const Eigen::VectorXd& x) const;
  // Parameter i's value for vector entry v (legal for it).
  ParameterValue ValueAt(int i, double v) const;

  // "kp: real [0.1, 100] log, taps: integer [1, 12], mode: categorical {pid, lead-lag}".
  std::string Describe() const;
  bool operator==(const ParameterSpace& other) const { return parameters_ == other.parameters_; }
  bool operator!=(const ParameterSpace& other) const { return !(*this == other); }

 private:
  std::vector<Parameter> parameters_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_SPACE_PARAMETER_SPACE_H_
