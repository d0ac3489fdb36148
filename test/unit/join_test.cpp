// The join-counter handshake of abi.h: children completing (child_done)
// concurrently with their parent's sync. Exactly one party may resume the
// parent, and the count must be back at 1 when it does.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "cilkpp/runtime.h"
#include "runtime.h"

namespace {

using namespace cilkpp::rt;

// Workers outside the pool: only their ready lists and escaping flags are
// used, so the pool's threads (asleep, no root call is made) never see them.
std::unique_ptr<Worker> make_worker(unsigned index) {
  return std::make_unique<Worker>(Runtime::instance(), 100 + index);
}

void resume_noop(Worker *, Frame *) noexcept {}
const FrameInfo test_info{"test", &resume_noop, sizeof(Frame), nullptr};

// A reusable spinning barrier for a fixed set of threads.
class SpinBarrier {
 public:
  explicit SpinBarrier(unsigned n) : n_(n) {}
  void arrive_and_wait() {
    const unsigned gen = gen_.load(std::memory_order_acquire);
    if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) {
      count_.store(0, std::memory_order_relaxed);
      gen_.fetch_add(1, std::memory_order_release);
      return;
    }
    while (gen_.load(std::memory_order_acquire) == gen) std::this_thread::yield();
  }

 private:
  const unsigned n_;
  std::atomic<unsigned> count_{0};
  std::atomic<unsigned> gen_{0};
};

void jitter(std::mt19937 &rng) {
  for (unsigned i = rng() % 64; i > 0; --i) cpu_relax();
}

class JoinProtocol : public ::testing::TestWithParam<int> {};

TEST_P(JoinProtocol, ExactlyOnePartyResumesTheParent) {
  const int children = GetParam();
  constexpr int kIterations = 20000;
  Frame parent{};
  parent.info = &test_info;
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i <= children; ++i) workers.push_back(make_worker(i));
  SpinBarrier start(children + 1), end(children + 1);

  std::vector<std::thread> threads;
  for (int c = 0; c < children; ++c)
    threads.emplace_back([&, c] {
      std::mt19937 rng(c + 1);
      for (int it = 0; it < kIterations; ++it) {
        start.arrive_and_wait();
        jitter(rng);
        child_done(workers[c + 1].get(), &parent);
        end.arrive_and_wait();
      }
    });

  std::mt19937 rng(99);
  int sync_went_on = 0, made_ready = 0, both_or_neither = 0, bad_count = 0;
  for (int it = 0; it < kIterations; ++it) {
    // The parent's continuation is held (1) and every child is outstanding.
    parent.join.store(1 + children, std::memory_order_relaxed);
    start.arrive_and_wait();
    jitter(rng);
    const bool went_on = sync(workers[0].get(), &parent);
    end.arrive_and_wait();
    int resumers = went_on ? 1 : 0;
    for (auto &w : workers)
      while (Frame *f = w->take_ready()) {
        EXPECT_EQ(f, &parent);
        // What the scheduler does before resuming a ready frame.
        EXPECT_EQ(f->join.load(), 0);
        f->join.store(1, std::memory_order_relaxed);
        ++resumers;
        ++made_ready;
      }
    if (went_on) ++sync_went_on;
    if (resumers != 1) ++both_or_neither;
    if (parent.join.load() != 1) ++bad_count;
  }
  for (std::thread &t : threads) t.join();
  EXPECT_EQ(both_or_neither, 0);
  EXPECT_EQ(bad_count, 0);
  EXPECT_EQ(sync_went_on + made_ready, kIterations);
  RecordProperty("sync_went_on", sync_went_on);
  RecordProperty("made_ready", made_ready);
}

INSTANTIATE_TEST_SUITE_P(Children, JoinProtocol, ::testing::Values(1, 2, 3));

