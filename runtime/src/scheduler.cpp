// The scheduling loop: run ready frames, otherwise steal.
//
// Work-first: a worker runs its own spawned children at once and only looks
// for work when its deque is empty (its current frame completed, suspended at
// a sync, or had its continuation stolen). Frames made ready here (whose last
// child completed here) run before any steal: they are local and warm.
#include <cstdio>
#include <thread>

#include <pthread.h>

#include "cilkpp/rt/calls.h"
#include "cilkpp/rt/exposure.h"
#include "cilkpp/rt/worker.h"
#include "hetero.h"
#include "runtime.h"
#include "stack_guard.h"
#include "stats.h"

namespace cilkpp::rt {

namespace {

// splitmix64: spreads consecutive worker indices into unrelated, non-zero
// xorshift seeds.
std::uint64_t seed_for(unsigned index) noexcept {
  std::uint64_t z = 0x9e3779b97f4a7c15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return z ? z : 0x2545f4914f6cdd1dull;
}

// Consecutive failed steals: first retry at once (work often appears within
// a few hundred cycles), then pause the core between attempts, and only after
// a long dry spell give the CPU away. Yielding early is costly: on a machine
// with a core per worker, a yielding thief can lose its core for a whole time
// slice to a busy thread the scheduler put beside it, and then misses the
// work a victim exposes for it (measured: nqueens(11) on 2 workers went from
// 14 ms to under 1 ms until the first steal). With more workers than cores
// the thieves do run on the victims' cores, so there they yield much sooner.
class Backoff {
 public:
  Backoff(bool oversubscribed, SpeedEstimator &speed) noexcept
      : yield_after_(oversubscribed ? 256 : 8192), speed_(speed) {}
  void reset() noexcept { failures_ = 0; }
  unsigned failures() const noexcept { return failures_; }
  void wait() noexcept {
    ++failures_;
    if (failures_ < kRetryAtOnce) return;
    if (failures_ < yield_after_) {
      for (int i = 0; i < 32; ++i) cpu_relax();
      return;
    }
    // The time the CPU is away is the worker's choice, not slowness.
    const std::uint64_t start = wall_clock_ns();
    std::this_thread::yield();
    speed_.exclude(wall_clock_ns() - start);
  }

