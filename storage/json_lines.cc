#include "storage/json_lines.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gpbandit {

ScannedLines ScanJsonLines(const std::string& text, const std::string& where, int first_line_number,
                           const std::function<void(const std::string&, int)>& take) {
  ScannedLines scanned;
  std::size_t start = 0;
  while (start < text.size()) {
    const int line_number = first_line_number + scanned.lines;
    const std::size_t newline = text.find('\n', start);
    // Each record is one write with its newline last: a crash can only leave a last line
    // without its newline. A complete line that is not a record is corruption, never a tear.
    if (newline == std::string::npos) {
      scanned.torn = true;
      scanned.torn_problem = "no terminating newline";
      break;
    }
    const std::string line = text.substr(start, newline - start);
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      try {
        take(line, line_number);
      } catch (const MisplacedRecord& e) {
        throw std::runtime_error(where + ":" + std::to_string(line_number) + ": " + e.what());
      } catch (const std::exception& e) {
        throw std::runtime_error(where + ":" + std::to_string(line_number) +
                                 ": malformed log record: " + e.what());
      }
    }
    ++scanned.lines;
    start = newline + 1;
    scanned.intact_bytes = start;
  }
  return scanned;
}

std::string StudyRecordType(const std::string& line, bool first) {
  if (first) {
    std::string type;
    try {
      type = RecordType(line);
    } catch (const std::runtime_error&) {
      // Not JSON at all: a text file, not a study with a damaged first record.
    }
    if (type != "header")
      throw MisplacedRecord(std::string(kNotAStudy) + ": its first line is not a header record");
    return type;
  }
  const std::string type = RecordType(line);
  if (type == "header") throw MisplacedRecord("a second header record");
  return type;
}

void RefuseHeaderlessText(const ScannedLines& scanned, bool has_header, const std::string& where) {
  if (has_header || (!scanned.torn && scanned.intact_bytes == 0)) return;
  throw std::runtime_error(where + ": " + kNotAStudy +
                           (scanned.torn
                                ? ": its first line is incomplete (" + scanned.torn_problem + ")"
                                : ": it holds only blank lines") +
                           "; it is left untouched (delete it, or give another path)");
}

std::string RecordType(const std::string& record_json) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(record_json);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(e.what());
  }
  if (!j.is_object() || !j.contains("type") || !j["type"].is_string())
    throw std::runtime_error("not an object with a string field \"type\"");
  return j["type"].get<std::string>();
}

std::string AppendableRecordType(const std::string& record_json, const char* what) {
  std::string type;
  try {
    type = RecordType(record_json);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(std::string(what) + ": " + e.what());
  }
  if (type == "header") throw std::invalid_argument(std::string(what) + ": a header record");
  if (record_json.find('\n') != std::string::npos)
    throw std::invalid_argument(std::string(what) + ": a record spans several lines");
  return type;
}

void CheckHeaderRecord(const std::string& header_json, const char* what) {
  std::string type;
  try {
    type = RecordType(header_json);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(std::string(what) + ": " + e.what());
  }
  if (type != "header" || header_json.find('\n') != std::string::npos)
    throw std::invalid_argument(std::string(what) + ": not a one-line header record");
}

}  // namespace gpbandit
