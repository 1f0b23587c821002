#include "cli/io/observations.h"

#include <vector>

namespace gpbandit {
namespace io {

Observations ReadObservations(const std::string& path, const RowLimit& limit) {
  const CsvTable table = ReadNumericCsv(path, true, true, limit);
  std::vector<std::string> names = table.header;
  const int last = static_cast<int>(names.size());
  if (names.back() != "y")
    throw FileFormatError(path, table.header_line, last,
                          "the last column must be 'y', found '" + names.back() + "'");
  names.pop_back();
  const std::vector<int> counts = ParseNumberedHeader(path, table.header_line, names, {"x", "z"});
  if (counts[0] == 0)
    throw FileFormatError(path, table.header_line, 1, "need at least one column x1 before y");
  Observations obs;
  obs.action_dim = counts[0];
  obs.context_dim = counts[1];
  obs.X = table.values.leftCols(last - 1).transpose();
  obs.y = table.values.col(last - 1);
  return obs;
}

}  // namespace io
}  // namespace gpbandit
