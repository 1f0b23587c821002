#include "python_strategy.h"

#include <limits>
#include <string>

namespace gpbandit {
namespace python {
namespace {

// The result of score(): a sequence of three numbers.
void Unpack(const py::object& result, const std::string& name, double* value, double* d_mean,
            double* d_variance) {
  const auto fail = [&] {
    throw py::type_error("strategy '" + name +
                         "': score(mean, variance) must return three numbers (value, d_mean, "
                         "d_variance), got " +
                         std::string(py::repr(result)));
  };
  if (!py::isinstance<py::sequence>(result) || py::isinstance<py::str>(result)) fail();
  const py::sequence items = py::reinterpret_borrow<py::sequence>(result);
  if (items.size() != 3) fail();
  try {
    *value = items[0].cast<double>();
    *d_mean = items[1].cast<double>();
    *d_variance = items[2].cast<double>();
  } catch (const py::cast_error&) {
    fail();
  }
}

}  // namespace

std::shared_ptr<const PythonStrategy::Callables> PythonStrategy::MakeCallables(
    py::object score, py::object begin_round) {
  // The last copy may go away on a thread without the GIL (a strategy copied inside ask()).
  return std::shared_ptr<const Callables>(
      new Callables{std::move(score), std::move(begin_round)}, [](const Callables* c) {
        if (!Py_IsInitialized()) return;  // the interpreter is gone: leak rather than crash
        py::gil_scoped_acquire gil;
        delete c;
      });
}

void PythonStrategy::BeginRound(const RoundState& state) {
  ValidateRoundState(state);
  if (callables_->begin_round.is_none()) return;
  py::gil_scoped_acquire gil;
  callables_->begin_round(state);
}

double PythonStrategy::figure() const { return std::numeric_limits<double>::quiet_NaN(); }

double PythonStrategy::Score(double mean, double variance, double* d_mean,
                             double* d_variance) const {
  double value = 0, dm = 0, dv = 0;
  {
    py::gil_scoped_acquire gil;
    Unpack(callables_->score(mean, variance), name_, &value, &dm, &dv);
  }
  if (d_mean != nullptr) *d_mean = dm;
  if (d_variance != nullptr) *d_variance = dv;
  return value;
}

}  // namespace python
}  // namespace gpbandit
