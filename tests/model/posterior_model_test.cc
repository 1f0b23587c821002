// The interface's shared parts: the rows a refit samples, and the default search region.
#include "model/posterior_model.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpbandit {
namespace {

TEST(PosteriorModelTest, EvenlySpacedRowsKeepEveryRowUpToTheCount) {
  EXPECT_EQ(EvenlySpacedRows(3, 5), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(EvenlySpacedRows(4, 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(EvenlySpacedRows(0, 3).empty());
}

TEST(PosteriorModelTest, EvenlySpacedRowsAreFloorOfINOverCount) {
  EXPECT_EQ(EvenlySpacedRows(10, 4), (std::vector<int>{0, 2, 5, 7}));
  EXPECT_EQ(EvenlySpacedRows(7, 3), (std::vector<int>{0, 2, 4}));
  // No overflow for large studies: i n exceeds 2^31.
  const std::vector<int> rows = EvenlySpacedRows(2000000000, 3);
  EXPECT_EQ(rows, (std::vector<int>{0, 666666666, 1333333333}));
}

}  // namespace
}  // namespace gpbandit
