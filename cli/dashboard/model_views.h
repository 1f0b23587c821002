// What the study's model believes, as the JSON the page draws (docs/dashboard.md lists every
// field): the recommendation; the posterior mean +- 2 sd along each action parameter through it
// (slices); the mean and sd on a grid over two chosen parameters (contour); the acquisition
// along one parameter with the pending points; the model's health: leave-one-out predictions
// against the observations, the hyperparameters of every fit, and each parameter's importance
// from its lengthscale; for a safe or constrained study, the safety margin and each constraint
// signal's mean along the slices.
//
// The next suggestion is the optimizer's own next ask at that context (Optimizer::PreviewAsk,
// which records nothing and changes nothing: what `gpbandit suggest` would hand out now), and
// the acquisition is drawn along its slice through that point.
//
// Everything is computed from the public Optimizer (Predict, SafetyMargin, PredictConstraint,
// model(), PreviewAsk) at a context (empty: the recommendation's), on grids of bounded size, so
// that the cost does not grow with the study (past local_model.exact_until the model is the
// local GP's).
#ifndef GPBANDIT_CLI_DASHBOARD_MODEL_VIEWS_H_
#define GPBANDIT_CLI_DASHBOARD_MODEL_VIEWS_H_

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/dashboard/study_reader.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {
namespace dashboard {

// v as a JSON array of numbers (the page's vectors).
nlohmann::json VectorJson(const Eigen::VectorXd& v);

struct ModelRequest {
  int contour_x = 0, contour_y = 1;  // action indices of the contour (the same: no contour)
  int acquisition_dim = 0;           // the action index the acquisition is drawn along
  int slice_points = 101;            // points per slice, >= 2
  int grid = 30;                     // contour points per side, >= 2
  Eigen::VectorXd context;           // empty: the recommendation's
};

// Throws std::invalid_argument naming the field for an index outside [0, action_dim) or a
// context of the wrong size; std::logic_error before the first accepted observation.
// names: the action parameters' (StudyReader::parameter_names); fits: the study's fit records.
// optimizer: only read (PreviewAsk undoes what it does; not const for that reason).
nlohmann::json ModelViews(Optimizer& optimizer, const std::vector<std::string>& names,
                          const std::vector<FitRow>& fits, const ModelRequest& request);

// Leave-one-out of an exact GP in closed form (Rasmussen & Williams 2006, eq. 5.12): with
// K = k(X, X) + (noise + jitter) I over the standardized outputs y and alpha = K^-1 y,
// mu_-i = y_i - alpha_i / [K^-1]_ii and sigma_-i^2 = 1 / [K^-1]_ii, mapped back to the study's
// units by the model's output scale, reward unit and sense. At most `max_points` observations
// (the last ones) are used.
nlohmann::json LeaveOneOut(const Optimizer& optimizer, int max_points = 1500);

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_DASHBOARD_MODEL_VIEWS_H_
