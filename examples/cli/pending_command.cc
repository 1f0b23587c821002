// gpbandit pending: the points of a study that were handed out and not yet told or released,
// with the worker holding each and its lease (optimizer_options.h, WorkerOptions).
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "gpbandit/examples/cli/commands.h"
#include "gpbandit/examples/cli/study_flags.h"
#include "gpbandit/plugin/optimizer.h"

namespace gpbandit {
namespace cli {
namespace {

std::string LeaseText(double lease_until, double now) {
  if (std::isinf(lease_until)) return "never expires";
  std::ostringstream s;
  s << std::fixed << std::setprecision(0);
  if (lease_until > now) {
    s << "expires in " << lease_until - now << " s";
  } else {
    s << "expired " << now - lease_until << " s ago";
  }
  return s.str();
}

}  // namespace

int PendingCommand(const std::vector<std::string>& args, Streams streams) {
  StudyFlags f;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, /*with_log=*/true, /*with_worker=*/false);
  po::variables_map vm;
  if (!ParseArguments("pending", "(--log runs.jsonl | --storage URL [--study NAME])", args, desc,
                      &vm, streams.out))
    return kExitOk;
  CheckStudyFlags(f, /*with_log=*/true);
  const std::unique_ptr<Optimizer> optimizer = OpenExistingStudy(f);
  const std::vector<PendingPoint> pending = optimizer->pending_points();
  const double now = WallClockSeconds();
  // One tab-separated line per point: easy to read, easy to cut.
  streams.out << "round\tworker\tlease\tx\tz\n";
  for (const PendingPoint& p : pending) {
    streams.out << p.round << "\t" << (p.worker.empty() ? "-" : p.worker) << "\t"
                << LeaseText(p.lease_until, now) << "\t" << FormatVector(p.x) << "\t"
                << FormatVector(p.z) << "\n";
  }
  streams.err << "[pending] " << pending.size() << " pending in " << DescribeStudy(f) << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