TEST(JoinProtocolSequential, SyncWithNothingOutstandingGoesOn) {
  auto w = make_worker(0);
  Frame f{};
  f.info = &test_info;
  f.join.store(1);
  EXPECT_TRUE(sync(w.get(), &f));
  EXPECT_EQ(f.join.load(), 1);
  EXPECT_EQ(w->take_ready(), nullptr);
}

TEST(JoinProtocolSequential, LastChildAfterSuspendingSyncMakesParentReady) {
  auto w = make_worker(0);
  Frame f{};
  f.info = &test_info;
  f.join.store(3);
  EXPECT_FALSE(sync(w.get(), &f));
  child_done(w.get(), &f);
  EXPECT_EQ(w->take_ready(), nullptr);
  child_done(w.get(), &f);
  EXPECT_EQ(w->take_ready(), &f);
  EXPECT_EQ(w->take_ready(), nullptr);
}

TEST(JoinProtocolSequential, ParentStolenHandsBackTheCountOnceWhileEscaping) {
  auto w = make_worker(0);
  // A result slot always lies inside its parent's frame.
  struct ParentFrame : Frame {
    int slot = 0;
  };
  ParentFrame p1{}, p2{};
  p1.info = p2.info = &test_info;
  p1.join.store(2);  // stolen: thief holds the continuation, child outstanding
  p2.join.store(2);
  parent_stolen(w.get(), &p1, &p1.slot, 7);
  EXPECT_TRUE(w->escaping);
  EXPECT_EQ(p1.slot, 7);
  EXPECT_EQ(p1.join.load(), 1);
  // Further up the same C stack the child escaped: its own completion will
  // hand the count back, so nothing happens here.
  parent_stolen(w.get(), &p2, &p2.slot, 9);
  EXPECT_EQ(p2.slot, 0);
  EXPECT_EQ(p2.join.load(), 2);
  w->escaping = false;
}

TEST(JoinProtocolSequential, CompleteFrameDeliversResultAndFreesFrame) {
  auto w = make_worker(0);
  Frame parent{};
  parent.info = &test_info;
  parent.join.store(1);  // suspended at a sync, one child outstanding
  int slot = 0;
  struct Child final : Frame {
    int payload;
  };
  static const FrameInfo child_info{"child", &resume_noop, sizeof(Child), nullptr};
  Child *c = new_frame<Child>(w.get(), &parent, &slot, &child_info);
  complete_frame<int>(w.get(), c, 42);
  EXPECT_EQ(slot, 42);
  EXPECT_EQ(w->take_ready(), &parent);
  // The block went back to the worker's pool: the next frame reuses it.
  EXPECT_EQ(new_frame<Child>(w.get(), &parent, &slot, &child_info), c);
}

TEST(JoinProtocolSequential, CompleteFrameNeverMakesARootReady) {
  auto w = make_worker(0);
  RootFrame root;
  root.join.store(1);  // the waiting caller already gave up its count
  int slot = 0;
  struct Child final : Frame {};
  static const FrameInfo child_info{"child", &resume_noop, sizeof(Child), nullptr};
  Child *c = new_frame<Child>(w.get(), &root, &slot, &child_info);
  complete_frame<int>(w.get(), c, 5);
  EXPECT_EQ(slot, 5);
  EXPECT_EQ(root.join.load(), 0);
  EXPECT_EQ(w->take_ready(), nullptr);
}

}  // namespace

namespace {

TEST(RelocateSlot, SlotsInsideTheFrameMoveWithItOthersStay) {
  struct F : Frame {
    long a = 0, b = 0;
  };
  const FrameInfo info{"f", &resume_noop, sizeof(F), nullptr};
  F from, to;
  from.info = &info;
  long elsewhere = 0;
  EXPECT_EQ(relocate_slot(&from.b, &from, &to), static_cast<void *>(&to.b));
  EXPECT_EQ(relocate_slot(&elsewhere, &from, &to), static_cast<void *>(&elsewhere));
  EXPECT_EQ(relocate_slot(&from.a, &from, &from), static_cast<void *>(&from.a));
}

}  // namespace
