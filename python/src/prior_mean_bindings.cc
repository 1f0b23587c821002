// A Python callable as OptimizerOptions::prior_mean_function (study/prior_mean_function.h).
// The optimizer's calls release the GIL (optimizer_bindings.cc), and the maximizer calls the
// function from its OpenMP threads: each call takes the GIL, so Python runs one call at a time
// and the C++ threads wait for it; the callable object is released under the GIL too.
#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/optimizer/optimizer.h"
#include "settings.h"

namespace gpbandit {
namespace python {
namespace {

// The callable, dropped with the GIL held whatever thread drops the last copy.
std::shared_ptr<py::object> HoldWithGil(const py::object& callable) {
  return std::shared_ptr<py::object>(new py::object(callable), [](py::object* held) {
    py::gil_scoped_acquire gil;
    delete held;
  });
}

// m(x) or m(x, z) of numpy arrays, as a float; a Python exception becomes the
// std::invalid_argument the optimizer passes on (it must not cross an OpenMP region as a
// Python error).
PriorMeanFunction FromCallable(const py::object& callable, const std::string& name,
                               bool with_context) {
  PriorMeanFunction f;
  f.name = name;
  std::shared_ptr<py::object> held = HoldWithGil(callable);
  f.value = [held, name, with_context](const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
    py::gil_scoped_acquire gil;
    try {
      py::object result =
          with_context ? (*held)(VectorToArray(x), VectorToArray(z)) : (*held)(VectorToArray(x));
      return result.cast<double>();
    } catch (py::error_already_set& e) {
      throw std::invalid_argument("prior_mean '" + name + "' raised " + e.what());
    } catch (const py::cast_error&) {
      throw std::invalid_argument("prior_mean '" + name + "' returned no float");
    }
  };
  return f;
}

std::unique_ptr<Optimizer> ConstructWithPriorMean(
    const Domain& domain, const std::shared_ptr<Kernel>& kernel, const std::string& strategy,
    const std::string& strategy_options_json, const std::string& settings_json,
    const WorkerOptions& worker, const std::string& log, const std::string& storage,
    const std::string& study, const py::object& prior_mean, const std::string& name) {
  const StrategyParams strategy_options = ParamsFromJson(strategy_options_json);
  OptimizerOptions options = OptionsFromSettingsJson(settings_json);
  options.prior_mean_function = FromCallable(prior_mean, name, domain.context_dim() > 0);
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

void BindPriorMean(py::class_<Optimizer>& c) {
  c.def_static("create_with_prior_mean", &ConstructWithPriorMean, py::arg("domain"),
               py::arg("kernel"), py::arg("strategy"), py::arg("strategy_options_json"),
               py::arg("settings_json"), py::arg("worker"), py::arg("log"), py::arg("storage"),
               py::arg("study"), py::arg("prior_mean"), py::arg("name"));
  c.def_property_readonly("prior_mean_name", [](const Optimizer& opt) {
    return opt.options().prior_mean_function.name;
  });
}

}  // namespace python
}  // namespace gpbandit
