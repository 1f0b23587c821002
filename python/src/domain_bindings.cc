// Domain: where actions live (a box or a finite set of candidates, one per ROW in Python), and
// the context revealed each round.
#include <pybind11/operators.h>

#include <cmath>
#include <string>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/plugin/domain.h"

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
  c.def_property_readonly(
       "kind", [](const Domain& d) { return d.kind() == DomainKind::kBox ? "box" : "finite"; })
      .def_property_readonly("action_dim", &Domain::action_dim)
      .def_property_readonly("context_dim", &Domain::context_dim)
      .def_property_readonly("input_dim", &Domain::input_dim)
      .def_property_readonly(
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
  DomainClass c(m, "Domain", R"(The decision domain of an Optimizer (plugin/domain.h).

Build one with Domain.box(lower, upper) or Domain.finite(candidates), then optionally
.with_context(...). Points are in original units; the optimizer maps them to the unit cube
internally. Immutable.)");
  BindConstruction(c);
  BindAccessors(c);
}

}  // namespace python
}  // namespace gpbandit
