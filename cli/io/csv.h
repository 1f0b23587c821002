// Reading and writing the plain numeric CSV files of the command line (candidates, kernel
// matrices, functions, contexts, observations). Every malformed input is reported as a
// FileFormatError whose message starts "path:line:column:" (1-based; the column is the field
// number), the way compilers report errors, so that a person can jump to it.
//
// The format: fields separated by commas, optional spaces around fields, '#' starts a comment
// line, blank lines are skipped, no quoting; ASCII or UTF-8 (with or without a byte-order mark).
// Numbers are parsed with strtod (so "1e-3", "inf" and "nan" parse; callers that need finite values
// say so).
#ifndef GPBANDIT_CLI_IO_CSV_H_
#define GPBANDIT_CLI_IO_CSV_H_

#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace io {

// A malformed file. what() is "path:line:column: message" (line/column omitted when 0).
class FileFormatError : public std::runtime_error {
 public:
  FileFormatError(const std::string& path, int line, int column, const std::string& message);
  const std::string& path() const { return path_; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string path_;
  int line_, column_;
};

struct CsvTable {
  std::string path;
  std::vector<std::string> header;  // empty when read without a header
  int header_line = 0;              // the file line of the header (0 without one)
  Eigen::MatrixXd values;           // rows x columns, one data row per matrix row
  std::vector<int> lines;           // the file line of each data row (for later errors)

  int rows() const { return static_cast<int>(values.rows()); }
  int cols() const { return static_cast<int>(values.cols()); }
};

// At most max_rows data rows (<= 0: no limit), and why, for the message. A caller whose model
// grows faster than the file (an N x N matrix for N rows) sets one, so that a huge file ends in
// a clear error rather than an allocation failure.
struct RowLimit {
  int max_rows = 0;
  std::string reason;
};

// Reads a numeric CSV. With has_header the first non-comment line is the header (non-empty,
// distinct names). Every data row must have the same number of fields as the first row (or the
// header). When require_finite, nan and inf are rejected. A UTF-8 byte-order mark at the start
// of the file is skipped (spreadsheets write one); UTF-16 files are refused. Memory: 8 bytes
// per value while reading, twice that at the end. Throws FileFormatError (including when the
// file cannot be opened, has no data row, or has more rows than `limit` allows).
CsvTable ReadNumericCsv(const std::string& path, bool has_header, bool require_finite = true,
                        const RowLimit& limit = {});

// Writes values (rows x cols) with the given header (may be empty), doubles round-trip exact
// (FormatDouble). Throws std::runtime_error if the file cannot be written.
void WriteNumericCsv(const std::string& path, const std::vector<std::string>& header,
                     const Eigen::MatrixXd& values);

// "x1".."xn" and the like.
std::vector<std::string> NumberedNames(const std::string& prefix, int n);

// Checks that header names are prefix1..prefixK for each (prefix, K) in order, K >= 0 unknown:
// returns the count of each prefix found. Throws FileFormatError at the first bad column.
std::vector<int> ParseNumberedHeader(const std::string& path, int line,
                                     const std::vector<std::string>& header,
                                     const std::vector<std::string>& prefixes);

// Numbers are written by gp/format.h's FormatDouble (shortest round-trip form), also
// reachable as io::FormatDouble.
using ::gpbandit::FormatDouble;

}  // namespace io
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_IO_CSV_H_
