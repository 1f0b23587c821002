#include "optimizer/seed_audit.h"

#include <cmath>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

std::string PointText(const Eigen::VectorXd& x) {
  std::string s = "(";
  for (Eigen::Index i = 0; i < x.size(); ++i) s += (i ? ", " : "") + FormatDouble(x(i));
  return s + ")";
}

std::string SignalName(std::size_t k) {
  return k == 0 ? std::string("reward") : "constraint g_" + std::to_string(k);
}

// Signal k's told value in observation o, or NaN when o does not carry it.
double Measured(const Observation& o, std::size_t k) {
  if (k == 0) return o.accepted ? o.y : std::nan("");
  return static_cast<Eigen::Index>(k) <= o.constraints.size()
             ? o.constraints(static_cast<Eigen::Index>(k) - 1)
             : std::nan("");
}

// True when value violates signal k's threshold (a cost's threshold is an upper limit).
bool Violates(double value, double threshold, bool upper_limit) {
  return upper_limit ? value > threshold : value < threshold;
}

// What is wrong with observation o of a seed, or "".
std::string Finding(const Observation& o, const std::vector<SafetySignal>& signals, bool minimize) {
  if (!o.accepted) return "its evaluation failed (reward " + FormatDouble(o.y) + ")";
  for (std::size_t k = 0; k < signals.size(); ++k) {
    const double h = signals[k].threshold, value = Measured(o, k);
    if (std::isnan(h) || std::isnan(value)) continue;
    const bool upper = k == 0 && minimize;
    if (Violates(value, h, upper))
      return SignalName(k) + " measured " + FormatDouble(value) + (upper ? " > " : " < ") +
             "threshold " + FormatDouble(h);
  }
  return "";
}

}  // namespace

bool MeasuredSafe(const Observation& o, const std::vector<SafetySignal>& signals, bool minimize) {
  return o.accepted && Finding(o, signals, minimize).empty();
}

bool SeedAudit::any_usable() const {
  for (bool u : usable)
    if (u) return true;
  return false;
}

std::string SeedAudit::RefusalMessage(const std::string& strategy) const {
  std::string message = "strategy '" + strategy + "' has no safe seed left: ";
  bool first = true;
  for (const std::string& f : findings) {
    if (f.empty()) continue;
    message += (first ? "" : "; ") + f;
    first = false;
  }
  message += ". Declare a seed measured safe (or check the limits)";
  for (const std::string& hint : sense_hints) message += ". " + hint;
  return message;
}

SeedAudit AuditSeeds(const Eigen::MatrixXd& seeds, const std::vector<Observation>& all,
                     const std::vector<SafetySignal>& signals, bool minimize, int target) {
  std::vector<Observation> at_target;
  if (target >= 0)
    for (const Observation& o : all)
      if (o.fidelity == target) at_target.push_back(o);
  const std::vector<Observation>& observations = target >= 0 ? at_target : all;
  SeedAudit audit;
  audit.usable.assign(static_cast<std::size_t>(seeds.cols()), true);
  audit.findings.assign(static_cast<std::size_t>(seeds.cols()), "");
  for (Eigen::Index s = 0; s < seeds.cols(); ++s) {
    for (const Observation& o : observations) {
      if (o.x != seeds.col(s)) continue;
      const std::string finding = Finding(o, signals, minimize);
      if (finding.empty()) continue;
      audit.usable[static_cast<std::size_t>(s)] = false;
      audit.findings[static_cast<std::size_t>(s)] =
          "seed " + std::to_string(s) + " " + PointText(seeds.col(s)) + ": " + finding;
      break;
    }
  }
  for (std::size_t k = 0; k < signals.size(); ++k) {
    const double h = signals[k].threshold;
    if (std::isnan(h)) continue;
    int measured = 0, violated = 0;
    for (const Observation& o : observations) {
      const double value = Measured(o, k);
      if (std::isnan(value)) continue;
      ++measured;
      violated += Violates(value, h, k == 0 && minimize);
    }
    if (measured == 0 || violated < measured) continue;
    const bool upper = k == 0 && minimize;
    audit.sense_hints.push_back(
        "Every one of the " + std::to_string(measured) + " measurements of the " + SignalName(k) +
        " violates its threshold " + FormatDouble(h) + ": is it written in the right sense? " +
        (upper ? std::string("A cost (OptimizerOptions::sense = minimize) must stay <= its "
                             "threshold")
               : std::string("A signal must stay >= its threshold; an upper limit q <= L is "
                             "told as g = -q with threshold -L")));
  }
  return audit;
}

}  // namespace gpbandit
