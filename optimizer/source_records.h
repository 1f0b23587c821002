// Copies the observations of a study's sources (FidelitySpec::source, earlier studies) into
// the study as its own tell records at their levels, once: when the study has none at a source
// level yet, i.e. when it is created. A resumed or joined study already holds them and reads
// them from its records, so that its replay is that of the uninterrupted study. Internal to the
// library; called by OptimizerImpl's constructor after the study's records were read.
#ifndef GPBANDIT_OPTIMIZER_SOURCE_RECORDS_H_
#define GPBANDIT_OPTIMIZER_SOURCE_RECORDS_H_

namespace gpbandit {
namespace internal {

class OptimizerImpl;

// Throws std::invalid_argument, before recording anything, for a source level that the study
// holds no records of and that brings fewer observations than the probes each lower level gets
// (optimizer/fidelity_choice.h, FidelityProbes; 0 included: a level declared as a source
// without the earlier study read).
void CopySourceObservations(OptimizerImpl* impl);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_SOURCE_RECORDS_H_
