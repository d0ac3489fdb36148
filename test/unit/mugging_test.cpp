// Mugging at a poll point (poll.h): a worker gives its running frame up only
// when a thief asked and it has nothing older to offer; the frame then leaves
// its stack for the hand-off slot, resumable at the poll point.
#include <gtest/gtest.h>

#include "cilkpp/rt/exposure.h"
#include "cilkpp/runtime.h"
#include "runtime.h"
#include "speed.h"
#include "throttle.h"

namespace {

using namespace cilkpp::rt;

void never_resumed(Worker *, Frame *) noexcept {}
const FrameInfo heap_info{"proc", &never_resumed, sizeof(Frame), nullptr};
const FrameInfo stack_info{"proc", &never_resumed, sizeof(Frame), &heap_info};

// parent: a frame whose continuation a thief took (exposed, then stolen);
// running: the frame at a poll point, on this worker's stack.
class Mugging : public ::testing::Test {
 protected:
  Mugging() : w(Runtime::instance(), 0) {
    parent = init_stack_frame(sp, &root, nullptr, &heap_info);
    parent->visibility = Visibility::exposed;
    running = init_stack_frame(sr, parent, nullptr, &stack_info);
    running->entry = 7;
  }
  ~Mugging() override {
    if (Frame *f = w.take_handoff()) free_frame_generic(&w, f);
  }

