// The named values on the records of a parameter space's study (log format version 6,
// log_header.h): a pending or tell record of a domain built from a ParameterSpace carries
// "params" ({"kp": 0.3, "taps": 4, "mode": "pid"}) and, for contexts given as a space,
// "context_params", so that a reader of the study sees the user's parameters. Replay reads "x"
// and "z" only. Internal to study/.
#ifndef GPBANDIT_STUDY_NAMED_RECORDS_H_
#define GPBANDIT_STUDY_NAMED_RECORDS_H_

#include <Eigen/Core>
#include <string>

#include "gpbandit/space/domain.h"

namespace gpbandit {

// The record (a JSON object's text) with the named values of action x and context z added;
// the record itself when the domain has no parameter space.
std::string WithNamedValues(const std::string& record, const Domain& domain,
                            const Eigen::VectorXd& x, const Eigen::VectorXd& z);

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_NAMED_RECORDS_H_
