// Which constant prior mean a GaussianProcess with standardized outputs subtracts (its offset;
// gaussian_process.h). Its own header so that what a strategy asks of the model
// (acquisition/time_model.h) can name it without the GP.
#ifndef GPBANDIT_GP_PRIOR_MEAN_ESTIMATE_H_
#define GPBANDIT_GP_PRIOR_MEAN_ESTIMATE_H_

#include <string>

namespace gpbandit {

// The constant prior mean m that standardization subtracts (the offset).
enum class PriorMeanEstimate {
  // The outputs' sample mean (scikit-learn's and BoTorch's normalization).
  kSampleMean,
  // The generalized-least-squares estimate m = 1^T C^-1 y / 1^T C^-1 1, C = K + (noise +
  // jitter) I in standardized units: the maximum-likelihood constant mean of ordinary kriging
  // (Rasmussen & Williams 2006, section 2.7). It weighs each observation by how much it is not
  // already said by the others, so a cluster of correlated observations counts about once.
  // Where a run's observations crowd near the optimum, the sample mean lies near the optimum's
  // value, and every region the data do not cover -- never measured, or forgotten by a
  // drifting model -- is predicted to be about as good as the optimum; the GLS mean is the
  // level of the function as a whole.
  kGeneralizedLeastSquares,
};

// The estimate's name in options JSON: "sample-mean" or "gls".
inline std::string PriorMeanEstimateName(PriorMeanEstimate estimate) {
  return estimate == PriorMeanEstimate::kSampleMean ? "sample-mean" : "gls";
}

}  // namespace gpbandit

#endif  // GPBANDIT_GP_PRIOR_MEAN_ESTIMATE_H_
