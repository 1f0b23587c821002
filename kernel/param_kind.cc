#include "gpbandit/kernel/param_kind.h"

#include <cmath>
#include <deque>
#include <mutex>
#include <ostream>
#include <stdexcept>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

// The built-in kinds: the one explicit table, in the order of their ids (ParamKind::kSignalVariance
// = 0, ...).
const ParamKindInfo kBuiltInKinds[] = {
    {"signal_variance", "a multiplicative scale of the kernel (output units squared)",
     kDefaultSignalVarianceRange, OriginalUnits::kOutputVariance, CautiousDirection::kOnlyGrow},
    {"lengthscale", "a length along an input (input units)", kDefaultLengthscaleRange,
     OriginalUnits::kInputWidth, CautiousDirection::kOnlyShrink},
    {"period", "the period of a periodic kernel (input units)", kDefaultPeriodRange,
     OriginalUnits::kInputWidth, CautiousDirection::kFree},
    {"other", "a log-param of a kernel that declares no kind", kDefaultSignalVarianceRange,
     OriginalUnits::kNone, CautiousDirection::kFree},
};

bool SameRange(const ParamRange& a, const ParamRange& b) {
  return a.min == b.min && a.max == b.max && a.start_min == b.start_min &&
         a.start_max == b.start_max;
}

bool SameInfo(const ParamKindInfo& a, const ParamKindInfo& b) {
  return a.name == b.name && a.description == b.description &&
         SameRange(a.default_range, b.default_range) && a.original_units == b.original_units &&
         a.cautious_direction == b.cautious_direction;
}

void CheckName(const std::string& name) {
  bool ok = !name.empty();
  for (char c : name) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  if (!ok)
    throw std::invalid_argument("ParamKindInfo.name = \"" + name +
                                "\" must be non-empty, of a-z, 0-9 and _");
}

// The registry. Entries are never removed nor changed, and a deque keeps references to them
// valid as it grows.
class KindRegistry {
 public:
  static KindRegistry& Get() {
    static KindRegistry* registry = new KindRegistry();  // never destroyed: used at exit too
    return *registry;
  }

  int Register(const ParamKindInfo& info) {
    CheckName(info.name);
    std::string error;
    if (!info.default_range.IsValid("ParamKindInfo.default_range", &error))
      throw std::invalid_argument("parameter kind \"" + info.name + "\": " + error);
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t id = 0; id < kinds_.size(); ++id) {
      if (kinds_[id].name != info.name) continue;
      if (SameInfo(kinds_[id], info)) return static_cast<int>(id);
      throw std::invalid_argument("ParamKindInfo.name = \"" + info.name +
                                  "\": a parameter kind of this name is already registered with "
                                  "other data");
    }
    kinds_.push_back(info);
    return static_cast<int>(kinds_.size()) - 1;
  }

  int Find(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t id = 0; id < kinds_.size(); ++id)
      if (kinds_[id].name == name) return static_cast<int>(id);
    return -1;
  }

  const ParamKindInfo& Info(int id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return kinds_.at(static_cast<std::size_t>(id));
  }

  int Size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(kinds_.size());
  }

  std::string Names() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string names;
    for (const ParamKindInfo& info : kinds_) names += (names.empty() ? "" : ", ") + info.name;
    return names;
  }

 private:
  KindRegistry() : kinds_(std::begin(kBuiltInKinds), std::end(kBuiltInKinds)) {}

  mutable std::mutex mutex_;
  std::deque<ParamKindInfo> kinds_;
};

bool CheckPositiveRange(double lo, double hi, const std::string& who, const char* lo_field,
                        const char* hi_field, std::string* error) {
  std::string message;
  if (!(lo > 0.0) || !std::isfinite(lo)) {
    message = who + "." + lo_field + " must be finite and > 0, got " + FormatDouble(lo);
  } else if (!(hi > lo) || !std::isfinite(hi)) {
    message = who + "." + hi_field + " must be finite and > " + lo_field + " (" + FormatDouble(lo) +
              "), got " + FormatDouble(hi);
  } else {
    return true;
  }
  if (error != nullptr) *error = message;
  return false;
}

}  // namespace

std::string OriginalUnitsName(OriginalUnits units) {
  switch (units) {
    case OriginalUnits::kInputWidth:
      return "input_width";
    case OriginalUnits::kOutputVariance:
      return "output_variance";
    case OriginalUnits::kNone:
      break;
  }
  return "none";
}

std::string CautiousDirectionName(CautiousDirection direction) {
  switch (direction) {
    case CautiousDirection::kOnlyGrow:
      return "only_grow";
    case CautiousDirection::kOnlyShrink:
      return "only_shrink";
    case CautiousDirection::kFree:
      break;
  }
  return "free";
}

bool ParamRange::IsValid(const std::string& who, std::string* error) const {
  return CheckPositiveRange(min, max, who, "min", "max", error) &&
         CheckPositiveRange(start_min, start_max, who, "start_min", "start_max", error);
}

ParamKind ParamKind::Register(const ParamKindInfo& info) {
  return ParamKind(KindRegistry::Get().Register(info));
}

ParamKind ParamKind::FromName(const std::string& name) {
  const int id = KindRegistry::Get().Find(name);
  if (id < 0)
    throw std::invalid_argument("parameter kind \"" + name +
                                "\" is not registered; registered: " + KindRegistry::Get().Names());
  return ParamKind(id);
}

bool ParamKind::IsRegistered(const std::string& name) {
  return KindRegistry::Get().Find(name) >= 0;
}

std::vector<ParamKind> ParamKind::All() {
  std::vector<ParamKind> kinds;
  const int n = KindRegistry::Get().Size();
  for (int id = 0; id < n; ++id) kinds.push_back(ParamKind(id));
  return kinds;
}

const ParamKindInfo& ParamKind::info() const { return KindRegistry::Get().Info(id_); }

std::string ParamKindName(ParamKind kind) { return kind.name(); }

std::ostream& operator<<(std::ostream& out, ParamKind kind) { return out << kind.name(); }

}  // namespace gpbandit
