// The parts of the gpbandit._core extension module, one function per topic, each in its own
// file (<topic>_bindings.cc); module.cc calls them in order (later parts use the classes that
// earlier ones register).
#ifndef GPBANDIT_PYTHON_SRC_BINDINGS_H_
#define GPBANDIT_PYTHON_SRC_BINDINGS_H_

#include <pybind11/pybind11.h>

#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace python {

namespace py = pybind11;

void BindWarnings(py::module_& m);    // the library's warnings to logging ("gpbandit")
void BindDomain(py::module_& m);      // Domain
void BindKernels(py::module_& m);     // Kernel and its constructors
void BindModel(py::module_& m);       // GaussianProcess, FitReport, the options' JSON
void BindStrategies(py::module_& m);  // the registry, strategies written in Python
void BindOptimizer(py::module_& m);   // Optimizer (BindQueries adds its queries)

// Best at a context, predict, the per-round report and its callback (query_bindings.cc).
void BindQueries(py::class_<Optimizer>& c);
// Several outcomes: their tells, the Pareto front, hypervolume, feasibility (outcome_bindings.cc).
void BindOutcomes(py::class_<Optimizer>& c);
// Several fidelities: tells and predictions at a fidelity, the levels, the cost spent
// (fidelity_bindings.cc).
void BindFidelities(py::class_<Optimizer>& c);
// A Python callable as the prior mean of the reward model (prior_mean_bindings.cc).
void BindPriorMean(py::class_<Optimizer>& c);

}  // namespace python
}  // namespace gpbandit

#endif  // GPBANDIT_PYTHON_SRC_BINDINGS_H_
