// A worker's estimate of its own speed.
//
// speed = (share of a CPU the worker's thread gets) x (how fast that CPU runs
// a fixed probe, relative to worker 0's). The share is the thread's CPU time
// over wall-clock time across a window of at least kWindowNs while the worker
// wants to run (working or stealing: both spin, never block), so it sees a
// duty-cycled worker (CILKPP_SPEEDS), a hog on the same core, and a
// hypervisor that gives the vCPU away. The probe factor sees slower cores;
// it is measured once per thread. Speed 1 is worker 0's core, all to itself.
//
// The owner samples at its cold paths (a thief's request, the emulation
// timer's tick, the steal loop, activity changes) and publishes a smoothed
// value that thieves read during a steal attempt; nobody keeps a table of
// other workers' speeds.
#pragma once

#include <cstdint>

namespace cilkpp::rt {

std::uint64_t wall_clock_ns() noexcept;        // steady clock
std::uint64_t thread_cpu_clock_ns() noexcept;  // CPU time of the calling thread

// Nanoseconds of thread CPU time for a fixed integer loop (best of a few).
std::uint64_t probe_core_ns() noexcept;

struct SpeedSummary {
  double min = 0, avg = 0, max = 0;  // avg: weighted by the samples' wall time
  bool sampled = false;
};

class SpeedEstimator {
 public:
  static constexpr std::uint64_t kWindowNs = 10'000'000;
  static constexpr std::uint64_t kShortPauseNs = 100'000;

  void set_core_factor(double factor) noexcept {
    core_factor_ = factor;
    has_core_factor_ = true;
  }
  bool has_core_factor() const noexcept { return has_core_factor_; }
  // Whether sample() would take a sample now.
  bool due(std::uint64_t wall_ns) const noexcept { return running_ && wall_ns >= window_wall_ + kWindowNs; }
  // The thread starts wanting to run (after sleeping, or a new root call):
  // time before this is not held against it.
  void restart(std::uint64_t wall_ns, std::uint64_t cpu_ns) noexcept;
  // Reading the thread's CPU time is a system call, which a program making
  // root calls in a loop would pay twice per call. So a stop before the
  // window could be sampled only pauses it (true; false: stop instead), and
  // a start soon after a pause goes on with the window (true; false:
  // restart instead). The pause, the caller's own code, counts as running.
  bool pause(std::uint64_t wall_ns) noexcept;
  bool resume(std::uint64_t wall_ns) noexcept;
  // The thread gave its CPU away for ns of wall time (a yield while it had
  // nothing to do): not held against its speed either.
  void exclude(std::uint64_t ns) noexcept {
    if (running_) window_wall_ += ns;
  }
  // The thread stops wanting to run (goes to sleep, leaves a root call).
  void stop(std::uint64_t wall_ns, std::uint64_t cpu_ns) noexcept;
  // Takes a sample if the window is long enough (or if forced, e.g. at the
  // end of an activity, when it is at least a tenth of that); true when the
  // estimate changed.
  bool sample(std::uint64_t wall_ns, std::uint64_t cpu_ns, bool force = false) noexcept;
  double estimate() const noexcept { return estimate_; }
  SpeedSummary summary() const noexcept;

 private:
  double core_factor_ = 1.0;
  bool has_core_factor_ = false;
  double estimate_ = 1.0;
  std::uint64_t window_wall_ = 0, window_cpu_ = 0;
  bool running_ = false;
  bool paused_ = false;
  std::uint64_t paused_at_ = 0;
  // Summary over all samples.
  double min_ = 0, max_ = 0, weighted_sum_ = 0, weight_ = 0;
};

}  // namespace cilkpp::rt
