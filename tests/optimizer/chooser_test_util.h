// Helpers for the tests of the round choosers (optimizer/round_chooser.h) without an ask round:
// a strategy whose acquisition, scores and safe choice the test writes down (so that the
// chooser's answer is known in closed form), and the inputs one Choose call reads, filled as
// the ask round fills them for a round with no observation.
#ifndef GPBANDIT_TESTS_OPTIMIZER_CHOOSER_TEST_UTIL_H_
#define GPBANDIT_TESTS_OPTIMIZER_CHOOSER_TEST_UTIL_H_

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "optimizer/round_chooser.h"
#include "optimizer/study_replica.h"
#include "study/pending_book.h"
#include "tests/optimizer/replica_test_util.h"

namespace gpbandit {
namespace testing {

// value(x, gradient): the acquisition at a full model input, with its gradient when asked.
using AcquisitionFunction = std::function<double(const Eigen::VectorXd&, Eigen::VectorXd*)>;

// sum_d w_d x_d: on a box its maximizer is the upper corner wherever w > 0, exactly (the
// maximizer clamps into the box).
inline AcquisitionFunction Linear(const Eigen::VectorXd& w) {
  return [w](const Eigen::VectorXd& x, Eigen::VectorXd* gradient) {
    if (gradient != nullptr) *gradient = w;
    return w.dot(x);
  };
}

// -||x - peak||^2: maximal (0) at peak.
inline AcquisitionFunction Bowl(const Eigen::VectorXd& peak) {
  return [peak](const Eigen::VectorXd& x, Eigen::VectorXd* gradient) {
    if (gradient != nullptr) *gradient = -2.0 * (x - peak);
    return -(x - peak).squaredNorm();
  };
}

class FunctionAcquisition : public ContinuousAcquisition {
 public:
  explicit FunctionAcquisition(AcquisitionFunction f) : f_(std::move(f)) {}
  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    return f_(Eigen::VectorXd(x), gradient);
  }

 private:
  AcquisitionFunction f_;
};

// A strategy whose every answer the test sets: the continuous acquisition, the candidates'
// scores (a fixed vector, or by default their posterior means) and the safe choice. It notes
// what it was handed (the GP, the candidate posterior's means, the safe round).
class ScriptedStrategy : public Strategy {
 public:
  AcquisitionFunction acquisition = Linear(Eigen::VectorXd());
  Eigen::VectorXd scores;  // empty: the posterior means
  Eigen::VectorXd safe_choice;
  std::string strategy_name = "scripted";

  mutable const GaussianProcess* last_gp = nullptr;
  mutable Eigen::VectorXd last_means;
  mutable SafeRound last_safe_round;
  mutable int calls = 0;

  std::string name() const override { return strategy_name; }
  void BeginRound(const RoundState&) override {}
  double figure() const override { return 0.0; }
  std::string figure_name() const override { return "none"; }
  Eigen::VectorXd ScoreCandidates(const CandidatePosterior& posterior, Rng&) const override {
    ++calls;
    last_means = posterior.means();
    return scores.size() > 0 ? scores : posterior.means();
  }
  std::unique_ptr<ContinuousAcquisition> MakeContinuous(const GaussianProcess& gp,
                                                        Rng&) const override {
    ++calls;
    last_gp = &gp;
    return std::make_unique<FunctionAcquisition>(acquisition);
  }
  std::unique_ptr<Strategy> Clone() const override {
    return std::make_unique<ScriptedStrategy>(*this);
  }
  Eigen::VectorXd ChooseSafe(const SafeRound& round, Rng&) const override {
    ++calls;
    last_safe_round = round;
    return safe_choice;
  }
};

// A GP over `input_dim` unit-cube inputs without observations (prior mean 0, variance 1).
inline GaussianProcess PriorGp(int input_dim) {
  std::vector<int> dims(static_cast<std::size_t>(input_dim));
  for (int d = 0; d < input_dim; ++d) dims[static_cast<std::size_t>(d)] = d;
  GaussianProcessOptions options;
  options.standardize_outputs = false;
  return GaussianProcess(MakeSquaredExponential(dims, true, 1.0, 0.3), input_dim, options);
}

// Everything one Choose call reads, for `domain` at `context` and round 0 with nothing told:
// the replica of `model_strategy` supplies the model keeper (the safe chooser's models of the
// told observations), the posterior is a prior GP over the model inputs, the round's search box
// is the action cube. The strategy that chooses is `strategy`, whatever model_strategy is.
struct ChooserBench {
  explicit ChooserBench(const Domain& d, const OptimizerOptions& o = CheapOptions(),
                        const std::string& model_strategy = "gp-ucb",
                        const StrategyParams& params = {},
                        const Eigen::VectorXd& context = Eigen::VectorXd())
      : domain(d),
        options(o),
        replica(MakeReplica(d, model_strategy, params, o)),
        gp(PriorGp(d.input_dim())),
        posterior(gp) {
    strategy.acquisition = Linear(Eigen::VectorXd::Ones(d.input_dim()));
    replica->inputs.SearchBox(context, 0, &round.unit_lower, &round.unit_upper);
    round.observed_starts.resize(d.input_dim(), 0);
    round.box_options = internal::MaximizerOptions(o);
    round.discrete = replica->inputs.DiscreteCoordinates();
    if (d.kind() == DomainKind::kFiniteSet)
      round.unit_candidates = replica->inputs.CandidateInputs(context, 0);
  }

  ChoiceInputs Inputs() const {
    return ChoiceInputs{domain, strategy, options, *replica->model, posterior,
                        round,  pending,  now,     replica.get()};
  }
  // A call of q slots, all left to the model.
  AskCall Call(int q) const {
    AskCall call;
    call.chosen = Eigen::MatrixXd::Zero(domain.action_dim(), q);
    call.design_index.assign(static_cast<std::size_t>(q), -1);
    call.num_model = q;
    return call;
  }
  // An active pending point at action x.
  void AddPending(const Eigen::VectorXd& x) {
    pending.Add({x, Eigen::VectorXd(), 0, "w", std::numeric_limits<double>::infinity(), -1});
  }

  Domain domain;
  OptimizerOptions options;
  std::unique_ptr<internal::StudyReplica> replica;
  ScriptedStrategy strategy;
  GaussianProcess gp;
  AskPosterior posterior;
  ModelRound round;
  PendingBook pending;
  double now = 0.0;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_OPTIMIZER_CHOOSER_TEST_UTIL_H_
