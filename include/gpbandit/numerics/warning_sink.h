// Where the library's warnings go. gpbandit never writes to std::cerr itself (outside the
// command line): each warning (a torn last line dropped from a study, a stale lock broken, a
// lost database connection, a study replayed again, a seed measured unsafe, ...) is one line of
// text handed to the process's warning sink, as glog's sinks or Python's `logging` take a
// library's messages. The default sink writes "gpbandit: warning: <message>\n" to stderr; a host
// sets its own (its logger, a GUI, a test that collects them). The Python module sets one that
// hands each warning to the `logging` logger "gpbandit" (docs/python.md).
//
//   gpbandit::SetWarningSink([](const std::string& message) { LOG(WARNING) << message; });
//
// A message is one line without the "gpbandit: warning: " prefix and without a trailing
// newline, e.g. "runs.jsonl: dropping a torn last line 4 (a crash mid-write)".
//
// Thread safety: SetWarningSink and Warn may be called from any thread at any time. A sink may
// be called from several threads at once (the library warns from the thread that made the
// call, which may hold an Optimizer's lock), so it must be thread-safe itself and must not call
// back into the object that warned; it may call Warn. A Warn that began before SetWarningSink
// returned may still be running in the previous sink. An exception thrown by a sink is caught
// and the message written to stderr instead: a warning never changes what the library does.
#ifndef GPBANDIT_NUMERICS_WARNING_SINK_H_
#define GPBANDIT_NUMERICS_WARNING_SINK_H_

#include <functional>
#include <string>

namespace gpbandit {

using WarningSink = std::function<void(const std::string& message)>;

// Makes `sink` the process's warning sink and returns the previous one (empty when it was the
// default). An empty `sink` restores the default (stderr).
WarningSink SetWarningSink(WarningSink sink);

// Hands `message` to the current sink.
void Warn(const std::string& message);

// The default sink: writes "gpbandit: warning: <message>\n" to stderr in one write.
void WriteWarningToStderr(const std::string& message);

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_WARNING_SINK_H_
