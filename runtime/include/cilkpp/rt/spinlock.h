// A test-and-test-and-set lock for short critical sections (deque steals).
#pragma once

#include <sched.h>

#include <atomic>

namespace cilkpp::rt {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class SpinLock {
 public:
  // Spins, then yields: the holder may be descheduled (more workers than
  // cores), and spinning through its time slice would only delay it.
  void lock() noexcept {
    for (unsigned spins = 0;;) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < kSpinsBeforeYield)
          cpu_relax();
        else
          sched_yield();
      }
    }
  }
  bool try_lock() noexcept {
    return !locked_.load(std::memory_order_relaxed) &&
           !locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  static constexpr unsigned kSpinsBeforeYield = 1024;
  std::atomic<bool> locked_{false};
};

class SpinLockGuard {
 public:
  explicit SpinLockGuard(SpinLock &lock) noexcept : lock_(lock) { lock_.lock(); }
  ~SpinLockGuard() { lock_.unlock(); }
  SpinLockGuard(const SpinLockGuard &) = delete;
  SpinLockGuard &operator=(const SpinLockGuard &) = delete;

 private:
  SpinLock &lock_;
};

}  // namespace cilkpp::rt
