// Domain: where actions live (a box, a finite set of candidates, one per ROW in Python, or a
// parameter space of named reals, integers and categoricals), and the context revealed each
// round.
#include <pybind11/operators.h>

#include <cmath>
#include <string>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/space/parameter_spec.h"
#include "gpbandit/space/space_transform.h"

namespace gpbandit {
namespace python {

namespace {

using DomainClass = py::class_<Domain>;

// The checks of Domain::FiniteSet, worded in the caller's rows (candidates) and columns
// (coordinates): C++ holds the candidates as columns.
void CheckCandidateRows(const Eigen::MatrixXd& columns) {
  if (columns.rows() < 1 || columns.cols() < 1)
    throw std::invalid_argument(
        "candidates must have at least one row (a candidate) and one "
        "column (a coordinate), got " +
        std::to_string(columns.cols()) + " x " + std::to_string(columns.rows()));
  for (Eigen::Index c = 0; c < columns.cols(); ++c)
    for (Eigen::Index i = 0; i < columns.rows(); ++i)
      if (!std::isfinite(columns(i, c)))
        throw std::invalid_argument("candidates[" + std::to_string(c) + ", " + std::to_string(i) +
                                    "] (row " + std::to_string(c) + ", column " +
                                    std::to_string(i) + ") is not finite");
}

// A space from a list of parameter dicts (parameter_spec.h's JSON form), through Python's json.
ParameterSpace SpaceFromPython(const py::object& parameters) {
  const std::string text =
      py::module_::import("json").attr("dumps")(parameters).cast<std::string>();
  return ParseParameterSpaceJson("{\"parameters\": " + text + "}");
}

py::object SpaceToPython(const ParameterSpace* space) {
  if (space == nullptr) return py::none();
  return py::module_::import("json").attr("loads")(FormatParameterSpaceJson(*space))["parameters"];
}

// {name: value} with Python's types: float for a real, int for an integer, str for a label.
py::dict NamedToPython(const NamedValues& named) {
  py::dict out;
  for (const auto& [name, value] : named) {
    if (const auto* d = std::get_if<double>(&value)) {
      out[py::str(name)] = py::float_(*d);
    } else if (const auto* i = std::get_if<long long>(&value)) {
      out[py::str(name)] = py::int_(*i);
    } else {
      out[py::str(name)] = py::str(std::get<std::string>(value));
    }
  }
  return out;
}

// A mapping's values as a str (a label), an int (anything with __index__: Python's and numpy's
// integers) or a float.
NamedValues NamedFromPython(const py::object& values, const char* field) {
  if (!py::isinstance<py::dict>(values))
    throw std::invalid_argument(std::string(field) + " must be a dict of name: value");
  NamedValues named;
  for (const auto& [key, value] : values.cast<py::dict>()) {
    const std::string name = py::str(key).cast<std::string>();
    if (py::isinstance<py::str>(value)) {
      named[name] = value.cast<std::string>();
    } else if (PyIndex_Check(value.ptr()) != 0) {
      named[name] = value.cast<long long>();
    } else {
      named[name] = value.cast<double>();
    }
  }
  return named;
}

const ParameterSpace& SpaceOf(const ParameterSpace* space, const char* what) {
  if (space == nullptr)
    throw std::invalid_argument(std::string(what) + " are not a parameter space");
  return *space;
}

void BindConstruction(DomainClass& c) {
  c.def_static(
       "box",
       [](const py::object& lower, const py::object& upper) {
         return Domain::Box(ToVector(lower, "lower"), ToVector(upper, "upper"));
       },
       py::arg("lower"), py::arg("upper"),
       R"(A box of actions [lower, upper] (1-D arrays of the same size; lower == upper fixes
a coordinate). ValueError for sizes that differ or are 0, non-finite bounds, lower > upper, or
a width that overflows.)")
      .def_static(
          "finite",
          [](const py::object& candidates) {
            const Eigen::MatrixXd columns = RowsToColumns(candidates, "candidates");
            CheckCandidateRows(columns);
            return Domain::FiniteSet(columns);
          },
          py::arg("candidates"),
          R"(A finite set of candidate actions: a 2-D array, ONE CANDIDATE PER ROW (N x d).)")
      .def_static(
          "space",
          [](const py::object& parameters) { return Domain::Space(SpaceFromPython(parameters)); },
          py::arg("parameters"),
          R"(A parameter space of named actions (space/parameter_space.h): a list of dicts, each
{"name", "type": "real" | "integer" | "categorical", "scale": "linear" | "log", "lower",
"upper"} or {"name", "type": "categorical", "labels": [...]}. An action is then a dict
{name: value} (Optimizer.ask returns one); its vector form holds the real, the integer, or the
label's index. gpbandit.space builds these from scikit-optimize's dimensions.)")
      .def(
          "with_context_space",
          [](const Domain& d, const py::object& parameters) {
            return d.WithContext(SpaceFromPython(parameters));
          },
          py::arg("parameters"),
          R"(This domain plus contexts that are a parameter space (named, as Domain.space's).)")
      .def(
          "with_context",
          [](const Domain& d, const py::object& dim, const py::object& lower,
             const py::object& upper) {
            const Eigen::VectorXd lo = ToVector(lower, "context_lower", true);
            const Eigen::VectorXd hi = ToVector(upper, "context_upper", true);
            int context_dim = 0;
            if (!dim.is_none()) {
              context_dim = dim.cast<int>();
            } else if (lo.size() > 0) {
              context_dim = static_cast<int>(lo.size());
            } else {
              throw std::invalid_argument(
                  "with_context needs dim, or the bounds lower and upper to take it from");
            }
            return d.WithContext(context_dim, lo, hi);
          },
          py::arg("dim") = py::none(), py::arg("lower") = py::none(), py::arg("upper") = py::none(),
          R"(This domain plus context coordinates revealed each round (CGP-UCB): dim of them,
unbounded (used as given), or within [lower, upper] (1-D arrays; dim may then be left out).)");
}

void BindAccessors(DomainClass& c) {
  c.def_property_readonly("kind",
                          [](const Domain& d) {
                            return d.kind() == DomainKind::kBox
                                       ? "box"
                                       : (d.kind() == DomainKind::kFiniteSet ? "finite" : "space");
                          })
      .def_property_readonly(
          "parameters", [](const Domain& d) { return SpaceToPython(d.action_space()); },
          "A space's parameters (Domain.space's dicts); None for a box or finite set.")
      .def_property_readonly(
          "context_parameters", [](const Domain& d) { return SpaceToPython(d.context_space()); },
          "The contexts' parameters when they are a space, else None.")
      .def_property_readonly("action_dim", &Domain::action_dim)
      .def_property_readonly("context_dim", &Domain::context_dim)
      .def_property_readonly("input_dim", &Domain::input_dim);
}

// A parameter space's points by name.
void BindNamedValues(DomainClass& c) {
  c.def(
       "to_dict",
       [](const Domain& d, const py::object& x) {
         return NamedToPython(SpaceOf(d.action_space(), "the actions").ToNamed(ToVector(x, "x")));
       },
       py::arg("x"), "The named values {name: float | int | str} of a space's action vector.")
      .def(
          "to_vector",
          [](const Domain& d, const py::object& values) {
            return VectorToArray(SpaceOf(d.action_space(), "the actions")
                                     .ToVector(NamedFromPython(values, "x"), "x"));
          },
          py::arg("values"), "The vector of a space's named action values (checked).")
      .def(
          "context_to_dict",
          [](const Domain& d, const py::object& z) {
            return NamedToPython(
                SpaceOf(d.context_space(), "the contexts").ToNamed(ToVector(z, "context")));
          },
          py::arg("z"))
      .def(
          "context_to_vector",
          [](const Domain& d, const py::object& values) {
            return VectorToArray(SpaceOf(d.context_space(), "the contexts")
                                     .ToVector(NamedFromPython(values, "context"), "context"));
          },
          py::arg("values"));
}

void BindBounds(DomainClass& c) {
  c.def_property_readonly(
       "lower", [](const Domain& d) { return VectorToArray(d.lower()); },
       "The action box's lower bounds (a finite set's bounding box).")
      .def_property_readonly("upper", [](const Domain& d) { return VectorToArray(d.upper()); })
      .def_property_readonly(
          "context_lower",
          [](const Domain& d) -> py::object {
            if (!d.has_context_bounds()) return py::none();
            return VectorToArray(d.context_lower());
          },
          "The context bounds, or None when contexts are unbounded or absent.")
      .def_property_readonly("context_upper",
                             [](const Domain& d) -> py::object {
                               if (!d.has_context_bounds()) return py::none();
                               return VectorToArray(d.context_upper());
                             })
      .def_property_readonly(
          "candidates",
          [](const Domain& d) -> py::object {
            if (d.kind() != DomainKind::kFiniteSet) return py::none();
            return ColumnsToRows(d.candidates());
          },
          "A finite set's candidates, one per row (N x d); None for a box.")
      .def_property_readonly("num_candidates", &Domain::num_candidates)
      .def("__repr__", [](const Domain& d) { return "Domain(" + d.Describe() + ")"; })
      .def(py::self == py::self)
      .def(py::self != py::self);
}

}  // namespace

void BindDomain(py::module_& m) {
  DomainClass c(m, "Domain", R"(The decision domain of an Optimizer (space/domain.h).

Build one with Domain.box(lower, upper), Domain.finite(candidates) or Domain.space(parameters),
then optionally .with_context(...) or .with_context_space(parameters). Points are in original
units; the optimizer maps them to the unit cube internally. Immutable.)");
  BindConstruction(c);
  BindAccessors(c);
  BindNamedValues(c);
  BindBounds(c);
}

}  // namespace python
}  // namespace gpbandit