  Worker w;
  RootFrame root;
  StackFrame<Frame> sp, sr;
  Frame *parent, *running;
};

TEST_F(Mugging, WithoutARequestThePollPointGoesOn) {
  EXPECT_FALSE(poll_requested(&w));
  EXPECT_FALSE(poll(&w, running));
  EXPECT_FALSE(w.has_handoff());
}

TEST_F(Mugging, ARequestTakesTheFrameOffTheStackResumableAtThePollPoint) {
  ASSERT_TRUE(w.request_mug(1));
  EXPECT_TRUE(poll_requested(&w));
  EXPECT_TRUE(poll(&w, running));
  EXPECT_TRUE(w.escaping);
  w.escaping = false;
  Frame *moved = w.take_handoff();
  ASSERT_NE(moved, nullptr);
  EXPECT_NE(moved, running);  // promoted to the heap
  EXPECT_EQ(running->promoted, moved);
  EXPECT_EQ(moved->info, &heap_info);
  EXPECT_EQ(moved->entry, 7);
  EXPECT_EQ(moved->parent, parent);
  EXPECT_EQ(moved->join.load(), 1);  // its continuation: no child is running
  EXPECT_EQ(moved->visibility, Visibility::eager);
  EXPECT_EQ(w.stats().mugged, 1u);
  EXPECT_FALSE(poll_requested(&w));
  EXPECT_EQ(w.take_mug_request(), -1);
  free_frame_generic(&w, moved);
}

TEST_F(Mugging, TheMuggedWorkerReturnsWithoutLookingAtTheParentAgain) {
  ASSERT_TRUE(w.request_mug(1));
  ASSERT_TRUE(poll(&w, running));
  // The mugger may complete the child, then the parent, and reuse its memory
  // for a new latent frame before this worker's stack unwinds to it.
  parent->visibility = Visibility::latent;
  EXPECT_FALSE(pooled_still_ours(&w, parent));
  w.escaping = false;
}

TEST_F(Mugging, OnlyOneThiefAtATimeMayAsk) {
  EXPECT_TRUE(w.request_mug(1));
  EXPECT_FALSE(w.request_mug(2));
  EXPECT_EQ(w.take_mug_request(), 1);
  EXPECT_TRUE(w.request_mug(2));
}

TEST_F(Mugging, ALatentOlderFrameIsExposedInsteadOfGivingUpTheRunningOne) {
  parent->visibility = Visibility::latent;
  ASSERT_TRUE(w.request_mug(1));
  EXPECT_FALSE(poll(&w, running));
  EXPECT_FALSE(w.escaping);
  EXPECT_FALSE(w.has_handoff());
  EXPECT_EQ(parent->visibility, Visibility::exposed);
  EXPECT_EQ(running->visibility, Visibility::latent);  // never exposed: no child runs
  EXPECT_EQ(w.deque().steal(), parent);
}

TEST_F(Mugging, AFrameStillOnTheDequeIsStolenRatherThanMugged) {
  w.push(parent);  // exposed, not yet stolen
  ASSERT_TRUE(w.request_mug(1));
  EXPECT_FALSE(poll(&w, running));
  EXPECT_FALSE(w.has_handoff());
  EXPECT_EQ(w.deque().steal(), parent);
}

TEST_F(Mugging, AHeapFrameIsHandedOverInPlace) {
  Frame *heap = new_frame<Frame>(&w, parent, nullptr, &heap_info);
  heap->entry = 3;
  ASSERT_TRUE(w.request_mug(1));
  EXPECT_TRUE(poll(&w, heap));
  w.escaping = false;
  EXPECT_EQ(w.take_handoff(), heap);
  EXPECT_EQ(heap->visibility, Visibility::eager);
  free_frame_generic(&w, heap);
}

TEST_F(Mugging, AResumedFrameIsHandedOverWithoutWritingItsVisibility) {
  // A stolen frame resumed here is still `exposed`; thieves taking its
  // outstanding children read that field meanwhile, so it is left alone.
  Frame *resumed = new_frame<Frame>(&w, parent, nullptr, &heap_info);
  resumed->visibility = Visibility::exposed;
  ASSERT_TRUE(w.request_mug(1));
  EXPECT_TRUE(poll(&w, resumed));
  w.escaping = false;
  EXPECT_EQ(w.take_handoff(), resumed);
  EXPECT_EQ(resumed->visibility, Visibility::exposed);
  free_frame_generic(&w, resumed);
}

TEST_F(Mugging, ASecondMugWaitsUntilTheFirstFrameWasTaken) {
  ASSERT_TRUE(w.request_mug(1));
  ASSERT_TRUE(poll(&w, running));
  w.escaping = false;
  StackFrame<Frame> other_storage;
  Frame *other = init_stack_frame(other_storage, parent, nullptr, &stack_info);
  ASSERT_TRUE(w.request_mug(1));
  EXPECT_FALSE(poll(&w, other));
  EXPECT_FALSE(w.escaping);
}

TEST(SpeedEstimator, ShareOfCpuTimesCoreFactorSmoothed) {
  SpeedEstimator e;
  e.set_core_factor(0.5);
  e.restart(0, 0);
  EXPECT_FALSE(e.sample(1'000'000, 1'000'000));  // window too short
  EXPECT_TRUE(e.sample(20'000'000, 10'000'000));  // half the CPU, half-speed core
  EXPECT_DOUBLE_EQ(e.estimate(), 0.25);
  EXPECT_TRUE(e.sample(220'000'000, 210'000'000));  // a long stretch at full share
  EXPECT_NEAR(e.estimate(), 0.5, 1e-4);
  const SpeedSummary s = e.summary();
  EXPECT_TRUE(s.sampled);
  EXPECT_DOUBLE_EQ(s.min, 0.25);
  EXPECT_DOUBLE_EQ(s.max, 0.5);
  EXPECT_NEAR(s.avg, (0.25 * 20 + 0.5 * 200) / 220, 1e-9);
}

TEST(SpeedEstimator, TimeAsleepDoesNotCount) {
  SpeedEstimator e;
  e.restart(0, 0);
  e.stop(10'000'000, 10'000'000);
  e.restart(1'000'000'000, 10'000'000);  // slept for a second
  EXPECT_TRUE(e.sample(1'020'000'000, 30'000'000));
  EXPECT_DOUBLE_EQ(e.summary().min, 1.0);
}

TEST(SpeedEstimator, ShortRootCallsKeepOneWindowWithoutReadingCpuTime) {
  SpeedEstimator e;
  e.restart(0, 0);
  // Root calls of 10 us, 10 us apart: a stop pauses, a start resumes.
  for (std::uint64_t t = 10'000; t < 900'000; t += 20'000) {
    ASSERT_TRUE(e.pause(t));
    ASSERT_TRUE(e.resume(t + 10'000));
  }
  // Past a tenth of a window, a stop samples the whole stretch.
  EXPECT_FALSE(e.pause(1'010'000));
  e.stop(1'010'000, 505'000);
  EXPECT_DOUBLE_EQ(e.summary().min, 0.5);
  // The next start restarts: no window is open to go on with.
  EXPECT_FALSE(e.resume(1'020'000));
}

TEST(SpeedEstimator, ALongGapAfterAPauseRestarts) {
  SpeedEstimator e;
  e.restart(0, 0);
  ASSERT_TRUE(e.pause(10'000));
  EXPECT_FALSE(e.resume(10'000 + SpeedEstimator::kShortPauseNs + 1));  // the caller slept, say
  e.restart(500'000, 10'000);
  EXPECT_TRUE(e.sample(20'500'000, 20'010'000));
  EXPECT_DOUBLE_EQ(e.summary().min, 1.0);
}

}  // namespace

namespace {

using namespace cilkpp::rt;

TEST(ThrottleSchedule, AFixedSpeedStaysPut) {
  SpeedSchedule fixed;
  fixed.fraction = 0.25;
  Throttle t(fixed, 0);
  EXPECT_TRUE(t.needed());
  EXPECT_EQ(t.fraction_at(0), 0.25);
  EXPECT_EQ(t.fraction_at(1'000'000'000), 0.25);
  EXPECT_FALSE(Throttle(SpeedSchedule{}, 0).needed());
}

TEST(ThrottleSchedule, ARunningPartIsNeverShorterThanTheMinimum) {
  // The usual period down to 0.05, then longer: at 0.001 a 5 us running part
  // was shorter than a wake-up.
  EXPECT_EQ(Throttle::period_for(1.0), Throttle::kPeriodNs);
  EXPECT_EQ(Throttle::period_for(0.25), Throttle::kPeriodNs);
  EXPECT_EQ(Throttle::period_for(0.05), Throttle::kPeriodNs);
  for (const double f : {0.04, 0.01, 0.005, 0.001}) {
    EXPECT_GT(Throttle::period_for(f), Throttle::kPeriodNs) << f;
    EXPECT_NEAR(f * static_cast<double>(Throttle::period_for(f)), static_cast<double>(Throttle::kMinRunNs), 1.0) << f;
  }
}

TEST(ThrottleSchedule, AlternatingRenewalHalvesTimeBetweenFullSpeedAndTheSlowRange) {
  SpeedSchedule alt;
  alt.mean_ms = 50;
  alt.low = 0.1;
  alt.high = 0.5;
  Throttle t(alt, 3);
  // 2000 simulated seconds in 1 ms steps: about 40000 phases of mean 50 ms.
  long full = 0, slow = 0, changes = 0;
  double previous = -1, slow_sum = 0;
  for (std::int64_t ms = 0; ms < 2'000'000; ++ms) {
    const double f = t.fraction_at(ms * 1'000'000);
    if (f == 1.0) {
      ++full;
    } else {
      ASSERT_GE(f, 0.1);
      ASSERT_LE(f, 0.5);
      ++slow;
      slow_sum += f;
    }
    changes += f != previous;
    previous = f;
  }
  EXPECT_NEAR(static_cast<double>(full) / (full + slow), 0.5, 0.03);
  EXPECT_NEAR(slow_sum / slow, 0.3, 0.02);                      // uniform in [0.1, 0.5]
  EXPECT_NEAR(2'000'000.0 / static_cast<double>(changes), 50, 5);  // mean phase length
}

}  // namespace
