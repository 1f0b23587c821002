// The kernel registry: kernels by name, each built from a KernelSpec by a factory.
//
// The names are the ones `gpbandit fit --kernel`, the Python module (make_kernel,
// kernel_names) and MakeKernel (kernel_factory.h) take, and the first word of each kernel's
// Describe() ("matern52(dims=0,1; ard)"), which an observation log's header records. Default() is
// pre-filled from the explicit table in kernel_registry.cc (se, matern12, matern32, matern52,
// periodic, linear, constant), one line per kernel; there is no static self-registration
// (fragile in static libraries). User code adds kernels at run time:
//
//   gpbandit::KernelRegistry::Default().Register(
//       "rq", [](const gpbandit::KernelSpec& spec) {
//         return std::make_unique<RationalQuadratic>(spec.dims, spec.variance, spec.lengthscale,
//                                                    spec.InitialValue("alpha", 1.0));
//       },
//       "rational quadratic s2 (1 + r^2 / (2 alpha))^-alpha");
//
// A kernel whose log-params are of a new kind registers the kind too (param_kind.h); the fit,
// the reports and the safe strategies then treat it by its data, and nothing else changes.
//
// Thread safety: every member function locks a mutex; factories are called outside the lock,
// so a factory may itself use the registry.
#ifndef GPBANDIT_KERNEL_KERNEL_REGISTRY_H_
#define GPBANDIT_KERNEL_KERNEL_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

// What a factory builds a kernel from. Each kernel reads what it needs and ignores the rest
// (the constant kernel reads only `variance`).
struct KernelSpec {
  // The input coordinates the kernel acts on (kernel.h). Non-empty, distinct, >= 0 for every
  // kernel that reads inputs (the kernel's constructor checks them).
  std::vector<int> dims;
  // One lengthscale (and period) per dim, or one shared. Default true.
  bool ard = true;
  // The initial signal variance (kind signal_variance). Finite, > 0. Default 1.
  double variance = 1.0;
  // The initial value of every lengthscale (kind lengthscale), in the units of the inputs (the
  // unit cube's in an Optimizer). Finite, > 0. Default 1.
  double lengthscale = 1.0;
  // Initial values of the log-params of other kinds, by kind name (param_kind.h), e.g.
  // {{"period", 0.3}}: each name a registered kind other than signal_variance and lengthscale
  // (set the fields above for those), each value finite and > 0. A kernel reads the kinds it
  // has, with its own default (1 for the built-in ones) when absent. Default empty.
  std::map<std::string, double> initial_values;

  // initial_values[kind_name], or `fallback` when absent.
  double InitialValue(const std::string& kind_name, double fallback) const;
  // True if every field is in range; otherwise false and *error (if non-null) names the field
  // and its value.
  bool IsValid(std::string* error) const;
};

class KernelRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Kernel>(const KernelSpec&)>;

  // An empty registry (Default() is the pre-filled one).
  KernelRegistry() = default;
  KernelRegistry(const KernelRegistry&) = delete;
  KernelRegistry& operator=(const KernelRegistry&) = delete;

  // The process-wide registry with the built-in kernels.
  static KernelRegistry& Default();

  // Adds a kernel. The kernels it builds should describe themselves as name + "(...)". Throws
  // std::invalid_argument for a name that is empty or has characters other than a-z, 0-9, '-'
  // and '_', an empty factory, or a name already registered (the registry is then unchanged).
  void Register(const std::string& name, Factory factory, const std::string& description);

  // Builds the kernel `name` from spec. Throws std::invalid_argument for an unknown name (the
  // message lists the registered names), an invalid spec (naming the field), whatever the
  // kernel's constructor refuses, or a factory returning nullptr.
  std::unique_ptr<Kernel> Create(const std::string& name, const KernelSpec& spec) const;

  // The one-line description of a registered kernel; throws std::invalid_argument for an
  // unknown name.
  std::string Description(const std::string& name) const;
  // Registered names, in registration order (the built-in ones first).
  std::vector<std::string> Names() const;
  bool Contains(const std::string& name) const;

 private:
  struct Entry {
    std::string name;
    Factory factory;
    std::string description;
  };
  // A copy of the entry of `name`; throws std::invalid_argument for an unknown name.
  Entry Find(const std::string& name) const;

  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_KERNEL_REGISTRY_H_
