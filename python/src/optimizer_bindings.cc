// The ask/tell Optimizer (optimizer/optimizer.h). python/gpbandit/optimizer.py wraps this class in
// the package's conventions (keyword options, named tuples); here each method converts its
// arguments with the GIL held, then releases the GIL for the C++ call.
//
// Ctrl-C: Python handles SIGINT by setting a flag that the interpreter checks between bytecodes,
// so a signal that arrives during a C++ call waits for it to return (an ask is not cut short).
// ask() and ask_batch() check the flag as soon as they return: when a handler raised (the
// default one raises KeyboardInterrupt), the points just handed out are released (they will
// never be evaluated: no pending point is left behind to steer later asks) and the exception
// propagates. A strategy written in Python sees the interrupt in its own code, which aborts the
// ask before anything was recorded. tell() is never undone.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrays.h"
#include "bindings.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "settings.h"

namespace gpbandit {
namespace python {
namespace {

using KernelPtr = std::shared_ptr<Kernel>;

std::unique_ptr<Kernel> CloneOrNull(const KernelPtr& kernel) {
  return kernel ? kernel->Clone() : nullptr;
}

// The actions and contexts of observations or pending points (members x and z), one per row,
// and their fidelity indices (-1 in a study without fidelities).
template <typename Item>
py::dict PointRows(const std::vector<Item>& items, const Domain& domain) {
  const auto n = static_cast<Eigen::Index>(items.size());
  Eigen::MatrixXd x(domain.action_dim(), n), z(domain.context_dim(), n);
  for (Eigen::Index j = 0; j < n; ++j) {
    x.col(j) = items[static_cast<std::size_t>(j)].x;
    if (domain.context_dim() > 0) z.col(j) = items[static_cast<std::size_t>(j)].z;
  }
  py::array_t<int> fidelity(static_cast<py::ssize_t>(n));
  for (std::size_t j = 0; j < items.size(); ++j)
    fidelity.mutable_at(static_cast<py::ssize_t>(j)) = items[j].fidelity;
  py::dict out;
  out["x"] = ColumnsToRows(std::move(x));
  out["context"] = ColumnsToRows(std::move(z));
  out["fidelity"] = fidelity;
  return out;
}

// After an ask returned: a pending signal's exception, raised once the points are given back.
void GiveBackIfInterrupted(Optimizer& opt, const std::vector<long>& trials) {
  if (PyErr_CheckSignals() == 0) return;
  py::error_already_set interrupted;
  try {
    py::gil_scoped_release release;
    for (long trial : trials) opt.ReleaseTrial(trial);
  } catch (const std::exception&) {
    // The storage refused the release: the points stay pending until their leases end, and the
    // interrupt, which the caller asked for, is what they get.
  }
  throw interrupted;
}

// (points, trial numbers) of one ask of q points.
py::tuple AskPoints(Optimizer& opt, int q, const py::object& context) {
  const Eigen::VectorXd z = ToVector(context, "context", true);
  Eigen::MatrixXd points;
  std::vector<long> trials;
  {
    py::gil_scoped_release release;
    points = opt.AskBatch(q, z, &trials);
  }
  GiveBackIfInterrupted(opt, trials);
  return py::make_tuple(ColumnsToRows(std::move(points)), py::cast(trials));
}

// The header of the study in this storage ("" when there is none yet), read without writing:
// the package refuses an existing study unless told to continue it (load_if_exists).
std::string StudyHeader(const std::string& log, const std::string& storage,
                        const std::string& study) {
  py::gil_scoped_release release;
  const std::unique_ptr<StudyStorage> opened =
      log.empty() ? OpenStudyStorage(storage, study) : OpenStudyStorage(log, "");
  return opened->Begin(LockMode::kShared)->header();
}

std::unique_ptr<Optimizer> Construct(const Domain& domain, const KernelPtr& kernel,
                                     const std::string& strategy,
                                     const std::string& strategy_options_json,
                                     const std::string& settings_json, const WorkerOptions& worker,
                                     const std::string& log, const std::string& storage,
                                     const std::string& study) {
  const StrategyParams strategy_options = ParamsFromJson(strategy_options_json);
  OptimizerOptions options = OptionsFromSettingsJson(settings_json);
  options.worker = worker;
  options.log_path = log;
  options.storage = storage;
  options.study = study;
  std::unique_ptr<Kernel> own_kernel = CloneOrNull(kernel);
  py::gil_scoped_release release;
  return std::make_unique<Optimizer>(domain, std::move(own_kernel), strategy, strategy_options,
                                     options);
}

// Calls into the optimizer that take its lock: the GIL must be released first, since an ask
// holding the lock may be waiting for the GIL (a strategy written in Python).
template <typename F>
py::cpp_function WithoutGil(F f) {
  return py::cpp_function(f, py::call_guard<py::gil_scoped_release>());
}

py::dict Observations(const Optimizer& opt) {
  std::vector<Observation> all;
  {
    py::gil_scoped_release release;
    all = opt.observations();
  }
  py::dict out = PointRows(all, opt.domain());
  Eigen::VectorXd y(static_cast<Eigen::Index>(all.size())), imputed(y.size());
  py::array_t<bool> accepted(static_cast<py::ssize_t>(all.size()));
  for (std::size_t j = 0; j < all.size(); ++j) {
    y(static_cast<Eigen::Index>(j)) = all[j].y;
    imputed(static_cast<Eigen::Index>(j)) = all[j].imputed;
    accepted.mutable_at(static_cast<py::ssize_t>(j)) = all[j].accepted;
  }
  out["y"] = VectorToArray(std::move(y));
  out["accepted"] = accepted;
  out["imputed"] = VectorToArray(std::move(imputed));
  return out;
}

py::dict Pending(const Optimizer& opt) {
  std::vector<PendingPoint> all;
  {
    py::gil_scoped_release release;
    all = opt.pending_points();
  }
  py::dict out = PointRows(all, opt.domain());
  py::array_t<long> rounds(static_cast<py::ssize_t>(all.size()));
  py::array_t<long> trials(static_cast<py::ssize_t>(all.size()));
  Eigen::VectorXd lease_until(static_cast<Eigen::Index>(all.size()));
  py::list workers;
  for (std::size_t j = 0; j < all.size(); ++j) {
    rounds.mutable_at(static_cast<py::ssize_t>(j)) = all[j].round;
    trials.mutable_at(static_cast<py::ssize_t>(j)) = all[j].trial;
    lease_until(static_cast<Eigen::Index>(j)) = all[j].lease_until;
    workers.append(all[j].worker);
  }
  out["round"] = rounds;
  out["trial"] = trials;
  out["worker"] = workers;
  out["lease_until"] = VectorToArray(std::move(lease_until));
  return out;
}

void BindWorkerOptions(py::module_& m) {
  py::class_<WorkerOptions>(m, "WorkerOptions",
                            "This process's part in a shared study (study/optimizer_options.h).")
      .def(py::init<>())
      .def_readwrite("pending_lease_seconds", &WorkerOptions::pending_lease_seconds)
      .def_readwrite("id", &WorkerOptions::id)
      .def_readwrite("reconnect_timeout_seconds", &WorkerOptions::reconnect_timeout_seconds)
      .def_readwrite("lock_lease_seconds", &WorkerOptions::lock_lease_seconds)
      .def_readwrite("asks_outside_lock", &WorkerOptions::asks_outside_lock)
      .def_readwrite("ask_tolerance", &WorkerOptions::ask_tolerance)
      .def_readwrite("fidelity", &WorkerOptions::fidelity);
}

template <typename Class>
void BindAskTell(Class& c) {
  // ask_batch(q, context) -> (q x d points, their trial numbers).
  c.def("ask_batch", &AskPoints, py::arg("q"), py::arg("context") = py::none())
      .def(
          "tell",
          [](Optimizer& opt, const py::object& x, double y, const py::object& context,
             const py::object& constraints, const std::optional<long>& trial) {
            const Eigen::VectorXd xv = ToVector(x, "x"), z = ToVector(context, "context", true);
            const Eigen::VectorXd g = ToVector(constraints, "constraints", true);
            py::gil_scoped_release release;
            if (trial)
              opt.TellTrial(*trial, xv, z, y, g);
            else
              opt.Tell(xv, z, y, g);
          },
          py::arg("x"), py::arg("y"), py::arg("context") = py::none(),
          py::arg("constraints") = py::none(), py::arg("trial") = py::none())
      .def(
          "tell_many",
          [](Optimizer& opt, const py::object& X, const py::object& y, const py::object& context) {
            const Eigen::MatrixXd xs = RowsToColumns(X, "X");
            const Eigen::MatrixXd zs = RowsToColumns(context, "context", true);
            const Eigen::VectorXd ys = ToVector(y, "y");
            py::gil_scoped_release release;
            opt.TellMany(xs, zs, ys);
          },
          py::arg("X"), py::arg("y"), py::arg("context") = py::none())
      .def(
          "release",
          [](Optimizer& opt, const py::object& x, const py::object& context) {
            const Eigen::VectorXd xv = ToVector(x, "x"), z = ToVector(context, "context", true);
            py::gil_scoped_release release;
            return opt.Release(xv, z);
          },
          py::arg("x"), py::arg("context") = py::none())
      .def("release_trial", &Optimizer::ReleaseTrial, py::arg("trial"),
           py::call_guard<py::gil_scoped_release>())
      .def("clear_pending", &Optimizer::ClearPending, py::call_guard<py::gil_scoped_release>())
      .def("sync", &Optimizer::Sync, py::call_guard<py::gil_scoped_release>())
      .def("create_study", &Optimizer::CreateStudy, py::call_guard<py::gil_scoped_release>());
}

py::object LastFitReport(const Optimizer& opt) {
  std::optional<HyperparameterFitReport> report;
  {
    py::gil_scoped_release release;
    if (opt.has_fit_report()) report = opt.last_fit_report();
  }
  if (!report) return py::none();
  return py::cast(std::move(*report));
}

template <typename Class>
void BindState(Class& c) {
  c.def("observations", &Observations)
      .def("pending", &Pending)
      .def("fingerprint", &Optimizer::Fingerprint, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("last_fit_report", &LastFitReport)
      .def_property_readonly("t", WithoutGil(&Optimizer::t))
      .def_property_readonly("rounds", WithoutGil(&Optimizer::rounds))
      .def_property_readonly("num_accepted", WithoutGil(&Optimizer::num_accepted))
      .def_property_readonly("num_failed", WithoutGil(&Optimizer::num_failed))
      .def_property_readonly("reward_unit", WithoutGil(&Optimizer::reward_unit))
      .def_property_readonly("figure", WithoutGil(&Optimizer::figure))
      .def_property_readonly("figure_name", WithoutGil(&Optimizer::figure_name))
      .def_property_readonly("information_gain", WithoutGil(&Optimizer::information_gain))
      // Fixed at construction (no lock).
      .def_property_readonly("domain", [](const Optimizer& opt) { return Domain(opt.domain()); })
      .def_property_readonly("strategy", &Optimizer::strategy_name)
      .def_property_readonly("strategy_options_json",
                             [](const Optimizer& opt) { return opt.strategy_options().json(); })
      .def_property_readonly("settings_json",
                             [](const Optimizer& opt) {
                               return FormatSettings(opt.strategy_name(), opt.strategy_options(),
                                                     opt.options());
                             })
      .def_property_readonly("log", [](const Optimizer& opt) { return opt.options().log_path; })
      .def_property_readonly("storage", [](const Optimizer& opt) { return opt.options().storage; })
      .def_property_readonly("study", [](const Optimizer& opt) { return opt.options().study; })
      .def_property_readonly("worker_id", &Optimizer::worker_id);
}

}  // namespace

void BindOptimizer(py::module_& m) {
  BindWorkerOptions(m);
  py::class_<Optimizer> c(m, "Optimizer");
  c.def(py::init(&Construct), py::arg("domain"), py::arg("kernel"), py::arg("strategy"),
        py::arg("strategy_options_json"), py::arg("settings_json"), py::arg("worker"),
        py::arg("log"), py::arg("storage"), py::arg("study"))
      .def_static(
          "resume",
          [](const std::string& path, const KernelPtr& kernel) {
            std::unique_ptr<Kernel> own_kernel = CloneOrNull(kernel);
            py::gil_scoped_release release;
            return Optimizer::Resume(path, std::move(own_kernel));
          },
          py::arg("path"), py::arg("kernel"))
      .def_static("study_header", &StudyHeader, py::arg("log"), py::arg("storage"),
                  py::arg("study"))
      .def_static(
          "open",
          [](const std::string& storage, const std::string& study, const KernelPtr& kernel,
             const WorkerOptions& worker) {
            std::unique_ptr<Kernel> own_kernel = CloneOrNull(kernel);
            py::gil_scoped_release release;
            return Optimizer::Open(storage, study, std::move(own_kernel), worker);
          },
          py::arg("storage"), py::arg("study"), py::arg("kernel"), py::arg("worker"));
  BindAskTell(c);
  BindState(c);
  BindQueries(c);
  BindOutcomes(c);
  BindFidelities(c);
  BindPriorMean(c);
}

}  // namespace python
}  // namespace gpbandit
