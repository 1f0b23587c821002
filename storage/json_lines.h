// Reading JSON-Lines text as the file backend and the observation log share it: one record per
// line, each written with a single write() and its newline last, so that a crash can only tear
// the last line.
#ifndef GPBANDIT_STORAGE_JSON_LINES_H_
#define GPBANDIT_STORAGE_JSON_LINES_H_

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>

namespace gpbandit {

// Thrown by a `take` below for a well-formed record out of place (a second header): corruption
// even on the last line, never taken for a torn write.
class MisplacedRecord : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ScannedLines {
  // Bytes from the start of the text up to and including the last good newline.
  std::size_t intact_bytes = 0;
  // Lines passed (blank ones included).
  int lines = 0;
  // True when the text ends in a torn line: one without its newline, or a last line that
  // `take` rejected. It is left out; torn_problem says why.
  bool torn = false;
  std::string torn_problem;
};

// Calls take(line, line_number) for every complete, non-blank line of `text` in order
// (line_number counts from first_line_number). take throws (any std::exception) to reject a
// malformed line. A rejected line that is not the last, or a MisplacedRecord anywhere, throws
// std::runtime_error "<where>:<line>: <problem>" (that is corruption, not a crash).
ScannedLines ScanJsonLines(const std::string& text, const std::string& where, int first_line_number,
                           const std::function<void(const std::string&, int)>& take);

// The "type" field of a record: a JSON object with a string "type". Throws std::runtime_error
// otherwise (the message says what is wrong).
std::string RecordType(const std::string& record_json);

// The checks of StudySession::Append and CreateStudy: the type of a record to append, which must
// be one line and not a header; a header record. std::invalid_argument (naming `what`)
// otherwise.
std::string AppendableRecordType(const std::string& record_json, const char* what);
void CheckHeaderRecord(const std::string& header_json, const char* what);

}  // namespace gpbandit

#endif  // GPBANDIT_STORAGE_JSON_LINES_H_
