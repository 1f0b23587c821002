// Earlier studies as sources (docs/fidelities.md, "Earlier studies as sources"): a finished
// study of the same objective on the same domain becomes the lowest level of a new study's
// joint multi-fidelity model (FidelitySpec::source), so that the new study starts from its data
// without taking them for today's system: the relation between the two (rho of the
// autoregressive model, B_mT of the ICM) is fitted by marginal likelihood like a fidelity's.
//
// What is taken: the old study's accepted (finite) rewards at its target (every tell of a study
// without fidelities), with their contexts, in the caller's units and sense. Failed tells,
// pending points and the old study's lower fidelities or sources are left out.
//
// A new study copies them as its own tell records at the source's level when it is created
// (before any ask), so its log is self-contained and resuming it needs no old file. They are
// not the study's evaluations: not in Best(), CostSpent(), the trial numbers or the
// observation counts of Python's minimize.
//
// Thread safety: pure functions (they read, never write, the old study).
#ifndef GPBANDIT_OPTIMIZER_SOURCE_STUDY_H_
#define GPBANDIT_OPTIMIZER_SOURCE_STUDY_H_

#include <string>
#include <vector>

#include "gpbandit/space/domain.h"
#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

// The source level `name` (source = true, cost 0) with the observations of the finished study
// in the JSON-Lines log at `log_path`. domain and sense: the new study's, which the old header's
// must equal. Throws std::invalid_argument naming the file and the first difference for a
// missing or empty file, a file without a study header, a malformed record, another domain
// (its JSON, field by field) or sense, or a study without accepted observations at its target.
FidelitySpec ReadSourceStudy(const std::string& log_path, const Domain& domain,
                             ObjectiveSense sense, const std::string& name);
// The same from a study in a storage (file or database; StorageRegistry opens one by URL).
FidelitySpec ReadSourceStudy(StudyStorage& storage, const Domain& domain, ObjectiveSense sense,
                             const std::string& name);

// Puts `sources` before the levels of options->fidelities; a study without fidelities gets the
// target `target_name` (cost 1) after them and the ICM as its joint model (FidelityModel::kIcm:
// measured, docs/fidelities.md "Earlier studies as sources"; set the model afterwards to
// choose another). A study with fidelities keeps its model. Checks the result
// (FidelityOptions::IsValid) and throws std::invalid_argument naming the field, options unchanged.
void AddSources(OptimizerOptions* options, const std::vector<FidelitySpec>& sources,
                const std::string& target_name = "target");

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_SOURCE_STUDY_H_
