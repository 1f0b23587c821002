// The library's warnings (gpbandit/numerics/warning_sink.h) in Python: each goes to the `logging`
// logger "gpbandit" at level WARNING, so that a Python host filters, formats and routes them as
// its own (logging.getLogger("gpbandit").setLevel(logging.ERROR) silences them). With no handler
// configured, Python's last-resort handler prints the message to stderr, as the C++ default does.
//
// Threads: a warning may come from any thread, also one Python does not know (an OpenMP worker)
// and one that holds an Optimizer's lock; the sink takes the GIL, which every binding that takes
// that lock releases first (optimizer_bindings.cc, WithoutGil), so no thread waits for the other.
// At exit the default sink is restored before the interpreter goes away.
#include <Python.h>

#include <string>

#include "bindings.h"
#include "gpbandit/numerics/warning_sink.h"

namespace gpbandit {
namespace python {
namespace {

void ToLogging(const std::string& message) {
  if (!Py_IsInitialized()) {
    WriteWarningToStderr(message);
    return;
  }
  py::gil_scoped_acquire gil;
  try {
    py::module_::import("logging").attr("getLogger")("gpbandit").attr("warning")("%s", message);
  } catch (py::error_already_set& e) {
    // A handler that raised: the warning is still said, and the error goes no further (a warning
    // never changes what the library does).
    e.discard_as_unraisable("gpbandit's warning sink");
    WriteWarningToStderr(message);
  }
}

}  // namespace

void BindWarnings(py::module_& m) {
  SetWarningSink(&ToLogging);
  py::module_::import("atexit").attr("register")(py::cpp_function([] { SetWarningSink(nullptr); }));
  (void)m;
}

}  // namespace python
}  // namespace gpbandit
