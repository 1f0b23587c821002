#include "optimizer/optimizer_impl.h"

#include <algorithm>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "gpbandit/study/observation_log.h"
#include "optimizer/source_records.h"
#include "optimizer/study_header_match.h"

namespace gpbandit {
namespace internal {
OptimizerImpl::OptimizerImpl(const Domain& domain, std::unique_ptr<Strategy> strategy,
                             const std::string& strategy_name,
                             const StrategyParams& strategy_options,
                             const OptimizerOptions& options, std::unique_ptr<Kernel> kernel,
                             std::unique_ptr<StudyStorage> storage)
    : replica_(domain, std::move(strategy), strategy_name, strategy_options, options,
               std::move(kernel)),
      journal_(this),
      asks_(&replica_, &journal_),
      tells_(&replica_, &journal_),
      safe_recommender_(&replica_),
      recommender_(&replica_, &safe_recommender_) {
  // A log of its own (log_path) is resumed; any other storage is a study this worker joins.
  const bool resumes = !storage && !replica_.options.log_path.empty();
  if (!storage) storage = StudyJournal::StorageFromOptions(replica_.options);
  if (storage) {
    journal_.Attach(std::move(storage), replica_.options.worker);
    journal_.ReadAhead();  // the study's clock
    replica_.model->refit().OweIfDue(/*claims_hold=*/!resumes, journal_.now());
  }
  CopySourceObservations(this);
}

// Trial numbers are counted again from the study's records.
void OptimizerImpl::ResetReplica() {
  replica_.Reset();
  asks_.ForgetWarnings();
}

// The checks a study's header must pass to be continued by this optimizer.
void OptimizerImpl::CheckHeader(const std::string& header_json) const {
  CheckJoinableHeader(ParseLogHeader(header_json), replica_.MakeHeader(),
                      "the study " + journal_.storage().Describe());
}

void OptimizerImpl::Replay(const LogRecord& record) {
  switch (record.type) {
    case LogRecordType::kPending:
      replica_.domain.CheckAction(record.x, "log pending x");
      replica_.domain.CheckContext(record.z, "log pending z");
      replica_.pending.Add({record.x, record.z, record.round, record.worker, record.lease_until,
                            record.trial,
                            tells_.CheckFidelity(record.fidelity, "log pending fidelity")});
      replica_.rounds = std::max(replica_.rounds, record.round + 1);
      if (record.design_index >= 0)
        replica_.design->set_handed_out(
            std::max(replica_.design->handed_out(), record.design_index + 1));
      break;
    case LogRecordType::kTell:
      tells_.Replay(record);
      break;
    case LogRecordType::kFit:
      replica_.model->refit().ReplayFit(record);
      break;
    case LogRecordType::kRelease:
      if (record.trial >= 0)
        replica_.pending.RemoveTrial(record.trial);
      else
        replica_.pending.Remove(record.x, record.z);
      break;
    case LogRecordType::kClearPending:
      replica_.pending.Clear();
      break;
    case LogRecordType::kHeader:
      throw std::runtime_error("a second header record in the log");
  }
}

}  // namespace internal
}  // namespace gpbandit
