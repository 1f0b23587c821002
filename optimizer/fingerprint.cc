// Optimizer::Fingerprint: a digest of everything that determines future behaviour.
#include "optimizer/fingerprint.h"

#include <cstdint>
#include <iomanip>
#include <sstream>

namespace gpbandit {
namespace internal {
namespace {

// FNV-1a over raw bytes: a compact digest.
class Digest {
 public:
  void Add(const void* data, std::size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      hash_ ^= p[i];
      hash_ *= 1099511628211ULL;
    }
  }
  void Add(double v) { Add(&v, sizeof v); }
  void Add(long v) { Add(&v, sizeof v); }
  void Add(const Eigen::VectorXd& v) {
    Add(static_cast<long>(v.size()));
    if (v.size() > 0) Add(v.data(), sizeof(double) * static_cast<std::size_t>(v.size()));
  }
  // A model's hyperparameters, standardization and, through its predictions at a fixed probe,
  // its internal factor and weights.
  void AddModel(const GaussianProcess& gp, const Eigen::VectorXd& probe) {
    double mean = 0, variance = 0;
    gp.MeanAndVariance(probe, &mean, &variance);
    Add(gp.kernel_log_params());
    Add(gp.noise_variance());
    Add(mean);
    Add(variance);
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

}  // namespace

std::string Fingerprint(const StudyReplica& r) {
  Digest d;
  d.Add(r.rounds);
  d.Add(r.design->handed_out());
  d.Add(static_cast<long>(r.model->counts().num_accepted()));
  d.Add(static_cast<long>(r.model->chain().unit().exponent()));
  d.Add(static_cast<long>(r.model->refit().last_fit_observations()));
  for (const Observation& o : r.observations) {
    d.Add(o.x);
    d.Add(o.z);
    d.Add(o.y);
    d.Add(o.imputed);
    d.Add(static_cast<long>(o.accepted));
    d.Add(o.round);  // the time coordinate of a time model
  }
  d.Add(static_cast<long>(r.pending.size()));
  for (const PendingPoint& p : r.pending.points()) {
    d.Add(p.x);
    d.Add(p.z);
  }
  const Eigen::VectorXd probe = r.inputs.Probe(0.37);
  if (const FiniteSetModel* rank_one = r.model->reward().rank_one()) {
    // Every candidate's mean and variance: the belief's bits (its own state, which the
    // posterior at inputs would recompute, not read).
    const FiniteSetBelief& belief = rank_one->belief();
    d.Add(belief.output_offset());
    d.Add(belief.output_scale());
    d.Add(static_cast<long>(rank_one->num_observations()));
    d.Add(rank_one->kernel().GetLogParams());
    d.Add(rank_one->noise_variance());
    d.Add(belief.Means());
    d.Add(Eigen::VectorXd(belief.posterior().covariance().diagonal()));
  } else {
    const GaussianProcess& gp = r.model->gp();
    d.Add(gp.jitter());
    d.Add(gp.output_offset());
    d.Add(gp.output_scale());
    d.Add(static_cast<long>(gp.num_observations()));
    d.AddModel(gp, probe);
  }
  for (int i = 0; i < r.model->constraints().num_constraints(); ++i)
    d.AddModel(r.model->constraints().constraint(i), probe);
  // A reward with a threshold has a safety model of its own (model/signal_model.h).
  if (r.model->constraints().reward_safety_model() >= 0)
    d.AddModel(r.model->constraints().safety_models()[0].gp(), probe);
  for (const Observation& o : r.observations) d.Add(o.constraints);
  // Only in studies with fidelities, so that the fingerprints of others stay as they were.
  if (r.inputs.has_fidelity()) {
    for (const Observation& o : r.observations) d.Add(static_cast<long>(o.fidelity));
    for (const PendingPoint& p : r.pending.points()) d.Add(static_cast<long>(p.fidelity));
  }
  std::ostringstream s;
  // The GP's rows where one predicts: for the local model its neighbours (kept as it always
  // was, so that fingerprints of existing studies stay comparable).
  const PosteriorModel& posterior = r.model->reward().posterior();
  const int rows =
      posterior.gp() != nullptr ? posterior.gp()->num_observations() : posterior.num_observations();
  s << "t=" << rows + 1 << " told=" << r.observations.size() << " pending=" << r.pending.size()
    << " rounds=" << r.rounds << " digest=" << std::hex << std::setw(16) << std::setfill('0')
    << d.value();
  return s.str();
}

}  // namespace internal
}  // namespace gpbandit
