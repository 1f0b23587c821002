#include "gpbandit/examples/io/csv.h"

#include <cerrno>
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

}  // namespace

FileFormatError::FileFormatError(const std::string& path, int line, int column,
                                 const std::string& message)
    : std::runtime_error(Location(path, line, column) + ": " + message),
      path_(path),
      line_(line),
      column_(column) {}

CsvTable ReadNumericCsv(const std::string& path, bool has_header, bool require_finite) {
  std::ifstream in(path);
  if (!in) throw FileFormatError(path, 0, 0, "cannot open file for reading");
  CsvTable table;
  table.path = path;
  std::vector<std::vector<double>> rows;
  std::string raw;
  int line_number = 0;
  int width = -1;
  bool header_pending = has_header;
  while (std::getline(in, raw)) {
    ++line_number;
    const std::string line = Trim(raw);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = SplitFields(line);
    if (header_pending) {
      std::set<std::string> seen;
      for (size_t c = 0; c < fields.size(); ++c) {
        if (fields[c].empty())
          throw FileFormatError(path, line_number, static_cast<int>(c) + 1, "empty column name");
        if (!seen.insert(fields[c]).second)
          throw FileFormatError(path, line_number, static_cast<int>(c) + 1,
                                "duplicate column name '" + fields[c] + "'");
      }
      table.header = fields;
      table.header_line = line_number;
      width = static_cast<int>(fields.size());
      header_pending = false;
      continue;
    }
    if (width < 0) width = static_cast<int>(fields.size());
    if (static_cast<int>(fields.size()) != width) {
      const int column = std::min<int>(static_cast<int>(fields.size()), width) + 1;
      throw FileFormatError(path, line_number, column,
                            "expected " + std::to_string(width) + " fields, found " +
                                std::to_string(fields.size()));
    }
    std::vector<double> row(width);
    for (int c = 0; c < width; ++c) {
      const std::string& field = fields[c];
      const std::string name = table.header.empty() ? "" : " (" + table.header[c] + ")";
      if (field.empty())
        throw FileFormatError(path, line_number, c + 1, "empty field" + name);
      char* end = nullptr;
      errno = 0;
      const double value = std::strtod(field.c_str(), &end);
      if (end == field.c_str() || *end != '\0')
        throw FileFormatError(path, line_number, c + 1, "'" + field + "' is not a number" + name);
      if (require_finite && !std::isfinite(value))
        throw FileFormatError(path, line_number, c + 1,
                              "'" + field + "' is not a finite number" + name);
      row[c] = value;
    }
    rows.push_back(std::move(row));
    table.lines.push_back(line_number);
  }
  if (header_pending) throw FileFormatError(path, 0, 0, "empty file: no header line");
  if (rows.empty()) throw FileFormatError(path, line_number, 0, "no data rows");
  table.values.resize(static_cast<Eigen::Index>(rows.size()), width);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int c = 0; c < width; ++c) table.values(static_cast<Eigen::Index>(r), c) = rows[r][c];
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

std::string FormatDouble(double value) {
  char buffer[40];
  // The shortest of %.15g..%.17g that reads back exactly: readable files, no lost bits.
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value || !std::isfinite(value)) break;
  }
  return buffer;
}

}  // namespace io
}  // namespace gpbandit
