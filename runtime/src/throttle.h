// Emulated slow workers (CILKPP_SPEEDS): duty-cycle throttling of a thread.
//
// At the end of each running part a per-thread POSIX timer sends the thread
// a signal whose handler sleeps for the part of the period the thread may
// not run, so the thread runs a fraction f of each period (kPeriodNs, or
// longer where f is so small that the running part would be shorter than
// kMinRunNs: a few microseconds of running were less than a wake-up takes,
// and a worker at speed 0.001 barely ran at all): its work, its steal attempts and
// any leaf C++ code it runs all slow down by f, as on a slower core. The
// handler also asks the worker to sample its speed (speed.h) at its next
// spawn or poll point. A mug request cuts the sleep short (a slower core
// would answer it within microseconds too); the sleep is made up later. Only threads given a speed below 1 get a timer; their
// blocking system calls may then return EINTR where SA_RESTART does not
// apply (docs/runtime.md).
#pragma once

#include <atomic>
#include <cstdint>

#include <csignal>
#include <ctime>

#include <sys/types.h>

#include "config.h"

namespace cilkpp::rt {

class Worker;

class Throttle {
 public:
  static constexpr std::int64_t kPeriodNs = 5'000'000;
  static constexpr std::int64_t kMinRunNs = 250'000;
  static constexpr std::int64_t kRequestCheckNs = 250'000;
  // The period of a thread running a fraction f of the time.
  static std::int64_t period_for(double f) noexcept {
    return f * kPeriodNs >= kMinRunNs ? kPeriodNs : static_cast<std::int64_t>(kMinRunNs / f);
  }
  // This thread's: an alternating schedule keeps kPeriodNs, since its slow
  // phases (of a few milliseconds) are shorter than the longer periods;
  // its full-speed phases keep it running.
  std::int64_t period_of(double f) const noexcept { return schedule_.alternating() ? kPeriodNs : period_for(f); }

  Throttle(const SpeedSchedule &schedule, unsigned seed) noexcept;
  ~Throttle();
  Throttle(const Throttle &) = delete;
  Throttle &operator=(const Throttle &) = delete;

  bool needed() const noexcept { return !schedule_.full_speed(); }
  // Starts throttling the calling thread (if needed); the handler requests
  // speed samples from w.
  void start(Worker &w) noexcept;
  void stop() noexcept;

  // CPU time the thread spent in the handler (waking up to look for mug
  // requests): emulation overhead a slower core would not have, which the
  // speed estimate leaves out.
  std::uint64_t overhead_cpu_ns() const noexcept { return overhead_cpu_ns_.load(std::memory_order_relaxed); }

  // The fraction the schedule gives at time now_ns (monotonic clock); moves
  // the alternating schedule's phases forward. Called by the handler.
  double fraction_at(std::int64_t now_ns) noexcept;

 private:
  static void on_signal(int, siginfo_t *info, void *) noexcept;
  double uniform() noexcept;  // in [0, 1)

  const SpeedSchedule schedule_;
  std::uint64_t rng_;
  bool slow_phase_ = false;
  double phase_fraction_ = 1.0;
  std::int64_t phase_end_ns_ = 0;
  std::int64_t next_fire_ns_ = 0;  // the timer's next expiration: the end of a running part
  // Between start() and stop(): a signal still pending at stop() neither
  // sleeps nor sets the timer again. (Only the thread itself writes and
  // reads it, its handler included.)
  std::atomic<bool> running_{false};
  std::int64_t debt_ns_ = 0;  // sleep cut short by a mug request, owed next period
  std::atomic<std::uint64_t> overhead_cpu_ns_{0};
  Worker *worker_ = nullptr;
  timer_t timer_{};
  pid_t timer_thread_ = 0;  // the thread the timer signals
  bool has_timer_ = false;
};

}  // namespace cilkpp::rt
