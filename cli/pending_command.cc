// gpbandit pending: the points of a study that were handed out and not yet told or released,
// with the worker holding each and its lease (optimizer_options.h, WorkerOptions); --release
// gives one back (its evaluation will not happen).
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/parameter_flags.h"
#include "cli/study_flags.h"
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
  std::vector<std::string> release;
  std::string context;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, /*with_log=*/true, /*with_worker=*/false);
  desc.add_options()(
      "release", po::value(&release),
      "give back this pending point x1,x2,... (named parameters: its name=value pairs) first")(
      "context", po::value(&context), "its context z1,... (contextual studies)");
  po::variables_map vm;
  if (!ParseArguments("pending",
                      "(--log runs.jsonl | --storage URL [--study NAME]) [--release x1,x2]", args,
                      desc, &vm, streams.out))
    return kExitOk;
  CheckStudyFlags(f, /*with_log=*/true);
  if (!context.empty() && release.empty()) throw UsageError("--context goes with --release");
  CheckStudyAccess(f, /*writes=*/!release.empty());
  const std::unique_ptr<Optimizer> optimizer = OpenExistingStudy(f);
  if (!release.empty()) {
    const Eigen::VectorXd x = ParsePoint(optimizer->domain(), "release", release);
    const Eigen::VectorXd z =
        context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", context);
    const std::string point = PointText(optimizer->domain(), x);
    if (!optimizer->Release(x, z)) throw UsageError("no pending point equals " + point);
    streams.err << "[pending] released " << point << "\n";
  }
  const std::vector<PendingPoint> pending = optimizer->pending_points();
  const double now = WallClockSeconds();
  // One tab-separated line per point: easy to read, easy to cut.
  streams.out << "round\tworker\tlease\tx\tz\n";
  for (const PendingPoint& p : pending) {
    streams.out << p.round << "\t" << (p.worker.empty() ? "-" : p.worker) << "\t"
                << LeaseText(p.lease_until, now) << "\t" << PointText(optimizer->domain(), p.x)
                << "\t" << FormatVector(p.z) << "\n";
  }
  streams.err << "[pending] " << pending.size() << " pending in " << DescribeStudy(f) << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
