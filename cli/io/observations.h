// The observation file of `gpbandit fit`: a CSV with header x1..xd[,z1..zm],y, one observation
// per row (the action, the context if any, the reward). Errors are io::FileFormatError with
// file, line and column (io/csv.h).
#ifndef GPBANDIT_CLI_IO_OBSERVATIONS_H_
#define GPBANDIT_CLI_IO_OBSERVATIONS_H_

#include <Eigen/Core>
#include <string>

#include "cli/io/csv.h"

namespace gpbandit {
namespace io {

// X ((d + m) x n, one observation per column) and y (n).
struct Observations {
  int action_dim = 0;
  int context_dim = 0;
  Eigen::MatrixXd X;
  Eigen::VectorXd y;
};

// Reads the file at most `limit` rows long. Throws FileFormatError (y not last, no x column,
// columns out of order, and every error of ReadNumericCsv).
Observations ReadObservations(const std::string& path, const RowLimit& limit = {});

}  // namespace io
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_IO_OBSERVATIONS_H_
