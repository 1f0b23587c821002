// A strategy written in Python: an index strategy (acquisition/strategy.h) whose Score is a
// Python callable score(mean, variance) -> (value, d_mean, d_variance), registered by name in
// StrategyRegistry::Default() so that an Optimizer builds it like a built-in one (and Resume
// rebuilds it once the same name is registered again in the new process).
//
// Threads and the GIL: the optimizer calls Score from the acquisition maximizer's OpenMP
// threads (inside Ceres callbacks) while the thread that called ask() has released the GIL.
// Every call to Python therefore takes the GIL itself (pybind11::gil_scoped_acquire, which also
// gives a thread Python has never seen a thread state). The maximizer's threads then take turns
// in Python: a Python strategy gets nothing from more than one thread, and num_threads=1 spares
// it the hand-offs. Python code must not wait for the thread that called ask().
//
// Errors: an exception raised by the callable, or a result that is not three finite-or-not
// numbers, leaves Score as a C++ exception (pybind11::error_already_set, or TypeError); the
// maximizer stores it, lets its other threads finish and rethrows it, so ask() raises the
// original Python exception and the optimizer stays as it was before the call (optimizer.h:
// the points are recorded only after the choice succeeded).
#ifndef GPBANDIT_PYTHON_SRC_PYTHON_STRATEGY_H_
#define GPBANDIT_PYTHON_SRC_PYTHON_STRATEGY_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {
namespace python {

namespace py = pybind11;

class PythonStrategy : public IndexStrategy {
 public:
  // The Python side of a strategy, shared by its copies. Released with the GIL held.
  struct Callables {
    py::object score;        // score(mean, variance) -> (value, d_mean, d_variance)
    py::object begin_round;  // begin_round(RoundState) or None
  };
  static std::shared_ptr<const Callables> MakeCallables(py::object score, py::object begin_round);

  PythonStrategy(std::string name, std::shared_ptr<const Callables> callables)
      : name_(std::move(name)), callables_(std::move(callables)) {}

  std::string name() const override { return name_; }
  // Validates the state (as every built-in does), then calls begin_round(state) if given.
  void BeginRound(const RoundState& state) override;
  // No figure of its own: NaN, "".
  double figure() const override;
  std::string figure_name() const override { return ""; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override {
    return std::make_unique<PythonStrategy>(*this);
  }

 private:
  std::string name_;
  std::shared_ptr<const Callables> callables_;
};

}  // namespace python
}  // namespace gpbandit

#endif  // GPBANDIT_PYTHON_SRC_PYTHON_STRATEGY_H_