 private:
  static constexpr unsigned kRetryAtOnce = 16;
  const unsigned yield_after_;
  SpeedEstimator &speed_;
  unsigned failures_ = 0;
};

// Failed steals between two looks at where this thief runs (placement.h);
// a look costs about as much as a failed steal.
constexpr unsigned kPlacementCheckInterval = 64;

// Failed steals after which a worker takes back the frame it gave up to a
// mugger that has not come for it (it found other work meanwhile).
constexpr unsigned kReclaimHandoffAfter = 256;

}  // namespace

Worker::Worker(Runtime &runtime, unsigned index)
    : runtime_(runtime), index_(index), rng_state_(seed_for(index)) {}

std::uint64_t Worker::next_random() noexcept {
  // xorshift64*
  std::uint64_t x = rng_state_;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state_ = x;
  return x * 0x2545f4914f6cdd1dull;
}

void Worker::execute(Frame *f) noexcept {
  f->info->resume(this, f);
  // The resume path returns early when its frame suspended or had its
  // continuation stolen; the latter leaves escaping set.
  escaping = false;
}

Frame *Worker::try_steal() noexcept {
  const unsigned n = runtime_.num_workers();
  if (n < 2) return nullptr;
  // Uniform among the other n - 1 workers (multiply-shift, no division).
  unsigned victim = static_cast<unsigned>(((next_random() >> 32) * (n - 1)) >> 32);
  if (victim >= index_) ++victim;
  Worker &target = runtime_.worker(victim);
  // A frame the victim gave up at a poll point (mugging.cpp): its
  // continuation, ready to resume.
  if (Frame *mugged = target.take_handoff()) {
    ++stats_.muggings;
    runtime_.trace(index_).record(TraceEvent::mug, static_cast<int>(victim));
    return mugged;
  }
  Frame *resumable = nullptr;
  Frame *f = target.deque().steal([&](Frame *stolen) {
    // Under the victim's deque lock: the victim's failed pop (which takes
    // the lock) sees the child it is running counted as outstanding, and a
    // promoted frame's copy, before it hands the count back in child_done.
    promote_callers(this, stolen);
    if (const FrameInfo *heap_info = stolen->info->promote_to) {
      resumable = promote(stolen, pool_.allocate(size_class_of(heap_info->size)));
    } else {
      follow_promoted_parent(stolen);
      stolen->join.fetch_add(1, std::memory_order_relaxed);
      resumable = stolen;
    }
  });
  if (f) {
    ++stats_.steals;
    runtime_.trace(index_).record(TraceEvent::steal, static_cast<int>(victim));
  } else {
    ++stats_.failed_steals;
    // Enhanced Cilk Scheduler: a victim more than beta times slower is asked
    // for its running frame; it answers at its next poll point, with the
    // frame if it has nothing else to steal, else by exposing an older one.
    // Otherwise its continuations may be latent: ask it to expose one.
    const Config &config = runtime_.config();
    if (!(config.policy == Policy::ecs && speed() > config.beta * target.speed() && target.request_mug(index_)))
      target.request_exposure();
  }
  return f ? resumable : nullptr;
}

void Worker::schedule_until(const std::atomic<std::int32_t> &count, std::int32_t target) noexcept {
  // The caller has put the clock on stealing.
  ActivityClock &clock = runtime_.clock(index_);
  const bool oversubscribed = runtime_.oversubscribed();
  Backoff backoff(oversubscribed, runtime_.speed(index_));
  while (count.load(std::memory_order_acquire) != target) {
    // Requests made while this worker is between frames find no frame to
    // expose or give up; a mug request left standing would block others.
    if (take_requests() & kMug) take_mug_request();
    Frame *f = take_ready();
    if (f) {
      // Its count dropped to 0 when the last child completed; we now hold
      // its continuation.
      f->join.store(1, std::memory_order_relaxed);
    } else if (backoff.failures() >= kReclaimHandoffAfter && (f = take_handoff())) {
      // Nobody came for the frame this worker gave up: run it again.
    } else if (!(f = try_steal())) {
      // A thief beside a working victim starves it: look at the first
      // failure of a dry spell and now and then during it.
      if (backoff.failures() % kPlacementCheckInterval == 0) {
        if (!oversubscribed && runtime_.placement().separate(index_)) ++stats_.moves;
        sample_speed(*this);
      }
      backoff.wait();
      continue;
    }
    backoff.reset();
    clock.enter(Activity::working, stats_);
    execute(f);
    while ((f = take_ready())) {
      f->join.store(1, std::memory_order_relaxed);
      execute(f);
    }
    clock.enter(Activity::stealing, stats_);
  }
}

void Worker::wait_without_work(const std::atomic<std::int32_t> &count, std::int32_t target, Frame *running) noexcept {
  Backoff backoff(runtime_.oversubscribed(), runtime_.speed(index_));
  while (count.load(std::memory_order_acquire) != target) {
    poll_exposure(this, running);
    backoff.wait();
  }
}

void Worker::thread_main() noexcept {
  bind(this);
  guard_this_thread();
  // Named, so that tools (top -H, taskset -p, bench/hetero/hog.sh) find it.
  char name[16];
  std::snprintf(name, sizeof name, "cilkpp-w%u", index_);
  pthread_setname_np(pthread_self(), name);
  ActivityClock &clock = runtime_.clock(index_);
  for (;;) {
    clock.enter(Activity::idle, stats_);
    if (!runtime_.wait_for_root()) break;
    clock.enter(Activity::stealing, stats_);
    start_running(*this);
    schedule_until(runtime_.root_active());
    stop_running(*this);
  }
  clock.enter(Activity::none, stats_);
  bind(nullptr);
}

}  // namespace cilkpp::rt
