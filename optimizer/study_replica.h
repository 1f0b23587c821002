// What an Optimizer's units (the ask round, the tell, the recommenders) share: what the
// optimizer was built with (domain, strategy, options, model inputs) and what the study's
// records made of it (the models, the initial design, the pending points, the observations, the
// rounds). Built here from the strategy and the options, every check done first, and rebuilt by
// Reset when a shared study must be replayed from its start. Internal to the library; not
// thread-safe (the Optimizer serializes calls); neither copied nor moved (the models keep a
// reference to `options`).
#ifndef GPBANDIT_OPTIMIZER_STUDY_REPLICA_H_
#define GPBANDIT_OPTIMIZER_STUDY_REPLICA_H_

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/maximizer/box_maximizer.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/optimizer_options.h"
#include "gpbandit/study/optimizer_types.h"
#include "model/model_inputs.h"
#include "model/model_keeper.h"
#include "optimizer/initial_design.h"
#include "optimizer/round_chooser.h"
#include "study/pending_book.h"

namespace gpbandit {
namespace internal {

// The box maximizer's options from the optimizer's (ask_round.cc).
BoxMaximizerOptions MaximizerOptions(const OptimizerOptions& options);

struct StudyReplica {
  // strategy: ready to use; strategy_name and strategy_options: as logged. kernel: the caller's,
  // or nullptr for the default. Throws std::invalid_argument when the kernel, the strategy, the
  // domain and the options do not go together.
  StudyReplica(const Domain& domain, std::unique_ptr<Strategy> strategy,
               const std::string& strategy_name, const StrategyParams& strategy_options,
               const OptimizerOptions& options, std::unique_ptr<Kernel> kernel);
  StudyReplica(const StudyReplica&) = delete;
  StudyReplica& operator=(const StudyReplica&) = delete;

  // The replica as constructed, before any record: the models, the design, the pending points
  // and the observations start again (the strategy holds no record's state).
  void Reset();
  // This optimizer's study header.
  LogHeader MakeHeader() const;

  Domain domain;
  std::string strategy_name;
  StrategyParams strategy_options;
  OptimizerOptions options;
  std::unique_ptr<Strategy> strategy;
  bool default_kernel = true;
  std::unique_ptr<Kernel> initial_kernel;  // the caller's kernel (nullptr: the default)
  ModelInputs inputs;
  std::unique_ptr<ModelKeeper> model;
  std::unique_ptr<RoundChooser> chooser;
  bool safe = false;
  // The strategy's declared safety signals (Strategy::safety_signals()), and whether each has
  // a model of its own (else the models of log format <= 4).
  std::vector<SafetySignal> safety;
  bool calibrated = false;
  int num_seeds = 0;  // the strategy's safe seeds
  std::unique_ptr<InitialDesign> design;
  // With fidelities: the model-driven points each lower fidelity gets before the rule decides
  // (optimizer/fidelity_choice.h, FidelityProbes).
  int fidelity_probes = 0;
  PendingBook pending;
  std::vector<Observation> observations;
  long rounds = 0;
  double figure = std::numeric_limits<double>::quiet_NaN();

 private:
  void Build(std::unique_ptr<Kernel> kernel);
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_STUDY_REPLICA_H_
