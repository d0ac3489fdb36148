// Lazy exposure (exposure.h): a worker's latent frames reach its deque only
// when a thief asks, the oldest first; a reclaimed frame is latent again.
#include <gtest/gtest.h>

#include "cilkpp/runtime.h"
#include "runtime.h"

namespace {

using namespace cilkpp::rt;

void never_resumed(Worker *, Frame *) noexcept {}
const FrameInfo chain_info{"chain", &never_resumed, sizeof(Frame), nullptr};

// A root and three fast-clone frames spawned one from the other: a is the
// oldest, c the newest (the one whose child is running).
class Exposure : public ::testing::Test {
 protected:
  Exposure() : w(Runtime::instance(), 0) {
    a = init_stack_frame(sa, &root, nullptr, &chain_info);
    b = init_stack_frame(sb, a, nullptr, &chain_info);
    c = init_stack_frame(sc, b, nullptr, &chain_info);
  }
  Frame *steal() { return w.deque().steal(); }

  Worker w;
  RootFrame root;
  StackFrame<Frame> sa, sb, sc;
  Frame *a, *b, *c;
};

TEST_F(Exposure, WithoutARequestFramesStayOffTheDeque) {
  poll_exposure(&w, c);
  EXPECT_EQ(steal(), nullptr);
  EXPECT_EQ(a->visibility, Visibility::latent);
  EXPECT_EQ(c->visibility, Visibility::latent);
}

TEST_F(Exposure, ARequestExposesTheOldestLatentFrameOnly) {
  w.request_exposure();
  poll_exposure(&w, c);
  EXPECT_FALSE(w.exposure_requested());
  EXPECT_EQ(a->visibility, Visibility::exposed);
  EXPECT_EQ(b->visibility, Visibility::latent);
  EXPECT_EQ(steal(), a);
  EXPECT_EQ(steal(), nullptr);
  EXPECT_EQ(w.stats().exposures, 1u);
}

TEST_F(Exposure, TheNextRequestExposesTheNextFrameBelow) {
  w.request_exposure();
  poll_exposure(&w, c);
  w.request_exposure();
  poll_exposure(&w, c);
  EXPECT_EQ(b->visibility, Visibility::exposed);
  EXPECT_EQ(c->visibility, Visibility::latent);
  EXPECT_EQ(steal(), a);
  EXPECT_EQ(steal(), b);
}

TEST_F(Exposure, TheWalkStopsAtAnEagerFrame) {
  a->visibility = Visibility::eager;  // say, a resumed frame this worker runs
  w.request_exposure();
  poll_exposure(&w, c);
  EXPECT_EQ(steal(), b);
  EXPECT_EQ(steal(), nullptr);
}

TEST_F(Exposure, ExposingTheChainPushesEveryLatentFrameOldestFirst) {
  w.request_exposure();
  poll_exposure(&w, c);  // a is already exposed
  expose_chain(&w, c);
  EXPECT_EQ(steal(), a);
  EXPECT_EQ(steal(), b);
  EXPECT_EQ(steal(), c);
  EXPECT_EQ(steal(), nullptr);
}

TEST_F(Exposure, ReclaimingAnExposedFrameMakesItLatentAgain) {
  expose_chain(&w, c);
  EXPECT_TRUE(still_ours(&w, c));
  EXPECT_EQ(c->visibility, Visibility::latent);
  EXPECT_TRUE(still_ours(&w, b));
  EXPECT_TRUE(still_ours(&w, a));
  EXPECT_EQ(steal(), nullptr);
}

TEST_F(Exposure, AFrameAThiefTookIsNoLongerOurs) {
  w.request_exposure();
  poll_exposure(&w, c);
  ASSERT_EQ(steal(), a);
  EXPECT_TRUE(still_ours(&w, c));  // latent: never left this worker
  EXPECT_FALSE(still_ours(&w, a));
}

}  // namespace
