// The header record of an observation log: everything needed to rebuild an Optimizer from the
// log alone (`gpbandit suggest --log runs.jsonl` remembers bounds and strategy). Every option
// field is written, so a resumed optimizer behaves exactly as the one that wrote the log.
//
// The kernel itself is not serialized (user kernels are arbitrary code): the header records
// whether it was the default one, its description and its initial log-params, and a resume
// checks the kernel it is given against them.
//
// Format versions (the header's "version"):
//   1: "strategy_options" is one flat object of every built-in strategy's fields (and "extra",
//      the numbers user strategies read); fields added to the options during version 1 may be
//      missing (then the values of the code before them apply).
//   2: "strategy_options" is the strategy's own options (Strategy::OptionsJson); every field of
//      the optimizer's options is present.
//   3: as 2; GP-UCB's and CGP-UCB's beta_schedule "auto" on a box means the dim-log schedule
//      (it meant "compact" before), and options gained fields (their defaults keep the old
//      behaviour when absent).
//   4: as 3; tell records may carry measured constraint signals ("g") and fit records the
//      constraint models' hyperparameters ("constraints"), for SafeOpt-MC
//      (observation_log.h). Nothing in a version-3 log changes meaning; the version is bumped
//      so that code which would ignore "g" (and replay a different run) refuses the log.
//   5: as 4; pending records carry their trial number ("trial"), and tell and release records
//      may carry the trial whose pending point they release (Optimizer::TellTrial,
//      ReleaseTrial; observation_log.h): code that ignored "trial" would release another
//      pending point, or none. PI's options gained relative_xi, whose default (0.01) is not the
//      old behaviour: a version-4 PI header without it means relative_xi = 0. safe-opt models
//      each safety signal in its own units by default (its option "calibrated",
//      model/signal_model.h) and chooses by its goal-directed rule (its option "rule"), and fit
//      records hold those models' hyperparameters as "signals".
//   6: as 5; the domain may be a parameter space (parameter_space.h): "kind": "space" with
//      "parameters" (the JSON of parameter_spec.h), contexts may be a space
//      ("context_parameters"), the options gained maximizer_integer_search, and the pending and
//      tell records of such studies carry the named values ("params", "context_params") for
//      readers (replay uses "x" and "z"). Bumped so that code without parameter spaces refuses
//      such a study by its version; nothing in a version-5 log changes meaning. Shared studies
//      also write two record fields (observation_log.h): pending records of an ask chosen
//      outside the study's lock may carry the round whose random numbers drew the point
//      ("drawn_round"; absent: "round"), and a tell after which a refit is due may carry
//      "refit_claim" (until when, on the study's clock, the others leave that refit to its
//      worker; absent: no claim; replay notes it). "drawn_round" is for readers: replay takes
//      rounds from "round" and never recomputes a choice.
//   7: as 6; a refit may lengthen a safe-opt signal model's context lengthscales up to its
//      context_lengthscale_cap (acquisition/safety_signal.h), by default the context's range;
//      r-gp-ucb restarts where its residual test says the model is stale by default (its option
//      "restart": "residuals", acquisition/r_gp_ucb.h).
//   8: as 7; a safe-opt signal model's refits keep its prior standard deviation at least the
//      largest distance from its prior mean measured (stddev_covers_measured, by default).
//   9: as 8; PI's options gained relative_xi_per_dim (acquisition/improvement_strategy.h),
//      whose PI default (0.005 per action dimension, with relative_xi 0) is not the old margin.
// ParseLogHeader reads all nine: an older header is first rewritten step by step (1 -> 2: the
// built-in strategies' version-1 fields are listed in log_header.cc; 2 -> 3: "auto" on a box
// becomes "compact"; 3 -> 4: nothing to rewrite; 4 -> 5: relative_xi = 0 into PI's options,
// and safe-opt gets "calibrated": false and "rule": "safeopt", the models and the rule it ran
// with; 5 -> 6: nothing to rewrite; 6 -> 7: every calibrated safe-opt signal model gets
// "context_lengthscale_cap": 0, the context lengthscales it ran with, and r-gp-ucb without
// "restart" gets "restart": "epochs", the paper's fixed epochs it ran with; 7 -> 8: every
// calibrated safe-opt signal model gets "stddev_covers_measured": false, the floor it ran with;
// 8 -> 9: PI's options without "relative_xi_per_dim" get 0, the margin they ran with), so an
// old log resumes exactly as it would have with the code that wrote it. A format change
// bumps the version and adds one such rewrite.
//
// Pure functions, thread-safe; formatting then parsing a header gives back the same values.
#ifndef GPBANDIT_STUDY_LOG_HEADER_H_
#define GPBANDIT_STUDY_LOG_HEADER_H_

#include <Eigen/Core>
#include <string>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

// The format version FormatLogHeader writes.
constexpr int kLogFormatVersion = 9;

struct LogHeader {
  // The version the header was read from (FormatLogHeader always writes kLogFormatVersion).
  int format_version = kLogFormatVersion;
  Domain domain = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  // The registry name and the options of the strategy.
  std::string strategy;
  StrategyParams strategy_options;
  OptimizerOptions options;
  bool default_kernel = true;
  std::string kernel_description;
  Eigen::VectorXd kernel_log_params;
};

// The strategy and the options alone, as one JSON object (the pagmo adapter serializes its
// settings this way). Parse throws std::runtime_error naming the malformed field.
std::string FormatSettings(const std::string& strategy, const StrategyParams& strategy_options,
                           const OptimizerOptions& options);
void ParseSettings(const std::string& json_text, std::string* strategy,
                   StrategyParams* strategy_options, OptimizerOptions* options);

// One JSON object (no newline) with "type": "header".
std::string FormatLogHeader(const LogHeader& header);
// Reads format versions 1 to 6. Throws std::runtime_error naming the missing or malformed
// field, or an unsupported version.
LogHeader ParseLogHeader(const std::string& json_text);

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_LOG_HEADER_H_
