// gpbandit._core: the compiled part of the Python package `gpbandit` (python/gpbandit/ wraps it
// in the Python conventions: keyword options, named tuples, minimize).
//
// Exceptions: pybind11 turns std::invalid_argument into ValueError and std::runtime_error (and
// std::logic_error) into RuntimeError, with the same message. Errors raised by Python code the
// library calls (a strategy's score function) travel through the C++ code as
// pybind11::error_already_set and come out as the original Python exception.
//
// Threads: every call that computes (ask, tell, fits, opening a study) releases the GIL, so
// other Python threads run meanwhile; see strategy_bindings.cc for Python code called back from
// the library's threads.
#include <omp.h>
#include <pthread.h>

#include <memory>
#include <mutex>

#include "bindings.h"
#include "gpbandit/version.h"
#include "numerics/thread_policy.h"
#include "study/refit_claims.h"

namespace {

// libgomp is not fork-safe: a child forked after a parallel region hangs in its first one. A
// process forked from Python (multiprocessing's default start method on Linux) therefore runs
// gpbandit on one thread, as the pagmo adapter's fork islands do.
void SingleThreadedChild() { omp_set_num_threads(1); }

// For tests: while on, every parallel region of the library uses the requested (or OpenMP's
// default) thread count, however small its work (numerics/thread_policy.h), so that the tests of
// forked children and of Python strategies on worker threads reach the parallel code paths.
void ForceParallelRegionsForTesting(bool on) {
  static std::unique_ptr<gpbandit::ScopedParallelismForTesting> scope;
  if (on && !scope) scope = std::make_unique<gpbandit::ScopedParallelismForTesting>();
  if (!on) scope.reset();
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The compiled part of gpbandit; use the package `gpbandit`.";
  // include/gpbandit/version.h, the one place the version is written.
  m.attr("__version__") = GPBANDIT_VERSION_STRING;
  static std::once_flag fork_handler;
  std::call_once(fork_handler, [] { pthread_atfork(nullptr, nullptr, &SingleThreadedChild); });
  m.def("_force_parallel_regions_for_testing", &ForceParallelRegionsForTesting,
        pybind11::arg("on"));
  // Whether a pending point's worker is a process of this host that no longer runs (a default
  // name "host:pid", study/refit_claims.h): minimize evaluates such a crashed run's points.
  m.def("_worker_process_gone", &gpbandit::WorkerProcessGone, pybind11::arg("worker"));
  gpbandit::python::BindWarnings(m);
  gpbandit::python::BindDomain(m);
  gpbandit::python::BindKernels(m);
  gpbandit::python::BindModel(m);
  gpbandit::python::BindStrategies(m);
  gpbandit::python::BindOptimizer(m);
}
