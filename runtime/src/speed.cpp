// Speed estimation; see speed.h.
#include "speed.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <time.h>

namespace cilkpp::rt {

std::uint64_t wall_clock_ns() noexcept {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

std::uint64_t thread_cpu_clock_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t probe_core_ns() noexcept {
  // About 20 us of dependent multiplies: long enough to time, short enough
  // that an interrupt rarely lands in all three tries.
  std::uint64_t best = ~std::uint64_t{0};
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::uint64_t start = thread_cpu_clock_ns();
    std::uint64_t x = 0x9e3779b97f4a7c15ull + attempt;
    for (int i = 0; i < 8192; ++i) {
      x ^= x >> 29;
      x *= 0xbf58476d1ce4e5b9ull;
      asm volatile("" : "+r"(x));
    }
    best = std::min(best, thread_cpu_clock_ns() - start);
  }
  return best ? best : 1;
}

void SpeedEstimator::restart(std::uint64_t wall_ns, std::uint64_t cpu_ns) noexcept {
  window_wall_ = wall_ns;
  window_cpu_ = cpu_ns;
  running_ = true;
  paused_ = false;
}

bool SpeedEstimator::pause(std::uint64_t wall_ns) noexcept {
  // (A forced sample takes a tenth of a window.)
  if (!running_ || wall_ns >= window_wall_ + kWindowNs / 10) return false;
  running_ = false;
  paused_ = true;
  paused_at_ = wall_ns;
  return true;
}

bool SpeedEstimator::resume(std::uint64_t wall_ns) noexcept {
  if (!paused_) return false;
  paused_ = false;
  if (wall_ns > paused_at_ + kShortPauseNs) return false;
  running_ = true;
  return true;
}

void SpeedEstimator::stop(std::uint64_t wall_ns, std::uint64_t cpu_ns) noexcept {
  sample(wall_ns, cpu_ns, true);
  running_ = false;
}

bool SpeedEstimator::sample(std::uint64_t wall_ns, std::uint64_t cpu_ns, bool force) noexcept {
  if (!running_ || wall_ns <= window_wall_) return false;
  const std::uint64_t wall = wall_ns - window_wall_;
  if (wall < (force ? kWindowNs / 10 : kWindowNs)) return false;
  const double share = std::min(1.0, static_cast<double>(cpu_ns - window_cpu_) / static_cast<double>(wall));
  const double speed = share * core_factor_;
  window_wall_ = wall_ns;
  window_cpu_ = cpu_ns;
  // Exponential smoothing over about 10 ms, whatever the sample's length.
  const double keep = std::exp(-static_cast<double>(wall) / 1e7);
  estimate_ = weight_ == 0 ? speed : keep * estimate_ + (1 - keep) * speed;
  min_ = weight_ == 0 ? speed : std::min(min_, speed);
  max_ = weight_ == 0 ? speed : std::max(max_, speed);
  weighted_sum_ += speed * static_cast<double>(wall);
  weight_ += static_cast<double>(wall);
  return true;
}

SpeedSummary SpeedEstimator::summary() const noexcept {
  if (weight_ == 0) return {};
  return {min_, weighted_sum_ / weight_, max_, true};
}

}  // namespace cilkpp::rt
