// gpbandit pending: the points of a study that were handed out and not yet told or released,
// with the worker holding each, its lease (optimizer_options.h, WorkerOptions) and its trial
// number; --release gives one back (its evaluation will not happen), named by its point or, with
// --trial N, by its trial.
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/parameter_flags.h"
#include "cli/study_flags.h"
#include "gpbandit/optimizer/optimizer.h"

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

// `--release` followed by another flag (or by nothing) is a bare switch, as in `--release
// --trial 3`: it gets an empty value here, so that --release x1,x2 keeps taking the point.
std::vector<std::string> WithBareReleaseValued(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    out.push_back(args[i]);
    const bool followed_by_flag = i + 1 == args.size() || args[i + 1].rfind("--", 0) == 0;
    if (args[i] == "--release" && followed_by_flag) out.push_back("");
  }
  return out;
}

// Gives back the pending point named by --release x (with --context z) or by --trial, logging
// it; throws UsageError, writing nothing, when there is none.
void ReleaseOne(Optimizer* optimizer, const std::vector<std::string>& release,
                const std::string& context, const long* trial, const std::string& where,
                std::ostream& err) {
  if (trial != nullptr) {
    RequirePendingTrial(*optimizer, *trial, where);
    if (!optimizer->ReleaseTrial(*trial)) throw TrialNotPending(*trial, where);
    err << "[pending] released trial " << *trial << "\n";
    return;
  }
  const Eigen::VectorXd x = ParsePoint(optimizer->domain(), "release", release);
  const Eigen::VectorXd z =
      context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", context);
  const std::string point = PointText(optimizer->domain(), x);
  if (!optimizer->Release(x, z)) throw UsageError("no pending point equals " + point);
  err << "[pending] released " << point << "\n";
}

}  // namespace

int PendingCommand(const std::vector<std::string>& args, Streams streams) {
  StudyFlags f;
  std::vector<std::string> release;
  std::string context;
  long trial = -1;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, /*with_log=*/true, /*with_worker=*/false);
  desc.add_options()(
      "release", po::value(&release),
      "give back this pending point x1,x2,... (named parameters: its name=value pairs) first; "
      "bare with --trial N, the point of that trial")(
      "trial", po::value(&trial), "with --release: the trial number of the point to give back")(
      "context", po::value(&context), "its context z1,... (contextual studies)");
  po::variables_map vm;
  if (!ParseArguments("pending",
                      "(--log runs.jsonl | --storage URL [--study NAME]) [--release x1,x2 | "
                      "--release --trial N]",
                      WithBareReleaseValued(args), desc, &vm, streams.out))
    return kExitOk;
  CheckStudyFlags(f, /*with_log=*/true);
  const bool by_trial = vm.count("trial") > 0;
  if (!context.empty() && release.empty()) throw UsageError("--context goes with --release");
  if (by_trial && release.empty()) throw UsageError("--trial goes with --release");
  const bool bare_release = release.size() == 1 && release.front().empty();
  if (by_trial && !bare_release)
    throw UsageError("--release names the point or, bare, goes with --trial; not both");
  if (by_trial && !context.empty()) throw UsageError("--context does not go with --trial");
  if (bare_release && !by_trial) throw UsageError("--release needs a point x1,x2 or --trial N");
  CheckStudyAccess(f, /*writes=*/!release.empty());
  const std::unique_ptr<Optimizer> optimizer = OpenExistingStudy(f);
  if (!release.empty())
    ReleaseOne(optimizer.get(), release, context, by_trial ? &trial : nullptr, DescribeStudy(f),
               streams.err);
  const std::vector<PendingPoint> pending = optimizer->pending_points();
  const double now = WallClockSeconds();
  // One tab-separated line per point: easy to read, easy to cut (trial is the last column, so
  // that the columns before it keep their numbers); a study of fidelities adds the fidelity
  // each point is to be evaluated at after it.
  const FidelityOptions& fidelities = optimizer->options().fidelities;
  streams.out << "round\tworker\tlease\tx\tz\ttrial" << (fidelities.active() ? "\tfidelity" : "")
              << "\n";
  for (const PendingPoint& p : pending) {
    streams.out << p.round << "\t" << (p.worker.empty() ? "-" : p.worker) << "\t"
                << LeaseText(p.lease_until, now) << "\t" << PointText(optimizer->domain(), p.x)
                << "\t" << FormatVector(p.z) << "\t" << p.trial;
    if (fidelities.active())
      streams.out << "\t"
                  << (p.fidelity >= 0 && p.fidelity < fidelities.num_fidelities()
                          ? fidelities.levels[p.fidelity].name
                          : "-");
    streams.out << "\n";
  }
  streams.err << "[pending] " << pending.size() << " pending in " << DescribeStudy(f) << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
