#include "optimizer/source_records.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "optimizer/optimizer_impl.h"

namespace gpbandit {
namespace internal {

void CopySourceObservations(OptimizerImpl* impl) {
  const StudyReplica& r = impl->replica();
  const FidelityOptions& f = r.options.fidelities;
  if (f.num_sources() == 0) return;
  std::vector<int> held(static_cast<std::size_t>(f.num_fidelities()), 0);
  for (const Observation& o : r.observations)
    if (o.fidelity >= 0) ++held[static_cast<std::size_t>(o.fidelity)];
  std::vector<int> copy;
  for (int s = 0; s < f.num_fidelities(); ++s) {
    if (!f.IsSource(s) || held[static_cast<std::size_t>(s)] > 0) continue;
    const FidelitySpec& level = f.levels[static_cast<std::size_t>(s)];
    // Fewer would leave the level "unprobed" (fidelity_choice.h): the ask would choose it.
    const std::size_t needed = static_cast<std::size_t>(r.fidelity_probes);
    if (level.observations.size() < needed)
      throw std::invalid_argument(
          "fidelities.levels[" + std::to_string(s) + "] ('" + level.name + "') is a source with " +
          std::to_string(level.observations.size()) + " observations; it needs at least " +
          std::to_string(needed) +
          " (the initial design's size, at least 2; read the earlier study with "
          "ReadSourceStudy)");
    copy.push_back(s);
  }
  for (const int s : copy)
    for (const SourcePoint& p : f.levels[static_cast<std::size_t>(s)].observations)
      impl->tells().Tell(p.x, p.z, p.y, Eigen::VectorXd(), -1, s);
}

}  // namespace internal
}  // namespace gpbandit
