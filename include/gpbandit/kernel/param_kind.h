// Parameter kinds: what a kernel's log-param measures, as data.
//
// Every log-param of a kernel declares a kind (Kernel::ParamKinds(), kernel.h). Whatever treats
// log-params by what they measure reads the kind's registered data, never its name:
// - a fit's default bounds and the range its random starts are drawn from (hyperparams/fit.h;
//   the built-in kinds' ranges can also be overridden by HyperparameterFitOptions' fields,
//   min_lengthscale etc., and any kind's by HyperparameterFitOptions::kind_ranges);
// - how a value fitted in model units (inputs in the unit cube, standardized outputs) maps back
//   to the problem's units, for reports (`gpbandit fit`);
// - the direction in which a safe strategy's refits may move it from its initial value.
//
// Four kinds are built in, in an explicit table (param_kind.cc): signal_variance, lengthscale,
// period and other. A kernel that needs another registers it once at run time, with all of its
// data, and declares it in its ParamKinds(); nothing else has to change:
//
//   const gpbandit::ParamKind kAlpha = gpbandit::ParamKind::Register(
//       {"alpha", "the shape of a rational-quadratic kernel", {0.05, 50.0, 0.3, 3.0},
//        gpbandit::OriginalUnits::kNone, gpbandit::CautiousDirection::kFree});
//
// A ParamKind is a small value (an index into the registry) that compares with == and is cheap
// to copy; ParamKind::kLengthscale etc. name the built-in kinds.
//
// Thread safety: every function locks the registry's mutex; a kind's data never changes once
// registered, and the reference info() returns stays valid for the life of the process.
#ifndef GPBANDIT_KERNEL_PARAM_KIND_H_
#define GPBANDIT_KERNEL_PARAM_KIND_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace gpbandit {

// How a kind's values map to the original units of a problem whose inputs a model maps to the
// unit cube (per input, x_unit = (x - lower) / width) and whose outputs it standardizes
// (y_std = (y - offset) / scale).
enum class OriginalUnits {
  kInputWidth,      // a length along one input: times the width of the input it acts on
  kOutputVariance,  // a variance of the outputs: times scale^2
  kNone,            // dimensionless: unchanged
};

// The direction in which a safe strategy's refits may move a log-param of this kind away from
// its initial value, so that a refitted model is never more confident than the one the user
// vouched for: lengthscales may only shrink (a rougher function), signal variances only grow (a
// wider prior).
enum class CautiousDirection {
  kFree,        // anywhere within the fit's bounds
  kOnlyGrow,    // lower bound raised to the initial value
  kOnlyShrink,  // upper bound lowered to the initial value
};

// "input_width", "output_variance", "none"; "free", "only_grow", "only_shrink".
std::string OriginalUnitsName(OriginalUnits units);
std::string CautiousDirectionName(CautiousDirection direction);

// A range of hyperparameter values (not logs), in model units: a fit bounds the value to
// [min, max] and draws random starts log-uniformly from [start_min, start_max] (intersected
// with the bounds). Valid when 0 < min < max < infinity and 0 < start_min < start_max <
// infinity (the start range may reach beyond the bounds; the fit then intersects them).
struct ParamRange {
  double min = 0.0;
  double max = 0.0;
  double start_min = 0.0;
  double start_max = 0.0;
  // True if valid; otherwise false and *error (if non-null) names the field and its value,
  // prefixed by `who`.
  bool IsValid(const std::string& who, std::string* error) const;
};

// The built-in kinds' default ranges. They suit inputs in the unit cube and standardized
// outputs: lengthscales from a thousandth to a hundred widths of the cube, periods from 100
// periods across it to a tenth of one, variances from 1e-3 to 1e3 times the outputs'.
// HyperparameterFitOptions' fields (min_lengthscale, ...) take their defaults from these.
inline constexpr ParamRange kDefaultSignalVarianceRange{1e-3, 1e3, 0.1, 10.0};
inline constexpr ParamRange kDefaultLengthscaleRange{1e-3, 1e2, 0.03, 3.0};
inline constexpr ParamRange kDefaultPeriodRange{1e-2, 10.0, 0.1, 1.0};

// Everything known about a kind.
struct ParamKindInfo {
  // Unique, non-empty, of lower-case letters, digits and '_' ("lengthscale"). Reports, options
  // (HyperparameterFitOptions::kind_ranges) and the Python module name kinds by it.
  std::string name;
  // One line for listings.
  std::string description;
  // The fit's default bounds and start range.
  ParamRange default_range;
  OriginalUnits original_units = OriginalUnits::kNone;
  CautiousDirection cautious_direction = CautiousDirection::kFree;
};

class ParamKind {
 public:
  // The built-in kinds (defined below the class).
  // A multiplicative scale of k, in output units squared: s2, an index kernel's scale, a
  // constant kernel's variance. Output variance; only grows under caution.
  static const ParamKind kSignalVariance;
  // A length in input units. Input width; only shrinks under caution.
  static const ParamKind kLengthscale;
  // The period of a periodic kernel, in input units. Input width; free.
  static const ParamKind kPeriod;
  // Anything else: the default of kernels that declare no kinds (the signal variances' range,
  // dimensionless, free).
  static const ParamKind kOther;

  // kOther.
  constexpr ParamKind() : id_(3) {}

  // Registers a kind and returns it. Registering a name again with the same data returns the
  // kind registered first (so that a kernel may register its kind wherever it is first
  // needed). Throws std::invalid_argument naming the field and value for an invalid name or
  // default_range, or a name already registered with other data (the registry is then
  // unchanged).
  static ParamKind Register(const ParamKindInfo& info);
  // The kind registered under `name`; throws std::invalid_argument naming it and listing the
  // registered names when there is none.
  static ParamKind FromName(const std::string& name);
  // True if a kind of this name is registered.
  static bool IsRegistered(const std::string& name);
  // Every registered kind, in registration order (the built-in ones first).
  static std::vector<ParamKind> All();

  // The kind's data.
  const ParamKindInfo& info() const;
  const std::string& name() const { return info().name; }

  // The registry index: 0, 1, 2, 3 for the built-in kinds, then in registration order.
  constexpr int id() const { return id_; }
  friend constexpr bool operator==(ParamKind a, ParamKind b) { return a.id_ == b.id_; }
  friend constexpr bool operator!=(ParamKind a, ParamKind b) { return a.id_ != b.id_; }
  friend constexpr bool operator<(ParamKind a, ParamKind b) { return a.id_ < b.id_; }

 private:
  constexpr explicit ParamKind(int id) : id_(id) {}
  int id_;
};

inline constexpr ParamKind ParamKind::kSignalVariance{0};
inline constexpr ParamKind ParamKind::kLengthscale{1};
inline constexpr ParamKind ParamKind::kPeriod{2};
inline constexpr ParamKind ParamKind::kOther{3};

// kind.name(): "signal_variance", "lengthscale", "period", "other", or a registered name.
std::string ParamKindName(ParamKind kind);
// Writes the kind's name (test failure messages).
std::ostream& operator<<(std::ostream& out, ParamKind kind);

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_PARAM_KIND_H_
