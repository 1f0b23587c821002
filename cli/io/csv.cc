#include "cli/io/csv.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace gpbandit {
namespace io {
namespace {

std::string Location(const std::string& path, int line, int column) {
  std::string out = path;
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out;
}

std::string Trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(Trim(field));
  // getline drops a trailing empty field ("1,2,"): keep it so that it is reported.
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

// Strips a UTF-8 byte-order mark from the first line; refuses UTF-16 (whose text would read as
// garbage with NUL bytes).
void StripByteOrderMark(const std::string& path, std::string* first_line) {
  if (first_line->compare(0, 3, "\xEF\xBB\xBF") == 0) {
    first_line->erase(0, 3);
  } else if (first_line->compare(0, 2, "\xFF\xFE") == 0 ||
             first_line->compare(0, 2, "\xFE\xFF") == 0) {
    throw FileFormatError(path, 1, 0, "the file is UTF-16 text; save it as UTF-8 or ASCII");
  }
}

// The header's names: non-empty and distinct.
void CheckHeader(const std::string& path, int line_number, const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (size_t c = 0; c < names.size(); ++c) {
    if (names[c].empty())
      throw FileFormatError(path, line_number, static_cast<int>(c) + 1, "empty column name");
    if (!seen.insert(names[c]).second)
      throw FileFormatError(path, line_number, static_cast<int>(c) + 1,
                            "duplicate column name '" + names[c] + "'");
  }
}

// Appends the fields of one data row to *values.
void ParseRow(const CsvTable& table, int line_number, const std::vector<std::string>& fields,
              bool require_finite, std::vector<double>* values) {
  for (size_t c = 0; c < fields.size(); ++c) {
    const std::string& field = fields[c];
    const int column = static_cast<int>(c) + 1;
    const std::string name = table.header.empty() ? "" : " (" + table.header[c] + ")";
    if (field.empty()) throw FileFormatError(table.path, line_number, column, "empty field" + name);
    char* end = nullptr;
    const double value = std::strtod(field.c_str(), &end);
    if (end == field.c_str() || *end != '\0')
      throw FileFormatError(table.path, line_number, column,
                            "'" + field + "' is not a number" + name);
    if (require_finite && !std::isfinite(value))
      throw FileFormatError(table.path, line_number, column,
                            "'" + field + "' is not a finite number" + name);
    values->push_back(value);
  }
}

}  // namespace

FileFormatError::FileFormatError(const std::string& path, int line, int column,
                                 const std::string& message)
    : std::runtime_error(Location(path, line, column) + ": " + message),
      path_(path),
      line_(line),
      column_(column) {}

CsvTable ReadNumericCsv(const std::string& path, bool has_header, bool require_finite,
                        const RowLimit& limit) {
  std::ifstream in(path);
  if (!in) throw FileFormatError(path, 0, 0, "cannot open file for reading");
  CsvTable table;
  table.path = path;
  std::vector<double> values;  // row-major
  std::string raw;
  int line_number = 0;
  int width = -1;
  bool header_pending = has_header;
  while (std::getline(in, raw)) {
    if (++line_number == 1) StripByteOrderMark(path, &raw);
    const std::string line = Trim(raw);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = SplitFields(line);
    if (header_pending) {
      CheckHeader(path, line_number, fields);
      table.header = fields;
      table.header_line = line_number;
      width = static_cast<int>(fields.size());
      header_pending = false;
      continue;
    }
    if (width < 0) width = static_cast<int>(fields.size());
    if (static_cast<int>(fields.size()) != width) {
      const int column = std::min<int>(static_cast<int>(fields.size()), width) + 1;
      throw FileFormatError(
          path, line_number, column,
          "expected " + std::to_string(width) + " fields, found " + std::to_string(fields.size()));
    }
    if (limit.max_rows > 0 && static_cast<int>(table.lines.size()) >= limit.max_rows)
      throw FileFormatError(
          path, line_number, 0,
          "more than " + std::to_string(limit.max_rows) + " data rows (" + limit.reason + ")");
    ParseRow(table, line_number, fields, require_finite, &values);
    table.lines.push_back(line_number);
  }
  if (header_pending) throw FileFormatError(path, 0, 0, "empty file: no header line");
  if (table.lines.empty()) throw FileFormatError(path, line_number, 0, "no data rows");
  const Eigen::Index rows = static_cast<Eigen::Index>(table.lines.size());
  table.values =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          values.data(), rows, width);
  return table;
}

void WriteNumericCsv(const std::string& path, const std::vector<std::string>& header,
                     const Eigen::MatrixXd& values) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot open file for writing");
  for (size_t c = 0; c < header.size(); ++c) out << (c ? "," : "") << header[c];
  if (!header.empty()) out << '\n';
  for (Eigen::Index r = 0; r < values.rows(); ++r) {
    for (Eigen::Index c = 0; c < values.cols(); ++c)
      out << (c ? "," : "") << FormatDouble(values(r, c));
    out << '\n';
  }
  if (!out) throw std::runtime_error(path + ": write failed");
}

std::vector<std::string> NumberedNames(const std::string& prefix, int n) {
  std::vector<std::string> names;
  for (int i = 1; i <= n; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

std::vector<int> ParseNumberedHeader(const std::string& path, int line,
                                     const std::vector<std::string>& header,
                                     const std::vector<std::string>& prefixes) {
  std::vector<int> counts(prefixes.size(), 0);
  size_t group = 0;
  for (size_t c = 0; c < header.size(); ++c) {
    const std::string& name = header[c];
    bool matched = false;
    while (group < prefixes.size()) {
      const std::string expected = prefixes[group] + std::to_string(counts[group] + 1);
      if (name == expected) {
        ++counts[group];
        matched = true;
        break;
      }
      ++group;  // this group is finished; the name may start the next one
    }
    if (!matched) {
      std::string want;
      for (size_t g = 0; g < prefixes.size(); ++g) want += (g ? ", " : "") + prefixes[g] + "1..";
      throw FileFormatError(
          path, line, static_cast<int>(c) + 1,
          "unexpected column name '" + name + "' (expected columns " + want + " in that order)");
    }
  }
  return counts;
}

}  // namespace io
}  // namespace gpbandit
