// Plain calls of cilk procedures (calls.h): exposure passes over a calling
// frame, a steal below it promotes it with two counts, and the caller's
// return path gives its count back or goes on.
#include <gtest/gtest.h>

#include <stdexcept>

#include "cilkpp/runtime.h"
#include "runtime.h"

namespace {

using namespace cilkpp::rt;

void never_resumed(Worker *, Frame *) noexcept {}
const FrameInfo heap_info{"call", &never_resumed, sizeof(Frame), nullptr};
const FrameInfo stack_info{"call", &never_resumed, sizeof(Frame), &heap_info};

// root <- a (spawned, latent; a frame on the heap) <- b (calling) <- c (the
// callee, latent).
class Calls : public ::testing::Test {
 protected:
  Calls() : w(Runtime::instance(), 0) {
    a = init_stack_frame(sa, &root, nullptr, &heap_info);
    b = init_stack_frame(sb, a, nullptr, &stack_info);
    b->entry = 7;
    begin_call(b);
    c = init_stack_frame(sc, b, nullptr, &stack_info);
  }
  Frame *steal() { return w.deque().steal(); }

  Worker w;
  RootFrame root;
  StackFrame<Frame> sa, sb, sc;
  Frame *a, *b, *c;
};

TEST_F(Calls, ExposurePassesOverTheCallingFrame) {
  w.request_exposure();
  poll_exposure(&w, c);
  EXPECT_EQ(a->visibility, Visibility::exposed);
  w.request_exposure();
  poll_exposure(&w, c);
  EXPECT_EQ(b->visibility, Visibility::calling);
  EXPECT_EQ(c->visibility, Visibility::exposed);
  EXPECT_EQ(steal(), a);
  EXPECT_EQ(steal(), c);
  EXPECT_EQ(steal(), nullptr);
}

TEST_F(Calls, ExposingTheChainLeavesTheCallingFrameOff) {
  expose_chain(&w, c);
  EXPECT_EQ(steal(), a);
  EXPECT_EQ(steal(), c);
  EXPECT_EQ(steal(), nullptr);
}

TEST_F(Calls, ACallThatReturnsMakesTheFrameLatentAgain) {
  EXPECT_TRUE(call_returned(&w, b));
  EXPECT_EQ(b->visibility, Visibility::latent);
  w.request_exposure();
  poll_exposure(&w, c);
  w.request_exposure();
  poll_exposure(&w, c);
  EXPECT_EQ(steal(), a);
  EXPECT_EQ(steal(), b);
}

TEST_F(Calls, StealingTheCalleePromotesItsCallerWithTwoCounts) {
  a->visibility = Visibility::eager;  // stolen before, as the oldest
  promote_callers(&w, c);
  Frame *copy = b->promoted;
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->join.load(), 2);
  EXPECT_EQ(copy->entry, 7);
  EXPECT_EQ(copy->parent, a);
  EXPECT_EQ(copy->visibility, Visibility::eager);
  free_frame_generic(&w, copy);
}

TEST_F(Calls, CallersInARowArePromotedOldestFirst) {
  a->visibility = Visibility::eager;
  StackFrame<Frame> sd;
  begin_call(c);  // c calls d in turn
  Frame *d = init_stack_frame(sd, c, nullptr, &stack_info);
  promote_callers(&w, d);
  ASSERT_NE(b->promoted, nullptr);
  ASSERT_NE(c->promoted, nullptr);
  EXPECT_EQ(c->promoted->parent, b->promoted);
  free_frame_generic(&w, c->promoted);
  free_frame_generic(&w, b->promoted);
}

TEST_F(Calls, AHeapCallerStaysWhereItIsWithOneMoreCount) {
  Frame *heap = new_frame<Frame>(&w, a, nullptr, &heap_info);
  begin_call(heap);
  StackFrame<Frame> sd;
  Frame *d = init_stack_frame(sd, heap, nullptr, &stack_info);
  a->visibility = Visibility::eager;
  promote_callers(&w, d);
  EXPECT_EQ(heap->join.load(), 2);
  EXPECT_EQ(current_location(heap), heap);
  // The callee, resumed elsewhere, is its child still: stolen from or
  // mugged again, it must not count the caller twice.
  EXPECT_EQ(heap->visibility, Visibility::eager);
  promote_callers(&w, d);
  EXPECT_EQ(heap->join.load(), 2);
  free_frame_generic(&w, heap);
}

TEST_F(Calls, TheCallerResumesWhenBothCountsAreBack) {
  a->visibility = Visibility::eager;
  promote_callers(&w, c);
  Frame *copy = b->promoted;
  w.escaping = true;  // the callee escaped
  EXPECT_FALSE(call_returned(&w, b));
  EXPECT_EQ(copy->join.load(), 1);
  EXPECT_EQ(w.take_ready(), nullptr);
  child_done(&w, copy);  // the callee completed elsewhere
  EXPECT_EQ(w.take_ready(), copy);
  w.escaping = false;
  free_frame_generic(&w, copy);
}

TEST_F(Calls, TheCalleesExceptionIsRethrownAtTheCallOnly) {
  RootFrame f;
  record_exception(&f, std::make_exception_ptr(std::runtime_error("earlier child")), 2);
  EXPECT_NO_THROW(rethrow_if_call_threw(f, 3));  // the call returned: wait for the sync
  record_exception(&f, std::make_exception_ptr(std::runtime_error("callee")), 3);
  try {
    rethrow_if_call_threw(f, 3);
    ADD_FAILURE() << "the callee's exception was not rethrown";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "earlier child");  // the first in serial order wins
  }
}

}  // namespace
