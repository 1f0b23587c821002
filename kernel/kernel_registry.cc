#include "gpbandit/kernel/kernel_registry.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

struct BuiltIn {
  const char* name;
  std::unique_ptr<Kernel> (*factory)(const KernelSpec&);
  const char* description;
};

// The built-in kernels: the one explicit table (a new kernel adds one line here, or registers
// itself at run time).
const BuiltIn kBuiltIns[] = {
    {"se",
     [](const KernelSpec& s) {
       return MakeSquaredExponential(s.dims, s.ard, s.variance, s.lengthscale);
     },
     "squared exponential s2 exp(-r^2 / 2), r = |(a - b) / l|"},
    {"matern12",
     [](const KernelSpec& s) { return MakeMatern12(s.dims, s.ard, s.variance, s.lengthscale); },
     "Matern nu = 1/2: s2 exp(-r)"},
    {"matern32",
     [](const KernelSpec& s) { return MakeMatern32(s.dims, s.ard, s.variance, s.lengthscale); },
     "Matern nu = 3/2: s2 (1 + sqrt(3) r) exp(-sqrt(3) r)"},
    {"matern52",
     [](const KernelSpec& s) { return MakeMatern52(s.dims, s.ard, s.variance, s.lengthscale); },
     "Matern nu = 5/2: s2 (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r)"},
    {"periodic",
     [](const KernelSpec& s) {
       return MakePeriodic(s.dims, s.ard, s.variance, s.lengthscale,
                           s.InitialValue(ParamKind::kPeriod.name(), 1.0));
     },
     "exp-sine-squared s2 exp(-2 sum_k sin^2(pi (a - b)_k / p_k) / l_k^2) (period 1 unless "
     "given)"},
    {"linear",
     [](const KernelSpec& s) { return MakeLinear(s.dims, s.ard, s.variance, s.lengthscale); },
     "linear s2 sum_k a_k b_k / l_k^2"},
    {"constant", [](const KernelSpec& s) { return MakeConstant(s.variance); },
     "constant s2 (dims ignored)"},
};

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool CheckSpecValue(const std::string& field, double value, std::string* error) {
  if (value > 0.0 && std::isfinite(value)) return true;
  if (error != nullptr)
    *error = "KernelSpec." + field + " must be finite and > 0, got " + FormatDouble(value);
  return false;
}

void CheckKernelName(const std::string& name) {
  bool ok = !name.empty();
  for (char c : name)
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
  if (!ok)
    throw std::invalid_argument("name = \"" + name +
                                "\": a kernel name is non-empty, of a-z, 0-9, - and _");
}

}  // namespace

double KernelSpec::InitialValue(const std::string& kind_name, double fallback) const {
  const auto it = initial_values.find(kind_name);
  return it == initial_values.end() ? fallback : it->second;
}

bool KernelSpec::IsValid(std::string* error) const {
  if (!CheckSpecValue("variance", variance, error) ||
      !CheckSpecValue("lengthscale", lengthscale, error))
    return false;
  for (const auto& [kind, value] : initial_values) {
    const std::string field = "initial_values[\"" + kind + "\"]";
    std::string problem;
    if (kind == ParamKind::kSignalVariance.name() || kind == ParamKind::kLengthscale.name()) {
      problem = "names a kind with its own field: set KernelSpec." +
                std::string(kind == ParamKind::kLengthscale.name() ? "lengthscale" : "variance");
    } else if (!ParamKind::IsRegistered(kind)) {
      problem = "names no registered parameter kind";
    } else if (!CheckSpecValue(field, value, error)) {
      return false;
    }
    if (!problem.empty()) {
      if (error != nullptr) *error = "KernelSpec." + field + " " + problem;
      return false;
    }
  }
  return true;
}

KernelRegistry& KernelRegistry::Default() {
  // A function-local static: initialized once, thread-safely, on first use.
  static KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    for (const BuiltIn& b : kBuiltIns) r->Register(b.name, b.factory, b.description);
    return r;
  }();
  return *registry;
}

void KernelRegistry::Register(const std::string& name, Factory factory,
                              const std::string& description) {
  CheckKernelName(name);
  if (!factory) throw std::invalid_argument("factory: empty factory for kernel '" + name + "'");
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Entry& entry : entries_) {
    if (entry.name == name)
      throw std::invalid_argument("name = '" + name +
                                  "': a kernel of this name is already registered");
  }
  entries_.push_back({name, std::move(factory), description});
}

KernelRegistry::Entry KernelRegistry::Find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Entry& entry : entries_)
    if (entry.name == name) return entry;
  std::vector<std::string> names;
  for (const Entry& entry : entries_) names.push_back(entry.name);
  throw std::invalid_argument("kernel = '" + name + "': unknown; registered: " + JoinNames(names));
}

std::unique_ptr<Kernel> KernelRegistry::Create(const std::string& name,
                                               const KernelSpec& spec) const {
  const Entry entry = Find(name);
  std::string error;
  if (!spec.IsValid(&error)) throw std::invalid_argument("kernel '" + name + "': " + error);
  std::unique_ptr<Kernel> kernel = entry.factory(spec);
  if (kernel == nullptr)
    throw std::invalid_argument("kernel = '" + name + "': its factory returned nullptr");
  return kernel;
}

std::string KernelRegistry::Description(const std::string& name) const {
  return Find(name).description;
}

std::vector<std::string> KernelRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const Entry& entry : entries_) names.push_back(entry.name);
  return names;
}

bool KernelRegistry::Contains(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Entry& entry : entries_)
    if (entry.name == name) return true;
  return false;
}

}  // namespace gpbandit
