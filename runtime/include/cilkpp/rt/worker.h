// A worker: one thread's deque, frame pool and bookkeeping.
//
// Only the fields the generated fast path touches are public; they all sit in
// lines the owner alone writes. What thieves touch lives inside the deque, on
// its own cache line.
#pragma once

#include <cstdint>

#include "cilkpp/rt/deque.h"
#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/frame_pool.h"

namespace cilkpp::rt {

class Runtime;

struct WorkerStats {
  std::uint64_t spawns = 0;     // only where counted (abi.h, count_spawn)
  std::uint64_t exposures = 0;  // latent frames put on the deque for thieves
  std::uint64_t steals = 0;
  std::uint64_t failed_steals = 0;
  std::uint64_t moves = 0;  // off a CPU another worker was on (placement.h)
  std::uint64_t muggings = 0;  // frames this worker took from a slower one
  std::uint64_t mugged = 0;    // frames this worker gave up at a poll point
  std::uint64_t ns_working = 0;
  std::uint64_t ns_stealing = 0;
  std::uint64_t ns_idle = 0;
  // The worker's measured speed (speed.h), over the samples it took.
  bool speed_measured = false;
  double speed_min = 0, speed_avg = 0, speed_max = 0;
};

class alignas(64) Worker {
  // First member: the fast path's cold calls into the deque then take the
  // worker's own address, which saves the fast clone a register.
  TheDeque<Frame> deque_;

 public:
  Worker(Runtime &runtime, unsigned index);
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  // --- fast path (called from generated code) ---
  void push(Frame *f) noexcept { deque_.push(f); }
  bool pop() noexcept { return deque_.pop(); }
  FramePool &pool() noexcept { return pool_; }

  // True while this worker unwinds the C stack of frames whose continuations
  // were stolen. Set by the first failed pop, cleared by the scheduler loop.
  bool escaping = false;

  // Spawns made on this worker, counted only by code built with
  // `cilkpp -fcilkpp-count-spawns` (abi.h, count_spawn): an increment per
  // spawn costs fib about 12% (docs/runtime.md).
  std::uint64_t spawns = 0;

  // What other workers (and the runtime's ticker) ask of this worker; the
  // owner answers at its next spawn or poll point (exposure.h, poll.h). One
  // byte, so that the fast path tests every request with a single load.
  enum Request : std::uint8_t {
    kExpose = 1,  // a thief found the deque empty: expose the oldest latent frame
    kMug = 2,     // a faster thief wants the running frame (mug_request names it)
    kTick = 4,    // time to update the speed estimate (speed.h)
  };
  bool attention() const noexcept { return attention_.load(std::memory_order_relaxed) != 0; }
  bool requested(Request r) const noexcept { return attention_.load(std::memory_order_relaxed) & r; }
  // Owner side: takes every pending request at once.
  std::uint8_t take_requests() noexcept {
    return attention_.load(std::memory_order_relaxed) ? attention_.exchange(0, std::memory_order_acquire) : 0;
  }
  // Reads first, so that thieves spinning on a busy victim do not keep taking
  // the flag's cache line away from it.
  void request(Request r) noexcept {
    if (!(attention_.load(std::memory_order_relaxed) & r)) attention_.fetch_or(r, std::memory_order_release);
  }
  bool exposure_requested() const noexcept { return requested(kExpose); }
  void request_exposure() noexcept { request(kExpose); }

  // --- mugging (poll.h) ---
  // Thief side: asks for the running frame; false if another thief asked first.
  bool request_mug(unsigned thief) noexcept {
    int none = -1;
    if (mugger_.load(std::memory_order_relaxed) != -1 ||
        !mugger_.compare_exchange_strong(none, static_cast<int>(thief), std::memory_order_relaxed))
      return false;
    request(kMug);
    return true;
  }
  // Owner side: the pending mug request's thief, or -1; clears it.
  int take_mug_request() noexcept {
    return mugger_.load(std::memory_order_relaxed) == -1 ? -1 : mugger_.exchange(-1, std::memory_order_relaxed);
  }
  // A frame the owner gave up at a poll point, for whoever comes first.
  bool has_handoff() const noexcept { return handoff_.load(std::memory_order_relaxed) != nullptr; }
  void hand_off(Frame *f) noexcept { handoff_.store(f, std::memory_order_release); }
  Frame *take_handoff() noexcept {
    return handoff_.load(std::memory_order_relaxed) ? handoff_.exchange(nullptr, std::memory_order_acquire) : nullptr;
  }
  // The owner's current speed estimate (speed.h); thieves read it when they
  // consider a mugging.
  float speed() const noexcept { return speed_.load(std::memory_order_relaxed); }
  void publish_speed(float s) noexcept { speed_.store(s, std::memory_order_relaxed); }

  // --- runtime internals ---
  unsigned index() const noexcept { return index_; }
  Runtime &runtime() noexcept { return runtime_; }
  TheDeque<Frame> &deque() noexcept { return deque_; }
  WorkerStats &stats() noexcept { return stats_; }

  // Queues a frame whose last outstanding child just completed here.
  void make_ready(Frame *f) noexcept {
    f->next_ready = ready_;
    ready_ = f;
  }
  Frame *take_ready() noexcept {
    Frame *f = ready_;
    if (f) ready_ = f->next_ready;
    return f;
  }

  // Runs frames (ready ones first, then stolen ones) until count reads
  // target.
  void schedule_until(const std::atomic<std::int32_t> &count, std::int32_t target = 0) noexcept;
  // Waits until count reads target without running other frames, answering
  // requests as a poll point in `running` would.
  void wait_without_work(const std::atomic<std::int32_t> &count, std::int32_t target, Frame *running) noexcept;
  // Worker-thread body: runs while root calls are active, sleeps otherwise.
  void thread_main() noexcept;

  // The worker bound to the calling thread, or nullptr.
  static Worker *current() noexcept { return tls_current_; }
  static void bind(Worker *w) noexcept { tls_current_ = w; }

 private:
  void execute(Frame *f) noexcept;
  Frame *try_steal() noexcept;
  std::uint64_t next_random() noexcept;

  FramePool pool_;
  Frame *ready_ = nullptr;
  WorkerStats stats_;
  Runtime &runtime_;
  const unsigned index_;
  std::uint64_t rng_state_;

  // Defined here with its constant initializer, so that code including this
  // header reads it directly: declared only, g++ reached it through a TLS
  // wrapper function, which its UndefinedBehaviorSanitizer reported as a
  // load through a null pointer. Visible by default, so that a shared
  // library built with -fvisibility=hidden shares the process's copy: its
  // own, never set, made every nested root call in it look like one from a
  // thread outside the runtime (run serially). Initial-exec: code in a
  // shared library (built with -fPIC) reads it without calling
  // __tls_get_addr, as an executable's does.
  [[gnu::visibility("default"), gnu::tls_model("initial-exec")]] static inline thread_local Worker *tls_current_ =
      nullptr;

  // Its own line: thieves write it, the owner only reads it on its fast path.
  alignas(64) std::atomic<std::uint8_t> attention_{0};
  std::atomic<int> mugger_{-1};
  std::atomic<Frame *> handoff_{nullptr};
  std::atomic<float> speed_{1.0f};
};

}  // namespace cilkpp::rt
