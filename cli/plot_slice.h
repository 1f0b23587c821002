// The slice `gpbandit plot` draws through a study's action domain, for every kind of domain: a
// box (axes x[0], x[1], ...), a finite set (its candidates' bounding box) and named parameters
// (axes by name: a real on its linear or log scale, an integer, a categorical's labels).
//
// Each slice coordinate is an axis with a uniform grid of plot coordinates u (gnuplot's image
// needs one): u is the value on a linear axis, log10 of it on a log one, the label's index on a
// categorical; an integer's u is rounded to the integer the model is asked at. Every other
// coordinate is held at one point (the recommendation, or --at).
//
// Which observations are drawn: those near the slice, every held coordinate within kNearSlice
// of its range of the held value (in u; a categorical: the same label) and, in a contextual
// study, every context coordinate within kNearSlice of its range (the context bounds, else the
// observed contexts' spread) of the plotted context. NearSliceRule() says so in words.
//
// Thread-safety: pure functions.
#ifndef GPBANDIT_CLI_PLOT_SLICE_H_
#define GPBANDIT_CLI_PLOT_SLICE_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {

constexpr double kNearSlice = 0.1;

struct SliceAxis {
  int index = 0;     // the action coordinate
  std::string name;  // the parameter's name, or x[i]
  bool log = false;  // u = log10(value)
  bool integer = false;
  std::vector<std::string> labels;  // a categorical's, u = 0, 1, ...
  double u_lower = 0, u_upper = 1;
  int points = 2;  // grid points, u_lower .. u_upper

  bool discrete() const { return integer || !labels.empty(); }
  double U(double value) const;    // the plot coordinate of an action value
  double GridU(int i) const;       // the i-th grid point
  double ValueAt(double u) const;  // the action value the model is asked at
  // gnuplot's axis settings: its range and, for labels and log scales, its tics.
  std::string GnuplotAxis(const std::string& axis) const;
};

// The axis of action coordinate `spec` ("kp" or "0") with `grid` points (0: `fallback`; a
// categorical has one per label, an integer at most one per integer). Throws UsageError
// naming --dims for an unknown name, an index out of range, or a fixed parameter.
SliceAxis MakeAxis(const Domain& domain, const std::string& spec, int grid, int fallback);

// The held point's other coordinates as text: "taps=7 mode=pid" or "x[1]=4.2" ("" if none).
std::string HeldText(const Domain& domain, const std::vector<SliceAxis>& axes,
                     const Eigen::VectorXd& base);

// True if observation (x, z) is near the slice through `base` at context `z0` (see above);
// `z_range` is each context coordinate's range.
bool NearSlice(const Domain& domain, const std::vector<SliceAxis>& axes,
               const Eigen::VectorXd& base, const Eigen::VectorXd& z0,
               const Eigen::VectorXd& z_range, const Eigen::VectorXd& x, const Eigen::VectorXd& z);

// The context coordinates' ranges: the bounds when the study has them, else the spread of the
// observed contexts (1 where it is 0).
Eigen::VectorXd ContextRanges(const Optimizer& opt);

// "held coordinates within 10% of their range, contexts within 10%", or "" when the slice
// holds nothing (every observation is on it).
std::string NearSliceRule(const Domain& domain, const std::vector<SliceAxis>& axes);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_PLOT_SLICE_H_
