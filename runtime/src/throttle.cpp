// Duty-cycle throttling; see throttle.h.
#include "throttle.h"

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <mutex>

#include <sys/prctl.h>
#include <unistd.h>

#include "cilkpp/rt/worker.h"
#include "speed.h"

namespace cilkpp::rt {
namespace {

int throttle_signal() noexcept { return SIGRTMIN + 7; }

std::int64_t monotonic_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

timespec to_timespec(std::int64_t ns) noexcept {
  return {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

}  // namespace

Throttle::Throttle(const SpeedSchedule &schedule, unsigned seed) noexcept
    : schedule_(schedule), rng_(0x9e3779b97f4a7c15ull * (seed + 1) | 1) {}

Throttle::~Throttle() {
  if (has_timer_) timer_delete(timer_);
}

double Throttle::uniform() noexcept {
  rng_ ^= rng_ >> 12;
  rng_ ^= rng_ << 25;
  rng_ ^= rng_ >> 27;
  return static_cast<double>((rng_ * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53;
}

double Throttle::fraction_at(std::int64_t now_ns) noexcept {
  if (!schedule_.alternating()) return schedule_.fraction;
  while (now_ns >= phase_end_ns_) {
    if (phase_end_ns_ == 0) phase_end_ns_ = now_ns;
    slow_phase_ = !slow_phase_;
    phase_fraction_ = slow_phase_ ? schedule_.low + (schedule_.high - schedule_.low) * uniform() : 1.0;
    const double length_ms = -schedule_.mean_ms * std::log1p(-uniform());  // exponential
    phase_end_ns_ += static_cast<std::int64_t>(length_ms * 1e6) + 1;
  }
  return phase_fraction_;
}

void Throttle::on_signal(int, siginfo_t *info, void *) noexcept {
  const int saved_errno = errno;
  const std::uint64_t cpu_at_entry = thread_cpu_clock_ns();
  auto *self = static_cast<Throttle *>(info->si_value.sival_ptr);
  if (!self->running_.load(std::memory_order_relaxed)) {
    errno = saved_errno;
    return;
  }
  const std::int64_t now = monotonic_ns();
  const double f = self->fraction_at(now);
  const std::int64_t period = self->period_of(f);
  // Where the next running part begins: times are absolute, reckoned from
  // the scheduled ends of running parts, so oversleeping does not pile up.
  std::int64_t resume = now;
  if (f < 1.0) {
    std::int64_t wake = self->next_fire_ns_ + static_cast<std::int64_t>((1.0 - f) * period) + self->debt_ns_;
    // (A slow phase of an alternating schedule ends the sleep with it: a
    // long period overshot the phase many times over.)
    if (self->schedule_.alternating() && self->phase_end_ns_ > now) wake = std::min(wake, self->phase_end_ns_);
    self->debt_ns_ = 0;
    resume = wake;
    // A truly slower core would reach its next poll point within
    // microseconds of a mug request, not at the end of a long sleep: look
    // for one every kRequestCheckNs, answer it at once, and sleep the rest
    // in the next period.
    for (std::int64_t t = now; t < wake; t = monotonic_ns()) {
      if (self->worker_ && self->worker_->requested(Worker::kMug)) {
        self->debt_ns_ = std::min(wake - t, period);
        resume = t;
        break;
      }
      const timespec until = to_timespec(std::min(wake, t + kRequestCheckNs));
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr);
    }
  }
  self->next_fire_ns_ = resume + static_cast<std::int64_t>(f * period);
  itimerspec next{};
  next.it_value = to_timespec(self->next_fire_ns_);
  timer_settime(self->timer_, TIMER_ABSTIME, &next, nullptr);
  if (self->worker_) self->worker_->request(Worker::kTick);
  self->overhead_cpu_ns_.fetch_add(thread_cpu_clock_ns() - cpu_at_entry, std::memory_order_relaxed);
  errno = saved_errno;
}

void Throttle::start(Worker &w) noexcept {
  if (!needed()) return;
  worker_ = &w;
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction sa {};
    sa.sa_sigaction = &Throttle::on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(throttle_signal(), &sa, nullptr);
  });
  // Worker 0 is whichever thread makes the root call: a timer made for an
  // earlier caller would throttle (and signal) that thread instead.
  const pid_t tid = static_cast<pid_t>(gettid());
  if (has_timer_ && timer_thread_ != tid) {
    timer_delete(timer_);
    has_timer_ = false;
  }
  if (!has_timer_) {
    sigevent sev{};
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = throttle_signal();
    sev.sigev_value.sival_ptr = this;
    sev._sigev_un._tid = tid;
    if (timer_create(CLOCK_MONOTONIC, &sev, &timer_) != 0) return;
    has_timer_ = true;
    timer_thread_ = tid;
  }
  // Sleeping to the microsecond, not the default 50 us timer slack.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  // Each period starts with the running part, so a worker that has just
  // started answers requests at once, as a slower core would; the timer
  // fires when the running part ends, and the handler sets it again.
  const std::int64_t start = monotonic_ns();
  const double f = fraction_at(start);
  next_fire_ns_ = start + static_cast<std::int64_t>(f * period_of(f));
  running_.store(true, std::memory_order_relaxed);
  itimerspec spec{};
  spec.it_value = to_timespec(next_fire_ns_);
  timer_settime(timer_, TIMER_ABSTIME, &spec, nullptr);
}

void Throttle::stop() noexcept {
  if (!has_timer_) return;
  running_.store(false, std::memory_order_relaxed);
  itimerspec off{};
  timer_settime(timer_, 0, &off, nullptr);
}

}  // namespace cilkpp::rt
