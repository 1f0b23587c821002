// The Optimizer facade: construction, resuming and opening studies, and each public call
// forwarded under the mutex to its implementation (optimizer/optimizer_impl.h).
#include "gpbandit/optimizer/optimizer.h"

#include <stdexcept>

#include "gpbandit/study/log_header.h"
#include "gpbandit/study/observation_log.h"
#include "optimizer/fingerprint.h"
#include "optimizer/optimizer_impl.h"
#include "study/interrupted_retry.h"

namespace gpbandit {
namespace {

void CheckOptimizerOptions(const OptimizerOptions& options) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("OptimizerOptions: " + error);
}

// Throws std::runtime_error (prefixed by `where`) when an optimizer cannot be rebuilt from this
// header: a kernel is given for a default-kernel log or missing for another, or its strategy is
// not registered.
void CheckResumable(const LogHeader& header, bool kernel_given, const std::string& where) {
  if (header.default_kernel && kernel_given)
    throw std::runtime_error(where +
                             ": it was written with the default kernel, but a kernel "
                             "was given");
  if (!header.default_kernel && !kernel_given)
    throw std::runtime_error(where + ": it was written with kernel " + header.kernel_description +
                             "; pass that kernel to Resume");
  if (!StrategyRegistry::Default().Contains(header.strategy))
    throw std::runtime_error(where + ": it was written by strategy '" + header.strategy +
                             "', which is not registered (register its factory with "
                             "StrategyRegistry::Default().Register before Resume)");
}

std::unique_ptr<internal::OptimizerImpl> ImplByName(const Domain& domain,
                                                    std::unique_ptr<Kernel> kernel,
                                                    const std::string& strategy,
                                                    const StrategyParams& strategy_options,
                                                    const OptimizerOptions& options,
                                                    std::unique_ptr<StudyStorage> storage) {
  CheckOptimizerOptions(options);
  std::unique_ptr<Strategy> created =
      StrategyRegistry::Default().Create(strategy, strategy_options);
  return std::make_unique<internal::OptimizerImpl>(
      domain, std::move(created), strategy,
      StrategyRegistry::Default().ResolveOptions(strategy, strategy_options), options,
      std::move(kernel), std::move(storage));
}

// The storage the options name, checked writable: a new optimizer will write its study, so an
// unwritable log fails here rather than at the first Ask (Resume and Open, which may only
// read, do not check).
std::unique_ptr<StudyStorage> WritableStorage(const OptimizerOptions& options) {
  CheckOptimizerOptions(options);
  std::unique_ptr<StudyStorage> storage = StudyJournal::StorageFromOptions(options);
  if (storage) storage->CheckWritable();
  return storage;
}

}  // namespace

Optimizer::Optimizer(std::unique_ptr<internal::OptimizerImpl> impl) : impl_(std::move(impl)) {}

Optimizer::Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
                     const std::string& strategy, const StrategyParams& strategy_options,
                     const OptimizerOptions& options)
    : impl_(ImplByName(domain, std::move(kernel), strategy, strategy_options, options,
                       WritableStorage(options))) {}

Optimizer::Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
                     const std::string& strategy, const OptimizerOptions& options)
    : Optimizer(domain, std::move(kernel), strategy, StrategyParams(), options) {}

Optimizer::Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
                     const std::string& strategy, const StrategyParams& strategy_options,
                     const OptimizerOptions& options, std::unique_ptr<StudyStorage> storage) {
  CheckOptimizerOptions(options);
  if (storage == nullptr) throw std::invalid_argument("storage: null");
  if (!options.log_path.empty() || !options.storage.empty())
    throw std::invalid_argument(
        "OptimizerOptions: log_path and storage must be empty when a storage object is given");
  impl_ = ImplByName(domain, std::move(kernel), strategy, strategy_options, options,
                     std::move(storage));
}

Optimizer::Optimizer(const Domain& domain, std::unique_ptr<Kernel> kernel,
                     std::unique_ptr<Strategy> strategy, const OptimizerOptions& options) {
  CheckOptimizerOptions(options);
  if (strategy == nullptr) throw std::invalid_argument("strategy: null");
  const std::string name = strategy->name();
  StrategyParams strategy_options;
  try {
    strategy_options = StrategyParams(strategy->OptionsJson());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("strategy '" + name + "': OptionsJson(): " + e.what());
  }
  impl_ = std::make_unique<internal::OptimizerImpl>(domain, std::move(strategy), name,
                                                    strategy_options, options, std::move(kernel),
                                                    WritableStorage(options));
}

Optimizer::~Optimizer() = default;

std::unique_ptr<Optimizer> Optimizer::Resume(const std::string& log_path,
                                             std::unique_ptr<Kernel> kernel) {
  const LogContents contents = ReadLog(log_path);
  if (contents.records.empty())
    throw std::runtime_error("cannot resume from '" + RedactUrl(log_path) +
                             "': no log header in it");
  LogHeader header = ParseLogHeader(contents.records.front().json);
  CheckResumable(header, kernel != nullptr, "cannot resume from '" + RedactUrl(log_path) + "'");
  header.options.log_path = log_path;
  return std::unique_ptr<Optimizer>(
      new Optimizer(ImplByName(header.domain, std::move(kernel), header.strategy,
                               header.strategy_options, header.options, nullptr)));
}

