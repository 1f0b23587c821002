// Several fidelities of the Optimizer (optimizer/optimizer.h, "Fidelities";
// study/fidelity_options.h): tells at a fidelity given by index or name, the posterior at a
// fidelity, the declared levels and the cost spent. python/gpbandit/optimizer.py turns the
// pending points' fidelity indices into the names its suggestions carry. Each call converts its
// arguments with the GIL held and releases it for the C++ call (which takes the optimizer's
// lock).
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/source_study.h"
#include "settings.h"

namespace gpbandit {
namespace python {
namespace {

// A fidelity as Python gives it: its index (0 the cheapest) or its name.
using FidelityArg = std::variant<int, std::string>;

// The index of `fidelity`; std::invalid_argument (ValueError) naming an unknown name. An index
// is checked by the C++ call that takes it.
int FidelityIndexOf(const Optimizer& opt, const FidelityArg& fidelity) {
  if (const int* index = std::get_if<int>(&fidelity)) return *index;
  return opt.FidelityIndex(std::get<std::string>(fidelity));
}

void TellAtFidelity(Optimizer& opt, const py::object& x, double y, const py::object& context,
                    const FidelityArg& fidelity, const std::optional<long>& trial) {
  const Eigen::VectorXd xv = ToVector(x, "x"), z = ToVector(context, "context", true);
  py::gil_scoped_release release;
  const int index = FidelityIndexOf(opt, fidelity);
  if (trial)
    opt.TellTrialFidelity(*trial, xv, z, y, index);
  else
    opt.TellFidelity(xv, z, y, index);
}

// (mean, std) of f at fidelity `fidelity` at each row of X, at one context.
py::tuple PredictAtFidelity(const Optimizer& opt, const py::object& X, const py::object& context,
                            const FidelityArg& fidelity) {
  const Eigen::MatrixXd points = RowsToColumns(X, "X");
  const Eigen::VectorXd z = ToVector(context, "context", true);
  Eigen::VectorXd mean(points.cols()), stddev(points.cols());
  {
    py::gil_scoped_release release;
    const int index = FidelityIndexOf(opt, fidelity);
    for (Eigen::Index j = 0; j < points.cols(); ++j) {
      const Prediction p = opt.PredictFidelity(points.col(j), z, index);
      mean(j) = p.mean;
      stddev(j) = p.stddev;
    }
  }
  return py::make_tuple(VectorToArray(std::move(mean)), VectorToArray(std::move(stddev)));
}

// The declared fidelities, [(name, cost)] from the cheapest to the target ([] without).
py::list Levels(const Optimizer& opt) {
  py::list out;
  for (const FidelitySpec& level : opt.options().fidelities.levels)
    out.append(py::make_tuple(level.name, level.cost));
  return out;
}

// A new optimizer whose study has the earlier studies `sources` (read_source) below its
// fidelities (AddSources), else as Optimizer's constructor.
std::unique_ptr<Optimizer> ConstructWithSources(
    const Domain& domain, const std::shared_ptr<Kernel>& kernel, const std::string& strategy,
    const std::string& strategy_options_json, const std::string& settings_json,
    const WorkerOptions& worker, const std::string& log, const std::string& storage,
    const std::string& study, const std::vector<FidelitySpec>& sources, const std::string& model) {
  const StrategyParams strategy_options = ParamsFromJson(strategy_options_json);
  OptimizerOptions options = OptionsFromSettingsJson(settings_json);
  AddSources(&options, sources);
  // fidelity_model= given without fidelities= overrides the ICM AddSources chooses then.
  if (model == "autoregressive") options.fidelities.model = FidelityModel::kAutoregressive;
  if (model == "icm") options.fidelities.model = FidelityModel::kIcm;
  options.worker = worker;
  options.log_path = log;
  options.storage = storage;
  options.study = study;
  std::unique_ptr<Kernel> own_kernel = kernel ? kernel->Clone() : nullptr;
  py::gil_scoped_release release;
  return std::make_unique<Optimizer>(domain, std::move(own_kernel), strategy, strategy_options,
                                     options);
}

}  // namespace

void BindFidelities(py::class_<Optimizer>& c) {
  // An earlier study's observations as a source level (gpbandit/optimizer/source_study.h).
  py::class_<FidelitySpec>(c, "Source")
      .def_readonly("name", &FidelitySpec::name)
      .def_property_readonly(
          "size", [](const FidelitySpec& s) { return static_cast<long>(s.observations.size()); });
  c.def_static(
       "read_source",
       [](const std::string& path, const Domain& domain, bool minimize, const std::string& name) {
         py::gil_scoped_release release;
         return ReadSourceStudy(
             path, domain, minimize ? ObjectiveSense::kMinimize : ObjectiveSense::kMaximize, name);
       },
       py::arg("path"), py::arg("domain"), py::arg("minimize"), py::arg("name"))
      .def_static("create_with_sources", &ConstructWithSources, py::arg("domain"),
                  py::arg("kernel"), py::arg("strategy"), py::arg("strategy_options_json"),
                  py::arg("settings_json"), py::arg("worker"), py::arg("log"), py::arg("storage"),
                  py::arg("study"), py::arg("sources"), py::arg("model") = "");
  c.def("tell_fidelity", &TellAtFidelity, py::arg("x"), py::arg("y"), py::arg("context"),
        py::arg("fidelity"), py::arg("trial") = py::none())
      .def("predict_fidelity", &PredictAtFidelity, py::arg("X"), py::arg("context"),
           py::arg("fidelity"))
      .def("fidelity_index", &Optimizer::FidelityIndex, py::arg("name"),
           py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("cost_spent",
                             [](const Optimizer& opt) {
                               py::gil_scoped_release release;
                               return opt.CostSpent();
                             })
      // Fixed at construction (no lock).
      .def_property_readonly("fidelity_levels", &Levels);
}

}  // namespace python
}  // namespace gpbandit
