// The local posterior against the LocalGaussianProcess it wraps: its GP on the neighbours
// predicts, every observation counts, its regions are the trust boxes around the anchors, and a
// refit samples the whole study.
#include "model/local_posterior.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

GaussianProcess ExactOn(const Eigen::MatrixXd& X) {
  GaussianProcessOptions options;
  options.noise_variance = 0.01;
  GaussianProcess gp(MakeSquaredExponential(FirstDims(2), true, 1.0, 0.2), 2, options);
  for (Eigen::Index i = 0; i < X.cols(); ++i)
    gp.AddObservation(X.col(i), std::sin(5.0 * X(0, i)) * std::cos(4.0 * X(1, i)));
  return gp;
}

LocalModelOptions Local() {
  LocalModelOptions o;
  o.size = 15;
  o.regions = 2;
  o.trust_box_scale = 0.5;
  return o;
}

TEST(LocalPosteriorTest, PredictsAsTheLocalGpOnItsNeighbours) {
  Rng rng(testing::TestSeed(21));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 60, 0.0, 1.0, rng);
  const GaussianProcess exact = ExactOn(X);
  LocalPosterior model(exact, Local());
  const LocalGaussianProcess local(exact, 15, 2, LocalAnchor::kHighestOutput);
  EXPECT_EQ(model.kind(), PosteriorKind::kLocal);
  EXPECT_EQ(model.num_observations(), 60);
  ASSERT_NE(model.gp(), nullptr);
  EXPECT_EQ(model.gp()->num_observations(), 15);
  const Eigen::MatrixXd elsewhere = testing::UniformPoints(2, 5, 0.0, 1.0, rng);
  Eigen::VectorXd means, variances;
  model.Posterior(elsewhere, &means, &variances);
  for (Eigen::Index j = 0; j < elsewhere.cols(); ++j) {
    double mean = 0, variance = 0;
    local.local().MeanAndVariance(elsewhere.col(j), &mean, &variance);
    EXPECT_EQ(means(j), mean) << j;
    EXPECT_EQ(variances(j), variance) << j;
  }
  EXPECT_EQ(model.InformationGain(), local.local().InformationGain());
  const Eigen::VectorXd at_rows = model.MeansAtObservations();
  const Eigen::VectorXd local_rows = local.MeansAtObservations();
  ASSERT_EQ(at_rows.size(), 60);
  for (Eigen::Index i = 0; i < 60; ++i)
    EXPECT_TRUE(at_rows(i) == local_rows(i) ||
                (std::isnan(at_rows(i)) && std::isnan(local_rows(i))))
        << i;
}

TEST(LocalPosteriorTest, SearchesTheTrustBoxOfEachRegion) {
  Rng rng(testing::TestSeed(22));
  const GaussianProcess exact = ExactOn(testing::UniformPoints(2, 50, 0.0, 1.0, rng));
  const LocalPosterior model(exact, Local());
  const LocalGaussianProcess local(exact, 15, 2, LocalAnchor::kHighestOutput);
  Eigen::MatrixXd lower, upper, starts;
  const Eigen::VectorXd box_lower = Eigen::VectorXd::Zero(2), box_upper = Eigen::VectorXd::Ones(2);
  model.SearchRegions(2, box_lower, box_upper, &lower, &upper, &starts);
  ASSERT_EQ(lower.cols(), static_cast<Eigen::Index>(local.anchors().size()));
  for (Eigen::Index j = 0; j < lower.cols(); ++j) {
    Eigen::VectorXd l = box_lower, u = box_upper;
    local.LocalTrustBox(static_cast<int>(j), 2, &l, &u, 0.5);
    EXPECT_EQ(Eigen::VectorXd(lower.col(j)), l) << j;
    EXPECT_EQ(Eigen::VectorXd(upper.col(j)), u) << j;
    EXPECT_EQ(Eigen::VectorXd(starts.col(j)), local.input(local.anchors()[j])) << j;
    EXPECT_TRUE((lower.col(j).array() >= 0.0).all() && (upper.col(j).array() <= 1.0).all());
  }
}

TEST(LocalPosteriorTest, FitDataSamplesEveryObservationNotTheNeighbours) {
  Rng rng(testing::TestSeed(23));
  const Eigen::MatrixXd X = testing::UniformPoints(2, 40, 0.0, 1.0, rng);
  const GaussianProcess exact = ExactOn(X);
  LocalPosterior model(exact, Local());
  const GaussianProcess data = model.FitData(8);
  ASSERT_EQ(data.num_observations(), 8);
  for (int i = 0; i < 8; ++i)  // rows floor(i 40 / 8) = 5 i
    EXPECT_EQ(Eigen::VectorXd(data.inputs().col(i)), Eigen::VectorXd(X.col(5 * i))) << i;
  model.AddObservation(Eigen::VectorXd::Constant(2, 0.5), 0.3, true);
  EXPECT_EQ(model.num_observations(), 41);
  const std::unique_ptr<PosteriorModel> copy = model.Clone();
  model.ScaleOutputs(2);
  EXPECT_EQ(copy->num_observations(), 41);
  EXPECT_EQ(copy->kind(), PosteriorKind::kLocal);
}

}  // namespace
}  // namespace gpbandit
