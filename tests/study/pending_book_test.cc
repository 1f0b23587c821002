#include "study/pending_book.h"

#include <gtest/gtest.h>

#include <limits>

namespace gpbandit {
namespace {

PendingPoint Point(double x, double z = 0.0, long trial = -1, double lease_until = 1e300) {
  PendingPoint p;
  p.x = Eigen::VectorXd::Constant(1, x);
  p.z = Eigen::VectorXd::Constant(1, z);
  p.trial = trial;
  p.lease_until = lease_until;
  return p;
}

TEST(PendingBookTest, PointsWithoutATrialAreNumberedOnFromTheLastSeen) {
  PendingBook book;
  EXPECT_EQ(book.next_trial(), 0);
  book.Add(Point(0.1));
  book.Add(Point(0.2));
  EXPECT_EQ(book.points()[0].trial, 0);
  EXPECT_EQ(book.points()[1].trial, 1);
  EXPECT_EQ(book.next_trial(), 2);
  book.Add(Point(0.3, 0.0, 7));  // a numbered point moves the count past it
  EXPECT_EQ(book.next_trial(), 8);
  book.Add({Point(0.4), Point(0.5, 0.0, 3)});  // a lower number does not move it back
  EXPECT_EQ(book.points()[3].trial, 8);
  EXPECT_EQ(book.points()[4].trial, 3);
  EXPECT_EQ(book.next_trial(), 9);
  EXPECT_EQ(book.size(), 5u);
}

TEST(PendingBookTest, RemovingAndClearingKeepTheTrialCount) {
  PendingBook book;
  book.Add({Point(0.1), Point(0.2), Point(0.1)});
  EXPECT_TRUE(book.RemoveTrial(1));
  EXPECT_FALSE(book.RemoveTrial(1));
  EXPECT_EQ(book.size(), 2u);
  book.Clear();
  EXPECT_EQ(book.size(), 0u);
  book.Add(Point(0.9));
  EXPECT_EQ(book.points()[0].trial, 3);  // trials are never handed out twice
}

TEST(PendingBookTest, MatchingByValueFindsTheFirstEqualPoint) {
  PendingBook book;
  book.Add({Point(0.1, 1.0), Point(0.2, 1.0), Point(0.1, 1.0), Point(0.1, 2.0)});
  EXPECT_EQ(book.IndexOf(Eigen::VectorXd::Constant(1, 0.1), Eigen::VectorXd::Constant(1, 1.0)), 0);
  EXPECT_EQ(book.IndexOf(Eigen::VectorXd::Constant(1, 0.1), Eigen::VectorXd::Constant(1, 2.0)), 3);
  // Exact equality: the next double is another point.
  EXPECT_EQ(book.IndexOf(Eigen::VectorXd::Constant(1, std::nextafter(0.1, 1.0)),
                         Eigen::VectorXd::Constant(1, 1.0)),
            -1);
  EXPECT_TRUE(book.Remove(Eigen::VectorXd::Constant(1, 0.1), Eigen::VectorXd::Constant(1, 1.0)));
  // The first is gone, the second equal one remains (now at index 1), with its trial.
  EXPECT_EQ(book.IndexOf(Eigen::VectorXd::Constant(1, 0.1), Eigen::VectorXd::Constant(1, 1.0)), 1);
  EXPECT_EQ(book.points()[1].trial, 2);
  EXPECT_FALSE(book.Remove(Eigen::VectorXd::Constant(1, 0.7), Eigen::VectorXd::Constant(1, 1.0)));
  EXPECT_EQ(book.IndexOfTrial(3), 2);
  EXPECT_EQ(book.IndexOfTrial(0), -1);
}

TEST(PendingBookTest, LeasesDecideWhatIsActive) {
  PendingBook book;
  book.Add(Point(0.1, 0.0, -1, 100.0));
  book.Add(Point(0.2, 0.0, -1, 200.0));
  book.Add(Point(0.3, 0.0, -1, std::numeric_limits<double>::infinity()));
  EXPECT_EQ(book.CountActive(50.0), 3);
  EXPECT_EQ(book.CountActive(100.0), 2);  // a lease ending now has ended
  EXPECT_EQ(book.CountActive(1e308), 1);
  EXPECT_FALSE(PendingBook::Active(book.points()[0], 100.0));
  EXPECT_TRUE(PendingBook::Active(book.points()[0], 99.5));
  const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, 0.0);
  EXPECT_TRUE(book.HasActive(Eigen::VectorXd::Constant(1, 0.2), z, 150.0));
  EXPECT_FALSE(book.HasActive(Eigen::VectorXd::Constant(1, 0.2), z, 250.0));
  EXPECT_FALSE(book.HasActive(Eigen::VectorXd::Constant(1, 0.2), Eigen::VectorXd(), 150.0));
}

TEST(PendingBookTest, SameVectorComparesSizesThenCoefficients) {
  EXPECT_TRUE(SameVector(Eigen::VectorXd(), Eigen::VectorXd()));
  EXPECT_FALSE(SameVector(Eigen::VectorXd(), Eigen::VectorXd::Zero(1)));
  EXPECT_FALSE(SameVector(Eigen::Vector2d(1, 2), Eigen::Vector3d(1, 2, 3)));
  EXPECT_TRUE(SameVector(Eigen::Vector2d(1, 2), Eigen::Vector2d(1, 2)));
  EXPECT_FALSE(SameVector(Eigen::Vector2d(1, 2), Eigen::Vector2d(1, -2)));
}

}  // namespace
}  // namespace gpbandit
