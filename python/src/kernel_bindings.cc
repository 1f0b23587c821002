// Kernels: every kernel gpbandit ships (gp/kernel_factory.h), each on a subset of the input
// coordinates (its dims), composable with * (product) and + (sum); the kernel registry by name
// and the registered parameter kinds (gp/kernel_registry.h, gp/param_kind.h).
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/kernel/kernel.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/kernel/kernel_registry.h"

namespace gpbandit {
namespace python {
namespace {

using KernelPtr = std::shared_ptr<Kernel>;

KernelPtr Combine(const Kernel& a, const Kernel& b, bool product) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(a.Clone());
  parts.push_back(b.Clone());
  return product ? MakeProduct(std::move(parts)) : MakeSum(std::move(parts));
}

// The kernel between the rows of A and of B (A itself when B is None): n x m.
// Each row of `points` (as the caller wrote them) within the kernel's reach.
void CheckRows(const Kernel& k, const Eigen::MatrixXd& points, const std::string& field) {
  if (points.cols() > 0 && points.rows() < k.MinInputDim())
    throw std::invalid_argument(field + " has " + std::to_string(points.rows()) +
                                " columns (coordinates), but " + k.Describe() + " needs at least " +
                                std::to_string(k.MinInputDim()));
  for (Eigen::Index j = 0; j < points.cols(); ++j)
    k.ValidatePoint(points.col(j), field + " row " + std::to_string(j));
}

py::array_t<double> Evaluate(const Kernel& k, const py::object& A, const py::object& B) {
  const Eigen::MatrixXd a = RowsToColumns(A, "A");
  CheckRows(k, a, "A");
  if (B.is_none()) return MatrixToArray(k.Gram(a));
  const Eigen::MatrixXd b = RowsToColumns(B, "B");
  CheckRows(k, b, "B");
  if (a.rows() != b.rows())
    throw std::invalid_argument("A has " + std::to_string(a.rows()) + " columns but B has " +
                                std::to_string(b.rows()));
  return MatrixToArray(k.Cross(a, b));
}

void BindKernelClass(py::module_& m) {
  py::class_<Kernel, KernelPtr>(m, "Kernel", R"(A covariance function k(a, b) (gp/kernel.h).

Each kernel acts on its dims, a subset of the input coordinates ([action; context] in an
Optimizer, in unit-cube coordinates there). Combine kernels with * (product) and + (sum);
both copy their operands. Hyperparameters live in log space (log_params).)")
      .def("__mul__", [](const Kernel& a, const Kernel& b) { return Combine(a, b, true); })
      .def("__add__", [](const Kernel& a, const Kernel& b) { return Combine(a, b, false); })
      .def("copy", [](const Kernel& k) { return KernelPtr(k.Clone()); })
      .def("describe", &Kernel::Describe)
      .def("__repr__", [](const Kernel& k) { return "Kernel(" + k.Describe() + ")"; })
      .def_property_readonly("min_input_dim", &Kernel::MinInputDim)
      .def_property_readonly("num_params", &Kernel::NumParams)
      .def_property_readonly("param_names", &Kernel::ParamNames)
      .def_property_readonly("param_kinds",
                             [](const Kernel& k) {
                               std::vector<std::string> kinds;
                               for (ParamKind kind : k.ParamKinds())
                                 kinds.push_back(ParamKindName(kind));
                               return kinds;
                             })
      .def_property(
          "log_params", [](const Kernel& k) { return VectorToArray(k.GetLogParams()); },
          [](Kernel& k, const py::object& v) { k.SetLogParams(ToVector(v, "log_params")); },
          "The hyperparameters in log space, in param_names order (1-D).")
      .def("__call__", &Evaluate, py::arg("A"), py::arg("B") = py::none(),
           R"(k between the rows of A (n x d) and of B (m x d): an n x m array; B = None gives
the Gram matrix of A.)");
}

// Every registered kind with its data, by name.
py::dict ParamKindsTable() {
  py::dict table;
  for (ParamKind kind : ParamKind::All()) {
    const ParamKindInfo& info = kind.info();
    py::dict entry;
    entry["description"] = info.description;
    entry["min"] = info.default_range.min;
    entry["max"] = info.default_range.max;
    entry["start_min"] = info.default_range.start_min;
    entry["start_max"] = info.default_range.start_max;
    entry["original_units"] = OriginalUnitsName(info.original_units);
    entry["cautious_direction"] = CautiousDirectionName(info.cautious_direction);
    table[py::str(info.name)] = entry;
  }
  return table;
}

// The kernels of continuous coordinates: the stationary families, Periodic and Constant.
void BindContinuousKernels(py::module_& m) {
  using Stationary = std::unique_ptr<Kernel> (*)(std::vector<int>, bool, double, double);
  const std::pair<const char*, Stationary> stationary[] = {
      {"SquaredExponential", &MakeSquaredExponential},
      {"Matern12", &MakeMatern12},
      {"Matern32", &MakeMatern32},
      {"Matern52", &MakeMatern52},
      {"Linear", &MakeLinear}};
  for (const auto& [name, make] : stationary) {
    m.def(
        name,
        [make = make](std::vector<int> dims, bool ard, double variance, double lengthscale) {
          return KernelPtr(make(std::move(dims), ard, variance, lengthscale));
        },
        py::arg("dims"), py::arg("ard") = true, py::arg("variance") = 1.0,
        py::arg("lengthscale") = 1.0,
        "A kernel over the coordinates `dims` (a list of ints), with one lengthscale per dim "
        "(ard) or one shared; signal variance and lengthscale are the starting values.");
  }
  m.def(
      "Periodic",
      [](std::vector<int> dims, bool ard, double variance, double lengthscale, double period) {
        return KernelPtr(MakePeriodic(std::move(dims), ard, variance, lengthscale, period));
      },
      py::arg("dims"), py::arg("ard") = true, py::arg("variance") = 1.0,
      py::arg("lengthscale") = 1.0, py::arg("period") = 1.0,
      "exp-sine-squared: s2 exp(-2 sum sin^2(pi (a - b)_k / p_k) / l_k^2) over dims.");
  m.def(
      "Constant", [](double variance) { return KernelPtr(MakeConstant(variance)); },
      py::arg("variance") = 1.0, "k = s2, a constant offset of the latent function.");
}

// The kernels of discrete coordinates: item indices and categorical labels.
void BindDiscreteKernels(py::module_& m) {
  m.def(
      "Index",
      [](int dim, const py::object& covariance, double scale) {
        return KernelPtr(MakeIndexKernel(dim, ToMatrix(covariance, "covariance"), scale));
      },
      py::arg("dim"), py::arg("covariance"), py::arg("scale") = 1.0,
      "k(a, b) = s M[a[dim], b[dim]]: coordinate dim holds an item index in [0, N), M is a fixed "
      "N x N symmetric PSD matrix (an inter-task or sensor covariance).");
  m.def(
      "Categorical",
      [](std::vector<int> dims, std::vector<int> sizes, bool ard, double variance,
         double lengthscale) {
        return KernelPtr(
            MakeCategorical(std::move(dims), std::move(sizes), ard, variance, lengthscale));
      },
      py::arg("dims"), py::arg("sizes"), py::arg("ard") = true, py::arg("variance") = 1.0,
      py::arg("lengthscale") = 1.0,
      "Exchangeable kernel s2 exp(-sum_k [a_k != b_k] / l_k) over categorical coordinates `dims` "
      "holding label indices (sizes[k] labels each): the default for a space's categoricals.");
  m.def(
      "OneHot",
      [](const KernelPtr& inner, std::vector<int> other_dims, std::vector<int> categorical_dims,
         std::vector<int> sizes) {
        return KernelPtr(MakeOneHot(inner->Clone(), std::move(other_dims),
                                    std::move(categorical_dims), std::move(sizes)));
      },
      py::arg("inner"), py::arg("other_dims"), py::arg("categorical_dims"), py::arg("sizes"),
      "`inner` over the one-hot embedding [other_dims; e(categorical_dims)] (p + sum(sizes) "
      "coordinates), e.g. OneHot(Matern52(range(p + sum(sizes))), ...).");
}

// The kernel registry by name and the parameter kinds.
void BindKernelRegistry(py::module_& m) {
  m.def(
      "make_kernel",
      [](const std::string& name, std::vector<int> dims, bool ard, double variance,
         double lengthscale, std::map<std::string, double> initial_values) {
        KernelSpec spec;
        spec.dims = std::move(dims);
        spec.ard = ard;
        spec.variance = variance;
        spec.lengthscale = lengthscale;
        spec.initial_values = std::move(initial_values);
        return KernelPtr(KernelRegistry::Default().Create(name, spec));
      },
      py::arg("name"), py::arg("dims"), py::arg("ard") = true, py::arg("variance") = 1.0,
      py::arg("lengthscale") = 1.0, py::arg("initial_values") = std::map<std::string, double>(),
      "A registered kernel by name (kernel_names()), as the command line's; initial_values gives "
      "the starting values of log-params of other kinds by kind name, e.g. {'period': 0.5}.");
  m.def(
      "kernel_names", [] { return KernelRegistry::Default().Names(); },
      "The registered kernels' names, the built-in ones first.");
  m.def(
      "kernel_description",
      [](const std::string& name) { return KernelRegistry::Default().Description(name); },
      py::arg("name"), "The one-line description of a registered kernel.");
  m.def("param_kinds", &ParamKindsTable,
        "The registered parameter kinds: {name: {description, min, max, start_min, start_max, "
        "original_units, cautious_direction}} (gp/param_kind.h).");
}

}  // namespace

void BindKernels(py::module_& m) {
  BindKernelClass(m);
  BindContinuousKernels(m);
  BindDiscreteKernels(m);
  BindKernelRegistry(m);
}

}  // namespace python
}  // namespace gpbandit
