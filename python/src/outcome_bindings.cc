// Several outcomes of the Optimizer (optimizer/optimizer.h, "Several outcomes";
// study/outcome_options.h): tells of outcome vectors, the front, its hypervolume and reference
// point, the probability of feasibility and each outcome's posterior. python/gpbandit/
// optimizer.py turns names into vectors and these dicts into named tuples. Each call converts
// its arguments with the GIL held and releases it for the C++ call (which takes the
// optimizer's lock).
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace python {
namespace {

void TellOutcomeVector(Optimizer& opt, const py::object& x, const py::object& outcomes,
                       const py::object& context, const std::optional<long>& trial) {
  const Eigen::VectorXd xv = ToVector(x, "x"), z = ToVector(context, "context", true);
  const Eigen::VectorXd v = ToVector(outcomes, "y");
  py::gil_scoped_release release;
  if (trial)
    opt.TellTrialOutcomes(*trial, xv, z, v);
  else
    opt.TellOutcomes(xv, z, v);
}

// {name: value} in tell order; std::invalid_argument (ValueError) naming a missing or unknown
// outcome.
py::array_t<double> OutcomeVector(const Optimizer& opt, const OutcomeValues& named) {
  Eigen::VectorXd v;
  {
    py::gil_scoped_release release;
    v = opt.OutcomeVector(named);
  }
  return VectorToArray(std::move(v));
}

py::list ParetoFront(const Optimizer& opt) {
  std::vector<ParetoPoint> front;
  {
    py::gil_scoped_release release;
    front = opt.ParetoFront();
  }
  py::list out;
  for (ParetoPoint& p : front) {
    py::dict point;
    point["x"] = VectorToArray(std::move(p.x));
    point["context"] = VectorToArray(std::move(p.z));
    point["outcomes"] = VectorToArray(std::move(p.outcomes));
    point["means"] = VectorToArray(std::move(p.means));
    point["probability_feasible"] = p.probability_feasible;
    out.append(std::move(point));
  }
  return out;
}

// At each row of X (one point per row), at one context.
py::array_t<double> ProbabilityOfFeasibility(const Optimizer& opt, const py::object& X,
                                             const py::object& context) {
  const Eigen::MatrixXd points = RowsToColumns(X, "X");
  const Eigen::VectorXd z = ToVector(context, "context", true);
  Eigen::VectorXd p(points.cols());
  {
    py::gil_scoped_release release;
    for (Eigen::Index j = 0; j < points.cols(); ++j)
      p(j) = opt.ProbabilityOfFeasibility(points.col(j), z);
  }
  return VectorToArray(std::move(p));
}

// (mean, std) of outcome i at each row of X, at one context.
py::tuple PredictOutcome(const Optimizer& opt, int i, const py::object& X,
                         const py::object& context) {
  const Eigen::MatrixXd points = RowsToColumns(X, "X");
  const Eigen::VectorXd z = ToVector(context, "context", true);
  Eigen::VectorXd mean(points.cols()), stddev(points.cols());
  {
    py::gil_scoped_release release;
    for (Eigen::Index j = 0; j < points.cols(); ++j) {
      const Prediction p = opt.PredictOutcome(i, points.col(j), z);
      mean(j) = p.mean;
      stddev(j) = p.stddev;
    }
  }
  return py::make_tuple(VectorToArray(std::move(mean)), VectorToArray(std::move(stddev)));
}

// Every tell's outcomes, n x num_outcomes in tell order: objective 0 is Observation::y, the
// others Observation::constraints (NaN where a tell carried fewer, as a tell of one reward
// before the outcomes were declared cannot).
py::array_t<double> ObservedOutcomes(const Optimizer& opt) {
  std::vector<Observation> all;
  {
    py::gil_scoped_release release;
    all = opt.observations();
  }
  const int k = opt.options().outcomes.num_outcomes();
  Eigen::MatrixXd values = Eigen::MatrixXd::Constant(k, static_cast<Eigen::Index>(all.size()),
                                                     std::numeric_limits<double>::quiet_NaN());
  for (std::size_t j = 0; j < all.size(); ++j) {
    const auto col = static_cast<Eigen::Index>(j);
    values(0, col) = all[j].y;
    const Eigen::Index rest = std::min<Eigen::Index>(k - 1, all[j].constraints.size());
    if (rest > 0) values.col(col).segment(1, rest) = all[j].constraints.head(rest);
  }
  return ColumnsToRows(std::move(values));
}

// The study's declaration as Python values: ([(name, minimize)], [(name, sense, bound)]).
py::tuple Declared(const Optimizer& opt) {
  const OutcomeOptions& outcomes = opt.options().outcomes;
  py::list objectives, constraints;
  for (const ObjectiveSpec& o : outcomes.objectives)
    objectives.append(py::make_tuple(o.name, o.minimize));
  for (const ConstraintSpec& c : outcomes.constraints)
    constraints.append(py::make_tuple(c.name, ConstraintSenseSymbol(c.sense), c.bound));
  return py::make_tuple(objectives, constraints);
}

}  // namespace

void BindOutcomes(py::class_<Optimizer>& c) {
  c.def("tell_outcomes", &TellOutcomeVector, py::arg("x"), py::arg("outcomes"),
        py::arg("context") = py::none(), py::arg("trial") = py::none())
      .def("outcome_vector", &OutcomeVector, py::arg("named"))
      .def("pareto_front", &ParetoFront)
      .def("hypervolume", &Optimizer::Hypervolume, py::call_guard<py::gil_scoped_release>())
      .def("reference_point",
           [](const Optimizer& opt) {
             Eigen::VectorXd r;
             {
               py::gil_scoped_release release;
               r = opt.ReferencePoint();
             }
             return VectorToArray(std::move(r));
           })
      .def("probability_of_feasibility", &ProbabilityOfFeasibility, py::arg("X"),
           py::arg("context") = py::none())
      .def("predict_outcome", &PredictOutcome, py::arg("i"), py::arg("X"),
           py::arg("context") = py::none())
      .def("observed_outcomes", &ObservedOutcomes)
      // Fixed at construction (no lock).
      .def_property_readonly("outcome_names",
                             [](const Optimizer& opt) { return opt.options().outcomes.names(); })
      .def_property_readonly("declared_outcomes", &Declared);
}

}  // namespace python
}  // namespace gpbandit
