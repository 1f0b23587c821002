// Reading JSON-Lines text as the file backend and the observation log share it: one record per
// line, each written with a single write() and its newline last, so that a crash can only tear
// the last line, and only by leaving it without its newline. A study's first line is its header;
// a file that does not start with one is not a study and is refused whole.
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
  // True when the text ends in a torn line, one without its newline (what a crash mid-write
  // leaves). It is left out; torn_problem says why.
  bool torn = false;
  std::string torn_problem;
};

// How messages call a file that does not start with a study's header.
constexpr const char* kNotAStudy = "not a gpbandit study";

// Calls take(line, line_number) for every complete, non-blank line of `text` in order
// (line_number counts from first_line_number). take throws (any std::exception) to reject a
// line. Any rejected line, the last one included, throws std::runtime_error
// "<where>:<line>: <problem>": a complete line that is not a record is corruption, not a
// crash (only a last line without its newline is taken for a torn write).
ScannedLines ScanJsonLines(const std::string& text, const std::string& where, int first_line_number,
                           const std::function<void(const std::string&, int)>& take);

// The type of a study's line (RecordType), checking its place: the first line must be a header
// (else MisplacedRecord "not a gpbandit study: ...", also for a first line that is not JSON at
// all), and no other line may be one (MisplacedRecord "a second header record").
std::string StudyRecordType(const std::string& line, bool first);

// Throws std::runtime_error "<where>: not a gpbandit study: ..." when scanned text holds no
// header but is not empty (a torn first line, or blank lines only): such a file is refused
// whole, never repaired or appended to.
void RefuseHeaderlessText(const ScannedLines& scanned, bool has_header, const std::string& where);

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