std::unique_ptr<Optimizer> Optimizer::Open(std::unique_ptr<StudyStorage> storage,
                                           std::unique_ptr<Kernel> kernel,
                                           const WorkerOptions& worker) {
  if (storage == nullptr) throw std::invalid_argument("storage: null");
  std::string error;
  if (!worker.IsValid(&error)) throw std::invalid_argument("WorkerOptions: " + error);
  const std::string where = "cannot open the study " + storage->Describe();
  std::string header_json = RetryInterrupted(*storage, "reading the study again", [&] {
    return storage->Begin(LockMode::kShared)->header();
  });
  if (header_json.empty()) throw std::runtime_error(where + ": no such study");
  LogHeader header = ParseLogHeader(header_json);
  CheckResumable(header, kernel != nullptr, where);
  header.options.worker = worker;
  return std::make_unique<Optimizer>(header.domain, std::move(kernel), header.strategy,
                                     header.strategy_options, header.options, std::move(storage));
}

std::unique_ptr<Optimizer> Optimizer::Open(const std::string& storage, const std::string& study,
                                           std::unique_ptr<Kernel> kernel,
                                           const WorkerOptions& worker) {
  StorageOptions storage_options;
  storage_options.reconnect_timeout_seconds = worker.reconnect_timeout_seconds;
  storage_options.lock_lease_seconds = worker.lock_lease_seconds;
  std::unique_ptr<Optimizer> optimizer =
      Open(OpenStudyStorage(storage, study, storage_options), std::move(kernel), worker);
  optimizer->impl_->mutable_options().storage = storage;
  optimizer->impl_->mutable_options().study = study;
  return optimizer;
}

// ---- Calls ------------------------------------------------------------------------------------

Eigen::VectorXd Optimizer::Ask(const Eigen::VectorXd& context) {
  return AskBatch(1, context).col(0);
}

Eigen::VectorXd Optimizer::Ask(const Eigen::VectorXd& context, long* trial) {
  std::vector<long> trials;
  const Eigen::VectorXd x = AskBatch(1, context, &trials).col(0);
  if (trial != nullptr) *trial = trials.front();
  return x;
}

Eigen::MatrixXd Optimizer::AskBatch(int q, const Eigen::VectorXd& context) {
  return AskBatch(q, context, nullptr);
}

Eigen::MatrixXd Optimizer::AskBatch(int q, const Eigen::VectorXd& context,
                                    std::vector<long>* trials) {
  Eigen::MatrixXd chosen;
  RoundReport report;
  std::function<void(const RoundReport&)> callback;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    chosen = impl_->asks().Ask(q, context, trials);
    report = impl_->asks().last_round_report();
    callback = impl_->round_callback;
  }
  // Outside the lock, so that the callback may query the optimizer.
  if (callback) callback(report);
  return chosen;
}

Eigen::MatrixXd Optimizer::PreviewAskBatch(int q, const Eigen::VectorXd& context,
                                           RoundReport* report) {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->asks().Preview(q, context, report);
}

Eigen::VectorXd Optimizer::PreviewAsk(const Eigen::VectorXd& context, RoundReport* report) {
  return PreviewAskBatch(1, context, report).col(0);
}

void Optimizer::Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y) {
  Tell(x, context, y, Eigen::VectorXd());
}

void Optimizer::Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& context, double y,
                     const Eigen::VectorXd& constraints) {
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->tells().Tell(x, context, y, constraints);
}

void Optimizer::TellTrial(long trial, const Eigen::VectorXd& x, const Eigen::VectorXd& context,
                          double y, const Eigen::VectorXd& constraints) {
  if (trial < 0)
    throw std::invalid_argument("trial " + std::to_string(trial) +
                                " is not pending (trial numbers are >= 0)");
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->tells().Tell(x, context, y, constraints, trial);
}

bool Optimizer::ReleaseTrial(long trial) {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->tells().ReleaseTrial(trial);
}

void Optimizer::TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z,
                         const Eigen::VectorXd& y) {
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->tells().TellMany(X, Z, y);
}

void Optimizer::ClearPending() {
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->tells().ClearPending();
}

bool Optimizer::Release(const Eigen::VectorXd& x, const Eigen::VectorXd& context) {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->tells().Release(x, context);
}

void Optimizer::Sync() {
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->journal().Sync();
}

bool Optimizer::CreateStudy() {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->tells().CreateStudy();
}

Recommendation Optimizer::Best() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->recommender().Best();
}

Recommendation Optimizer::Best(const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // One meaning for "best" without a context, whichever overload is called.
  if (context.size() == 0 && impl_->replica().domain.context_dim() == 0)
    return impl_->recommender().Best();
  return impl_->recommender().BestAt(context);
}

Prediction Optimizer::Predict(const Eigen::VectorXd& x, const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->recommender().Predict(x, context);
}

double Optimizer::SafetyMargin(const Eigen::VectorXd& x, const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->safe_recommender().SafetyMargin(x, context);
}

Prediction Optimizer::PredictConstraint(int i, const Eigen::VectorXd& x,
                                        const Eigen::VectorXd& context) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->safe_recommender().PredictConstraint(i, x, context);
}

void Optimizer::SetRoundCallback(std::function<void(const RoundReport&)> callback) {
  std::lock_guard<std::mutex> lock(mutex_);
  impl_->round_callback = std::move(callback);
}

RoundReport Optimizer::last_round_report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return impl_->asks().last_round_report();
}

std::string Optimizer::Fingerprint() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return internal::Fingerprint(impl_->replica());
}

}  // namespace gpbandit
