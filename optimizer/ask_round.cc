// An Optimizer's ask (optimizer.h): the design points first, then each model-driven slot
// chosen by the domain's round chooser from the ask's posterior, every point recorded as
// pending before it is handed out.
#include "optimizer/ask_round.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpbandit/numerics/warning_sink.h"
#include "gpbandit/study/observation_log.h"
#include "optimizer/fidelity_choice.h"
#include "optimizer/observed_points.h"
#include "optimizer/seed_audit.h"
#include "study/named_records.h"
#include "study/round_rng.h"

namespace gpbandit {
namespace internal {
namespace {

// How many times an ask is chosen outside the study's lock before it is chosen under it
// (docs/shared_studies.md, "Asks outside the lock").
constexpr int kChoicesOutsideLock = 3;

}  // namespace

BoxMaximizerOptions MaximizerOptions(const OptimizerOptions& options) {
  BoxMaximizerOptions box;
  box.num_raw_samples = options.maximizer_raw_samples;
  box.raw_sample_design = options.maximizer_raw_sample_design;
  box.num_starts = options.maximizer_starts;
  box.num_threads = options.num_threads;
  box.max_iterations = options.maximizer_iterations;
  box.function_tolerance = options.maximizer_function_tolerance;
  return box;
}

AskRound::AskRound(StudyReplica* replica, StudyJournal* journal)
    : r_(*replica), journal_(*journal), figure_name_(replica->strategy->figure_name()) {
  last_round_report_.round = -1;
  ForgetWarnings();
}

void AskRound::ForgetWarnings() {
  reported_dropped_seeds_.assign(static_cast<std::size_t>(r_.num_seeds), false);
}

Eigen::MatrixXd AskRound::Ask(int q, const Eigen::VectorXd& z, std::vector<long>* trials) {
  CheckAsk(q, z);  // everything is validated before anything changes
  const auto start = std::chrono::steady_clock::now();
  AskCall done;
  bool refitted = false, recorded = false;
  int choices = 0;
  // A rank-one round costs O(N^2) whatever t: it is chosen under the lock (AskCheck compares
  // a GaussianProcess's variances, which the rank-one model does not keep).
  // A study with fidelities chooses under the lock: AskCheck compares points at the target.
  if (journal_.has_storage() && r_.options.worker.asks_outside_lock &&
      r_.model->reward().posterior().gp() != nullptr && !r_.inputs.has_fidelity()) {
    while (!recorded && choices < kChoicesOutsideLock) {
      ++choices;
      recorded = AskOutsideLock(q, z, &done, &refitted);
    }
  }
  if (!recorded) AskUnderLock(q, z, &done, &refitted);
  ReportRound(done, refitted,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  last_round_report_.choices_outside_lock = choices;
  last_round_report_.chosen_under_lock = journal_.has_storage() && !recorded;
  if (trials != nullptr) {  // the call's points are the last ones pending
    trials->clear();
    for (std::size_t j = r_.pending.size() - static_cast<std::size_t>(q); j < r_.pending.size();
         ++j)
      trials->push_back(r_.pending.points()[j].trial);
  }
  return done.chosen;
}

void AskRound::AskUnderLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted) {
  journal_.Run(
      [&] {
        r_.model->CatchUp();  // the choice needs the models with everything replayed
        AskCall call = StartCall(q, z);
        const std::string fit_record =
            call.num_model > 0 ? r_.model->refit().MaybeRefit(call.round) : std::string();
        if (!fit_record.empty()) {
          *refitted = true;
          journal_.Append(fit_record);
        }
        if (call.num_model > 0) {
          AskPosterior posterior = MakeAskPosterior(call);
          ChooseByModel(&call, &posterior);
        }
        *done = call;
        return RecordPending(call);
      },
      Durability::kVisible);  // optimizer.h, "Shared studies": a lost pending record costs little
}

void AskRound::CheckAsk(int q, const Eigen::VectorXd& z) const {
  if (q < 1) throw std::invalid_argument("q must be >= 1, got " + std::to_string(q));
  r_.domain.CheckContext(z, "context");
  if (r_.domain.kind() == DomainKind::kFiniteSet && q > r_.domain.num_candidates()) {
    throw std::invalid_argument("q = " + std::to_string(q) + " exceeds the " +
                                std::to_string(r_.domain.num_candidates()) + " candidates");
  }
}

// A call of q slots; the initial design serves the first while fewer than its size of points
// are told or in progress.
AskCall AskRound::StartCall(int q, const Eigen::VectorXd& z) const {
  AskCall call;
  call.round = r_.rounds;
  call.z = z;
  call.unit_z = r_.domain.ContextToUnit(z);
  call.chosen.resize(r_.domain.action_dim(), q);
  call.design_index.assign(static_cast<std::size_t>(q), -1);
  call.acquisition_values.assign(static_cast<std::size_t>(q), std::nan(""));
  if (r_.inputs.has_fidelity()) call.fidelity.assign(static_cast<std::size_t>(q), WorkerFidelity());
  r_.design->Take(r_.domain, static_cast<long>(r_.observations.size()),
                  r_.pending.CountActive(journal_.now()), &call);
  return call;
}

// posterior: MakeAskPosterior(*call); each model-driven slot but the last is hallucinated in it.
void AskRound::ChooseByModel(AskCall* call, AskPosterior* ask_posterior) {
  Rng rng = RoundRng(r_.options.seed, call->round, kStreamChoose);
  AskPosterior& posterior = *ask_posterior;
  const bool rank_one = posterior.finite() != nullptr;
  ModelRound m = PrepareModelRound(call);
  const int q = static_cast<int>(call->chosen.cols());
  for (int i = 0; i < q; ++i) {
    if (call->design_index[static_cast<std::size_t>(i)] >= 0) continue;
    m.state.t = std::max(1, r_.model->counts().rows() + posterior.num_hallucinated() + 1);
    r_.strategy->BeginRound(m.state);
    const ChoiceInputs in{r_.domain, *r_.strategy, r_.options,     *r_.model, posterior,
                          m,         r_.pending,   journal_.now(), &r_};
    const std::size_t candidates_before = call->chosen_candidate.size();
    double value = std::nan("");
    const Eigen::VectorXd action = r_.chooser->Choose(in, i, rng, call, &value);
    call->chosen.col(i) = action;
    r_.figure = r_.strategy->figure();
    call->acquisition_values[static_cast<std::size_t>(i)] = value;
    if (call->first_t == 0) {
      call->first_t = m.state.t;
      call->first_figure = r_.figure;
    }
    // Chosen at the target; the fidelity rule says where to evaluate it.
    int fidelity = -1;
    if (r_.inputs.has_fidelity() && !r_.options.worker.fidelity.empty()) {
      fidelity = WorkerFidelity();
    } else if (r_.inputs.has_fidelity()) {
      fidelity =
          UnprobedFidelity(FidelityCounts(*call, i), r_.fidelity_probes, r_.options.fidelities);
      if (fidelity < 0)
        fidelity = ChooseFidelity(r_.options, r_.inputs, posterior.gp(), action, call->z,
                                  call->round, figure_name_ == "beta_t" ? r_.figure : std::nan(""));
      call->fidelity[static_cast<std::size_t>(i)] = fidelity;
    }
    if (i + 1 == q) break;
    const Eigen::VectorXd u = r_.inputs.Input(action, call->z, call->round, fidelity);
    // The rank-one belief hallucinates at a candidate's index, not at an input.
    int candidate = -1;
    if (rank_one)
      candidate = call->chosen_candidate.size() > candidates_before
                      ? call->chosen_candidate.back()
                      : r_.model->reward().rank_one()->CandidateIndex(u);
    posterior.Hallucinate(u, candidate);
  }
}

// Where this worker's points are evaluated before the rule has its say: the target, or the
// worker's own fidelity (WorkerOptions::fidelity).
int AskRound::WorkerFidelity() const {
  const FidelityOptions& f = r_.options.fidelities;
  return r_.options.worker.fidelity.empty() ? f.target() : f.IndexOf(r_.options.worker.fidelity);
}

// Per fidelity: the observations, the active pending points and the call's slots before `slot`.
std::vector<int> AskRound::FidelityCounts(const AskCall& call, int slot) const {
  std::vector<int> counts(static_cast<std::size_t>(r_.options.fidelities.num_fidelities()), 0);
  for (const Observation& o : r_.observations) ++counts[static_cast<std::size_t>(o.fidelity)];
  for (const PendingPoint& p : r_.pending.points())
    if (PendingBook::Active(p, journal_.now())) ++counts[static_cast<std::size_t>(p.fidelity)];
  for (int j = 0; j < slot; ++j)
    ++counts[static_cast<std::size_t>(call.fidelity[static_cast<std::size_t>(j)])];
  return counts;
}

// GP-BUCB: the active pending points and this call's design points are observed at their own
// posterior means in the ask's posterior; the real model never sees them.
// The rank-one model's copy is its belief over the candidates, observed at candidate indices (an
// O(N^2) update each): it needs the FiniteSetModel itself, not its posterior at inputs.
AskPosterior AskRound::MakeAskPosterior(const AskCall& call) const {
  const FiniteSetModel* rank_one = r_.model->reward().rank_one();
  AskPosterior posterior =
      rank_one != nullptr ? AskPosterior(rank_one->belief()) : AskPosterior(r_.model->gp());
  auto hallucinate = [&](const Eigen::VectorXd& u) {
    posterior.Hallucinate(u, rank_one != nullptr ? rank_one->CandidateIndex(u) : -1);
  };
  for (const PendingPoint& p : r_.pending.points())
    if (PendingBook::Active(p, journal_.now()))
      hallucinate(r_.inputs.Input(p.x, p.z, p.round, p.fidelity));
  for (Eigen::Index i = 0; i < call.chosen.cols(); ++i)
    if (call.design_index[static_cast<std::size_t>(i)] >= 0)
      hallucinate(r_.inputs.Input(call.chosen.col(i), call.z, call.round));
  return posterior;
}

ModelRound AskRound::PrepareModelRound(AskCall* call_out) const {
  const AskCall& call = *call_out;
  ModelRound m;
  if (r_.calibrated) m.usable_seeds = UsableSeeds(call_out);
  m.state.round = call.round;
  m.state.epoch_start = r_.model->EpochStart(call.round);
  m.state.action_dim = r_.domain.action_dim();
  m.state.num_candidates = r_.domain.num_decision_points();
  m.box_options = MaximizerOptions(r_.options);
  const PosteriorModel& model = r_.model->reward().posterior();
  model.RoundStatistics(r_.strategy->reads_sequential_variances(), &m.state);
  if (model.kind() == PosteriorKind::kRankOne) {
    // The rank-one model keeps the incumbent and searches its candidates only: the round costs
    // O(N) whatever t, without the O(t) means at the observations below.
    m.unit_candidates = r_.inputs.CandidateInputs(call.z, call.round);
    return m;
  }
  // The posterior means at the observations (O(t)) serve both the incumbent and the
  // maximizer's observed starts.
  std::vector<int> observed_index;
  const Eigen::VectorXd observed_means =
      ObservedMeans(r_.observations, model.MeansAtObservations(), &observed_index,
                    r_.options.fidelities.target());
  m.state.incumbent = observed_means.size() > 0 ? observed_means.maxCoeff()
                                                : -std::numeric_limits<double>::infinity();
  r_.inputs.SearchBox(call.z, call.round, &m.unit_lower, &m.unit_upper);
  model.SearchRegions(r_.domain.action_dim(), m.unit_lower, m.unit_upper, &m.region_lower,
                      &m.region_upper, &m.region_starts);
  if (r_.domain.kind() == DomainKind::kFiniteSet) {
    m.unit_candidates = r_.inputs.CandidateInputs(call.z, call.round);
  } else {
    m.discrete = r_.inputs.DiscreteCoordinates();
    m.observed_starts =
        r_.inputs.WithRound(BestStarts(r_.domain, r_.observations, observed_means, observed_index,
                                       call.unit_z, r_.options.maximizer_observed_starts),
                            call.round);
  }
  return m;
}

// Logged (and made durable) before the points are handed out, each with this worker's lease.
std::function<void()> AskRound::RecordPending(const AskCall& call, long drawn_round) {
  const double lease_until = journal_.now() + r_.options.worker.pending_lease_seconds;
  std::vector<PendingPoint> points;
  for (Eigen::Index i = 0; i < call.chosen.cols(); ++i) {
    const int fidelity = call.fidelity.empty() ? -1 : call.fidelity[static_cast<std::size_t>(i)];
    points.push_back({call.chosen.col(i), call.z, call.round, journal_.worker_id(), lease_until,
                      r_.pending.next_trial() + static_cast<long>(i), fidelity});
    journal_.Append(WithNamedValues(
        FormatPendingRecord(call.round, call.design_index[static_cast<std::size_t>(i)],
                            points.back().x, call.z, journal_.worker_id(), lease_until,
                            points.back().trial, drawn_round, fidelity),
        r_.domain, points.back().x, call.z));
  }
  return [this, points, design_next = call.design_next, round = call.round] {
    r_.pending.Add(points);
    r_.design->set_handed_out(design_next);
    r_.rounds = round + 1;
  };
}

std::vector<bool> AskRound::UsableSeeds(AskCall* call) const {
  // With fidelities the seeds are vouched for at the target: what a simulator measures there
  // does not drop them.
  const SeedAudit audit =
      AuditSeeds(r_.strategy->safe_seeds(), r_.observations, r_.safety,
                 r_.options.sense == ObjectiveSense::kMinimize,
                 r_.inputs.has_fidelity() ? r_.options.fidelities.target() : -1);
  if (!audit.any_usable()) throw std::runtime_error(audit.RefusalMessage(r_.strategy_name));
  for (std::size_t s = 0; s < audit.usable.size(); ++s)
    if (!audit.usable[s]) call->dropped_seeds.emplace_back(static_cast<int>(s), audit.findings[s]);
  return audit.usable;
}

std::vector<std::string> AskRound::NewWarnings(const AskCall& call) {
  std::vector<std::string> fresh;
  for (const auto& [seed, finding] : call.dropped_seeds) {
    const auto s = static_cast<std::size_t>(seed);
    if (reported_dropped_seeds_[s]) continue;
    reported_dropped_seeds_[s] = true;
    fresh.push_back(finding + "; dropped, " + std::to_string(call.dropped_seeds.size()) + " of " +
                    std::to_string(reported_dropped_seeds_.size()) + " seeds measured unsafe");
    Warn(fresh.back());
  }
  return fresh;
}

RoundReport AskRound::RoundSummary(const AskCall& call, const HyperparameterFitReport* fit,
                                   double seconds) const {
  RoundReport report;
  report.round = call.round;
  report.t = call.first_t;
  report.figure_name = figure_name_;
  report.figure = call.first_figure;
  report.acquisition_values = call.acquisition_values;
  report.fidelities = call.fidelity;
  for (const int fidelity : call.fidelity)
    report.fidelity_names.push_back(
        r_.options.fidelities.levels[static_cast<std::size_t>(fidelity)].name);
  report.num_design_points = static_cast<int>(call.chosen.cols()) - call.num_model;
  report.fitted = fit != nullptr;
  if (fit != nullptr) report.fit_report = *fit;
  report.seconds = seconds;
  return report;
}

void AskRound::ReportRound(const AskCall& call, bool refitted, double seconds) {
  std::vector<std::string> warnings = NewWarnings(call);
  last_round_report_ =
      RoundSummary(call, refitted ? &r_.model->refit().last_fit_report() : nullptr, seconds);
  last_round_report_.warnings = std::move(warnings);
}

}  // namespace internal
}  // namespace gpbandit
