// The map between a parameter space's vectors (parameter_space.h, "original units") and the
// model's coordinates, one coordinate per parameter:
//   real or integer, linear scale   u = (v - lower) / (upper - lower)
//   real or integer, log scale      u = (ln v - ln lower) / (ln upper - ln lower)
//   fixed real or integer           u = 0
//   categorical                     u = the label's index (0 .. L - 1), which the categorical
//                                   kernel (gp/categorical_kernel.h) compares for equality only
// so reals and integers live in the unit cube, on the scale the user declared (BoTorch's
// Normalize and Log10 input transforms; scikit-optimize's "log-uniform" prior), and integers
// keep their integer levels: the model is only ever told, and the maximizer only ever scores,
// images of legal points (mixed_maximizer.h: Garrido-Merchan & Hernandez-Lobato 2020).
//
// Round trips (tests/space/space_transform_test.cc):
// - FromModel(ToModel(x)) == x exactly for every integer and label, and for the bounds of every
//   real; an interior real comes back within a few ulps (the affine map and exp/log round). The
//   Optimizer never depends on more: it logs x itself and gives the model ToModel(x) of the
//   logged x, so a resumed study rebuilds exactly the same model inputs.
// - ToModel(FromModel(u)) == u for the image u of a legal point; any other u in the model box
//   decodes to a legal point (integers rounded to the nearest integer of the scale, labels to
//   the nearest index, everything clamped; within 1e-12 of a face the bound itself).
//
// Thread safety: immutable after construction.
#ifndef GPBANDIT_SPACE_SPACE_TRANSFORM_H_
#define GPBANDIT_SPACE_SPACE_TRANSFORM_H_

#include <Eigen/Core>
#include <vector>

#include "gpbandit/maximizer/mixed_maximizer.h"
#include "gpbandit/space/parameter_space.h"

namespace gpbandit {

class SpaceTransform {
 public:
  explicit SpaceTransform(ParameterSpace space);

  const ParameterSpace& space() const { return space_; }
  int dim() const { return space_.size(); }

  // Parameter i's model coordinate of vector entry v, and the whole vector's (size dim()).
  // v inside the parameter's bounds.
  double ToModel(int i, double v) const;
  Eigen::VectorXd ToModel(const Eigen::VectorXd& x) const;
  // The inverse, made legal as above.
  double FromModel(int i, double u) const;
  Eigen::VectorXd FromModel(const Eigen::VectorXd& u) const;

  // The model box: lower 0 everywhere; upper 1 for reals and integers, 0 when fixed, L - 1 for
  // a categorical of L labels.
  Eigen::VectorXd ModelUpper() const;
  // A legal vector from a point s of [0, 1]^dim() (space-filling designs, random search): a real
  // at FromModel(s_i), so uniform s gives a log-uniform real on a log scale; an integer at the
  // level whose cell [k - 1/2, k + 1/2] of the scale holds s_i (every integer's cell equally
  // wide on its scale); a categorical at label floor(s_i L).
  Eigen::VectorXd FromUniform(const Eigen::VectorXd& s) const;

  // The integers and categoricals that are not fixed, as the mixed maximizer's discrete
  // coordinates, at model coordinates offset + i. Their value_of_level functions hold a copy
  // of what they need and outlive this object.
  std::vector<DiscreteCoordinate> DiscreteCoordinates(int offset) const;
  // The model coordinates (offset + i) of the categoricals that are not fixed, with their
  // numbers of labels; and of the other parameters.
  std::vector<int> CategoricalDims(int offset) const;
  std::vector<int> CategoricalSizes() const;
  std::vector<int> OtherDims(int offset) const;

 private:
  ParameterSpace space_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_SPACE_SPACE_TRANSFORM_H_
