// The strategy registry (optimizer/strategy_registry.h) and strategies written in Python
// (python_strategy.h).
#include <pybind11/stl.h>

#include "bindings.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "python_strategy.h"

namespace gpbandit {
namespace python {
namespace {

void BindRoundState(py::module_& m) {
  py::class_<RoundState>(m, "RoundState",
                         "What a strategy may use to set up a round (acquisition/strategy.h); "
                         "values in the model's output units.")
      .def_readonly("t", &RoundState::t)
      .def_readonly("action_dim", &RoundState::action_dim)
      .def_readonly("num_candidates", &RoundState::num_candidates)
      .def_readonly("information_gain", &RoundState::information_gain)
      .def_readonly("incumbent", &RoundState::incumbent)
      .def_readonly("best_observed", &RoundState::best_observed)
      .def_readonly("noise_variance", &RoundState::noise_variance)
      .def_readonly("signal_variance", &RoundState::signal_variance)
      .def("__repr__", [](const RoundState& s) {
        return "RoundState(t=" + std::to_string(s.t) +
               ", incumbent=" + std::to_string(s.incumbent) + ")";
      });
}

// replace: Replace an entry of that name (the package allows it for its own strategies only).
void RegisterPythonStrategy(const std::string& name, py::object score, py::object begin_round,
                            const std::string& description, bool replace) {
  auto callables = PythonStrategy::MakeCallables(std::move(score), std::move(begin_round));
  StrategyRegistry::Factory factory =
      [name, callables](const StrategyParams& params) -> std::unique_ptr<Strategy> {
    if (!params.empty())
      throw std::invalid_argument("strategy '" + name +
                                  "' (written in Python) takes no options, got " + params.json());
    return std::make_unique<PythonStrategy>(name, callables);
  };
  const std::string text = description.empty() ? "written in Python" : description;
  if (replace)
    StrategyRegistry::Default().Replace(name, std::move(factory), StrategyParams(), text);
  else
    StrategyRegistry::Default().Register(name, std::move(factory), StrategyParams(), text);
}

}  // namespace

void BindStrategies(py::module_& m) {
  BindRoundState(m);
  m.def("strategy_names", [] { return StrategyRegistry::Default().Names(); });
  m.def(
      "strategy_defaults_json",
      [](const std::string& name) {
        return StrategyRegistry::Default().DefaultOptions(name).json();
      },
      py::arg("name"));
  m.def(
      "strategy_description",
      [](const std::string& name) { return StrategyRegistry::Default().Description(name); },
      py::arg("name"));
  m.def("register_python_strategy", &RegisterPythonStrategy, py::arg("name"), py::arg("score"),
        py::arg("begin_round"), py::arg("description"), py::arg("replace") = false);
}

}  // namespace python
}  // namespace gpbandit
