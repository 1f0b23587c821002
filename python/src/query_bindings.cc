// The controller engineer's queries of the Optimizer (optimizer/optimizer.h): the recommendation at
// a context, the posterior at points, and the per-round report with an optional callback. Each
// converts its arguments with the GIL held and releases it for the C++ call.
#include <pybind11/stl.h>

#include <utility>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace python {
namespace {

py::dict RecommendationDict(Recommendation best) {
  py::dict out;
  out["x"] = VectorToArray(std::move(best.x));
  out["context"] = VectorToArray(std::move(best.z));
  out["posterior_mean"] = best.posterior_mean;
  out["observed_reward"] = best.observed_reward;
  return out;
}

// No context: the observed point with the highest posterior mean; a context: the maximizer of
// the posterior mean over the domain at that context.
py::dict Best(const Optimizer& opt, const py::object& context) {
  const bool at_context = !context.is_none();
  const Eigen::VectorXd z = ToVector(context, "context", true);
  Recommendation best;
  {
    py::gil_scoped_release release;
    best = at_context ? opt.Best(z) : opt.Best();
  }
  return RecommendationDict(std::move(best));
}

// Posterior mean and standard deviation of f at each row of X (one point per row), at one
// context.
py::tuple Predict(const Optimizer& opt, const py::object& X, const py::object& context) {
  const Eigen::MatrixXd points = RowsToColumns(X, "X");
  const Eigen::VectorXd z = ToVector(context, "context", true);
  Eigen::VectorXd mean(points.cols()), stddev(points.cols());
  {
    py::gil_scoped_release release;
    for (Eigen::Index j = 0; j < points.cols(); ++j) {
      const Prediction p = opt.Predict(points.col(j), z);
      mean(j) = p.mean;
      stddev(j) = p.stddev;
    }
  }
  return py::make_tuple(VectorToArray(std::move(mean)), VectorToArray(std::move(stddev)));
}

// Under a safe strategy: Optimizer::SafetyMargin at each row of X (NaN otherwise).
Eigen::VectorXd SafetyMargins(const Optimizer& opt, const py::object& X,
                              const py::object& context) {
  const Eigen::MatrixXd points = RowsToColumns(X, "X");
  const Eigen::VectorXd z = ToVector(context, "context", true);
  Eigen::VectorXd margins(points.cols());
  py::gil_scoped_release release;
  for (Eigen::Index j = 0; j < points.cols(); ++j) margins(j) = opt.SafetyMargin(points.col(j), z);
  return margins;
}

py::dict ReportDict(const RoundReport& r) {
  py::dict out;
  out["round"] = r.round;
  out["t"] = r.t;
  out["figure_name"] = r.figure_name;
  out["figure"] = r.figure;
  out["acquisition_values"] = r.acquisition_values;
  out["num_design_points"] = r.num_design_points;
  out["fitted"] = r.fitted;
  out["fit_report"] = r.fitted ? py::cast(r.fit_report) : py::none();
  out["seconds"] = r.seconds;
  out["warnings"] = r.warnings;
  out["choices_outside_lock"] = r.choices_outside_lock;
  out["chosen_under_lock"] = r.chosen_under_lock;
  return out;
}

// The callback runs on the thread that asked, after the points are recorded, with the GIL taken
// back for it; what it raises propagates out of that ask (whose points stay pending).
void SetRoundCallback(Optimizer& opt, const py::object& callback) {
  if (callback.is_none()) {
    opt.SetRoundCallback(nullptr);
    return;
  }
  if (!PyCallable_Check(callback.ptr()))
    throw py::type_error("round_callback must be callable or None");
  auto shared = std::make_shared<py::object>(callback);
  opt.SetRoundCallback([shared](const RoundReport& report) {
    py::gil_scoped_acquire gil;
    (*shared)(ReportDict(report));
  });
}

}  // namespace

void BindQueries(py::class_<Optimizer>& c) {
  c.def("best", &Best, py::arg("context") = py::none())
      .def("predict", &Predict, py::arg("X"), py::arg("context") = py::none())
      .def(
          "safety_margin",
          [](const Optimizer& opt, const py::object& X, const py::object& context) {
            return VectorToArray(SafetyMargins(opt, X, context));
          },
          py::arg("X"), py::arg("context") = py::none())
      .def("last_round_report",
           [](const Optimizer& opt) {
             RoundReport r;
             {
               py::gil_scoped_release release;
               r = opt.last_round_report();
             }
             return ReportDict(r);
           })
      .def("set_round_callback", &SetRoundCallback, py::arg("callback"));
}

}  // namespace python
}  // namespace gpbandit
