// Speed sampling and emulation per worker; see hetero.h.
#include "hetero.h"

#include <algorithm>

#include "runtime.h"

namespace cilkpp::rt {
namespace {

constexpr double kSameCore = 1.5;

void publish(Worker &w, const SpeedEstimator &estimator) noexcept {
  w.publish_speed(static_cast<float>(estimator.estimate()));
}

// The thread's CPU time, less what the emulation itself spent.
std::uint64_t useful_cpu_ns(Worker &w) noexcept {
  return thread_cpu_clock_ns() - w.runtime().throttle(w.index()).overhead_cpu_ns();
}

}  // namespace

void start_running(Worker &w, bool root_call) noexcept {
  Runtime &rt = w.runtime();
  SpeedEstimator &estimator = rt.speed(w.index());
  if (w.index() != 0 && !estimator.has_core_factor() && rt.reference_core_ns() != 0) {
    const double factor = static_cast<double>(rt.reference_core_ns()) / static_cast<double>(probe_core_ns());
    // The probe of two equal cores differs by up to 40% on our VMs (a busy
    // hyperthread sibling, the hypervisor): only a larger difference is a
    // different kind of core (big.LITTLE cores differ 2-3x).
    estimator.set_core_factor(factor > 1.0 / kSameCore && factor < kSameCore ? 1.0 : std::clamp(factor, 0.01, 100.0));
  }
  if (const std::uint64_t now = wall_clock_ns(); !(root_call && estimator.resume(now))) estimator.restart(now, useful_cpu_ns(w));
  rt.throttle(w.index()).start(w);
}

void stop_running(Worker &w, bool root_call) noexcept {
  Runtime &rt = w.runtime();
  rt.throttle(w.index()).stop();
  SpeedEstimator &estimator = rt.speed(w.index());
  const std::uint64_t now = wall_clock_ns();
  if (root_call && estimator.pause(now)) return;
  estimator.stop(now, useful_cpu_ns(w));
  publish(w, estimator);
}

void sample_speed(Worker &w) noexcept {
  SpeedEstimator &estimator = w.runtime().speed(w.index());
  const std::uint64_t now = wall_clock_ns();
  if (!estimator.due(now)) return;
  if (estimator.sample(now, useful_cpu_ns(w))) publish(w, estimator);
}

}  // namespace cilkpp::rt
