// The models' deferred work (model/deferred_work.h): queued only while deferring, done in order
// on CatchUp, and what is left when a piece of work throws.
#include "model/deferred_work.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace gpbandit {
namespace {

TEST(DeferredWorkTest, DoesTheQueuedWorkInOrderOnCatchUp) {
  DeferredWork work;
  EXPECT_TRUE(work.caught_up());
  EXPECT_FALSE(work.deferring());
  work.Defer();
  EXPECT_TRUE(work.deferring());
  EXPECT_FALSE(work.caught_up());  // deferring, even with nothing queued yet
  std::vector<int> done;
  for (int i = 1; i <= 3; ++i) work.Queue([&done, i] { done.push_back(i); });
  EXPECT_TRUE(done.empty());
  work.CatchUp();
  EXPECT_EQ(done, std::vector<int>({1, 2, 3}));
  EXPECT_TRUE(work.caught_up());
  EXPECT_FALSE(work.deferring());
  // Done once: a second catch-up has nothing to do.
  work.CatchUp();
  EXPECT_EQ(done.size(), 3u);
}

TEST(DeferredWorkTest, RefusesToQueueWhileNotDeferring) {
  DeferredWork work;
  bool ran = false;
  EXPECT_THROW(work.Queue([&ran] { ran = true; }), std::logic_error);
  work.CatchUp();
  EXPECT_FALSE(ran);
  EXPECT_TRUE(work.caught_up());
}

TEST(DeferredWorkTest, WorkThatThrowsEndsTheCatchUpAndDropsTheRest) {
  DeferredWork work;
  work.Defer();
  std::vector<int> done;
  work.Queue([&done] { done.push_back(1); });
  work.Queue([] { throw std::runtime_error("refactorization failed"); });
  work.Queue([&done] { done.push_back(3); });
  EXPECT_THROW(work.CatchUp(), std::runtime_error);
  EXPECT_EQ(done, std::vector<int>({1}));
  EXPECT_TRUE(work.caught_up());
  work.CatchUp();
  EXPECT_EQ(done, std::vector<int>({1}));
}

}  // namespace
}  // namespace gpbandit
