// The exception records of exceptions.h: the first child in serial order
// wins whatever order the children finish in, concurrent recording keeps
// exactly one exception, and a waiter rethrows what it received.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cilkpp/runtime.h"

namespace {

using namespace cilkpp::rt;

struct TestFrame : Frame {
  TestFrame() noexcept { pending = nullptr; }
  ~TestFrame() {
    delete pending;
  }
};

std::string what_of(const PendingException *p) {
  try {
    std::rethrow_exception(p->error);
  } catch (const std::exception &e) {
    return e.what();
  }
}

std::exception_ptr error(const std::string &what) { return std::make_exception_ptr(std::runtime_error(what)); }

TEST(RecordException, KeepsTheFirstInSerialOrder) {
  TestFrame f;
  record_exception(&f, error("third"), 3);
  record_exception(&f, error("first"), 1);
  record_exception(&f, error("second"), 2);
  ASSERT_NE(f.pending, nullptr);
  EXPECT_EQ(f.pending->seq, 1u);
  EXPECT_EQ(what_of(f.pending), "first");
}

TEST(RecordException, TheContinuationComesAfterEveryChild) {
  TestFrame f;
  record_exception(&f, error("continuation"), continuation_seq);
  record_exception(&f, error("child"), 7);
  EXPECT_EQ(what_of(f.pending), "child");
}

TEST(RecordException, ConcurrentChildrenLeaveTheSmallestNumber) {
  for (int round = 0; round < 50; ++round) {
    TestFrame f;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < 4; ++t)
      threads.emplace_back([&f, t] {
        for (unsigned i = 0; i < 25; ++i) {
          const unsigned seq = 100 - (t * 25 + i);
          record_exception(&f, error(std::to_string(seq)), seq);
        }
      });
    for (std::thread &t : threads) t.join();
    ASSERT_NE(f.pending, nullptr);
    EXPECT_EQ(f.pending->seq, 1u);
    EXPECT_EQ(what_of(f.pending), "1");
  }
}

TEST(RethrowPending, RethrowsOnceAndClears) {
  TestFrame f;
  rethrow_pending(f);  // nothing recorded: returns
  record_exception(&f, error("boom"), 0);
  EXPECT_THROW(rethrow_pending(f), std::runtime_error);
  EXPECT_EQ(f.pending, nullptr);
}

TEST(Deferred, DestroysItsValueOnlyWhenConstructed) {
  struct Counted {
    explicit Counted(int *destroyed) : destroyed(destroyed) {}
    ~Counted() { ++*destroyed; }
    int *destroyed;
  };
  int destroyed = 0;
  { Deferred<Counted> unset; }
  EXPECT_EQ(destroyed, 0);
  {
    Deferred<Counted> set;
    ::new (set.slot()) Counted(&destroyed);
    set.ready();
  }
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
