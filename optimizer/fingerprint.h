// Optimizer::Fingerprint: a digest of everything in a study's replica that determines the
// optimizer's future behaviour (rounds, design, observations, pending points, the models'
// hyperparameters, standardization and predictions at a fixed probe), with the counts in plain
// text. Two replicas of one study that would behave alike have equal fingerprints. Internal to
// the library.
#ifndef GPBANDIT_OPTIMIZER_FINGERPRINT_H_
#define GPBANDIT_OPTIMIZER_FINGERPRINT_H_

#include <string>

#include "optimizer/study_replica.h"

namespace gpbandit {
namespace internal {

// "t=<rows + 1> told=<n> pending=<n> rounds=<n> digest=<16 hex digits>".
std::string Fingerprint(const StudyReplica& replica);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_FINGERPRINT_H_
