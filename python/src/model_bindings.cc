// The Gaussian-process model on its own (gp/gaussian_process.h) and its hyperparameter fit
// (hyperparams/fit.h): what `gpbandit fit` does on the command line, from Python. Inputs are in
// whatever units the caller gives (the Optimizer maps its own to the unit cube).
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <string>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/numerics/random.h"
#include "settings.h"

namespace gpbandit {
namespace python {
namespace {

void BindFitReport(py::module_& m) {
  py::enum_<FitTermination>(m, "FitTermination",
                            "How a hyperparameter fit ended (hyperparams/fit.h); .name is the "
                            "text FitReport.brief() shows.")
      .value("CONVERGENCE", FitTermination::kConvergence)
      .value("NO_CONVERGENCE", FitTermination::kNoConvergence)
      .value("FAILURE", FitTermination::kFailure)
      .value("NOT_RUN", FitTermination::kNotRun);
  using Report = HyperparameterFitReport;
  py::class_<Report>(m, "FitReport", "What a hyperparameter fit did (hyperparams/fit.h).")
      .def_readonly("success", &Report::success)
      .def_readonly("kept_previous", &Report::kept_previous)
      .def_readonly("log_marginal_likelihood", &Report::log_marginal_likelihood)
      .def_readonly("log_posterior", &Report::log_posterior)
      .def_readonly("iterations", &Report::iterations)
      .def_readonly("num_starts", &Report::num_starts)
      .def_readonly("best_start", &Report::best_start)
      .def_readonly("start_outcomes", &Report::start_outcomes)
      .def_readonly("failed_starts", &Report::failed_starts)
      .def_readonly("termination", &Report::termination)
      .def_readonly("params_at_bound", &Report::params_at_bound)
      .def_property_readonly("kernel_log_params",
                             [](const Report& r) { return VectorToArray(r.kernel_log_params); })
      .def_readonly("noise_variance", &Report::noise_variance)
      .def_readonly("message", &Report::message)
      .def("brief", &Report::BriefReport)
      .def("__repr__", [](const Report& r) { return "FitReport(" + r.BriefReport() + ")"; });
}

// A model shared by Python threads: its methods run without the GIL, so its own lock
// serializes them (GaussianProcess is not thread-safe). No Python code runs under the lock.
struct SharedModel {
  SharedModel(std::unique_ptr<Kernel> kernel, int input_dim, const GaussianProcessOptions& o)
      : gp(std::move(kernel), input_dim, o) {}
  GaussianProcess gp;
  std::mutex mutex;
};

// f(gp) under the model's lock, the GIL released while waiting and working.
template <typename F>
auto Locked(SharedModel& model, F f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(model.mutex);
  return f(model.gp);
}

void AddObservations(SharedModel& model, const py::object& X, const py::object& y) {
  const Eigen::MatrixXd columns = RowsToColumns(X, "X");
  const Eigen::VectorXd values = ToVector(y, "y");
  // Worded in the caller's rows and columns (the model holds points as columns).
  if (columns.cols() != values.size())
    throw std::invalid_argument("y must hold one value per row of X: X has " +
                                std::to_string(columns.cols()) + " rows, y " +
                                std::to_string(values.size()) + " values");
  if (columns.rows() != model.gp.input_dim() && columns.cols() > 0)
    throw std::invalid_argument("X has " + std::to_string(columns.rows()) +
                                " columns but the model's input_dim is " +
                                std::to_string(model.gp.input_dim()));
  Locked(model, [&](GaussianProcess& gp) {
    gp.AddObservations(columns, values);
    return 0;
  });
}

py::tuple Predict(SharedModel& model, const py::object& X) {
  const Eigen::MatrixXd columns = RowsToColumns(X, "X");
  if (columns.rows() != model.gp.input_dim() && columns.cols() > 0)
    throw std::invalid_argument("X has " + std::to_string(columns.rows()) +
                                " columns but the model's input_dim is " +
                                std::to_string(model.gp.input_dim()));
  Eigen::VectorXd means, variances;
  Locked(model, [&](GaussianProcess& gp) {
    gp.Predict(columns, &means, &variances);
    return 0;
  });
  // "predict" gives a standard deviation, as the Optimizer's does.
  Eigen::VectorXd stddevs = variances.cwiseMax(0.0).cwiseSqrt();
  return py::make_tuple(VectorToArray(std::move(means)), VectorToArray(std::move(stddevs)));
}

HyperparameterFitReport Fit(SharedModel& model, const std::string& settings_json,
                            std::uint64_t seed) {
  const HyperparameterFitOptions fit = OptionsFromSettingsJson(settings_json).fit;
  Rng rng = SeededRng({seed});
  return Locked(model, [&](GaussianProcess& gp) { return FitHyperparameters(fit, rng, &gp); });
}

void BindGaussianProcess(py::module_& m) {
  py::class_<SharedModel>(m, "GaussianProcess")
      .def(py::init([](const Kernel& kernel, int input_dim, const std::string& settings_json) {
             return std::make_unique<SharedModel>(kernel.Clone(), input_dim,
                                                  OptionsFromSettingsJson(settings_json).gp);
           }),
           py::arg("kernel"), py::arg("input_dim"), py::arg("settings_json"))
      .def("add_observations", &AddObservations, py::arg("X"), py::arg("y"))
      .def("predict", &Predict, py::arg("X"))
      .def("fit", &Fit, py::arg("settings_json"), py::arg("seed"))
      .def("log_marginal_likelihood",
           [](SharedModel& m) {
             return Locked(m, [](GaussianProcess& gp) { return gp.LogMarginalLikelihood(); });
           })
      .def_property_readonly("input_dim", [](SharedModel& m) { return m.gp.input_dim(); })
      .def_property_readonly("num_observations",
                             [](SharedModel& m) {
                               return Locked(
                                   m, [](GaussianProcess& gp) { return gp.num_observations(); });
                             })
      .def_property_readonly("kernel",
                             [](SharedModel& m) {
                               return std::shared_ptr<Kernel>(Locked(
                                   m, [](GaussianProcess& gp) { return gp.kernel().Clone(); }));
                             })
      .def_property_readonly("noise_variance",
                             [](SharedModel& m) {
                               return Locked(
                                   m, [](GaussianProcess& gp) { return gp.noise_variance(); });
                             })
      .def_property_readonly(
          "inputs",
          [](SharedModel& m) {
            return ColumnsToRows(Locked(m, [](GaussianProcess& gp) { return gp.inputs(); }));
          })
      .def_property_readonly("outputs", [](SharedModel& m) {
        return VectorToArray(Locked(m, [](GaussianProcess& gp) { return gp.outputs(); }));
      });
}

}  // namespace

void BindModel(py::module_& m) {
  m.def("default_settings_json", &DefaultSettingsJson, py::arg("plain_fit") = false);
  BindFitReport(m);
  BindGaussianProcess(m);
}

}  // namespace python
}  // namespace gpbandit
