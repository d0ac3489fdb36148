// The work deque: Cilk-5's THE protocol.
//
// The owner pushes and pops at the tail without taking a lock; thieves take
// from the head under a per-deque lock. The owner's pop and a thief's steal
// form a Dekker pair (store own index, then read the other's). The owner's
// side uses a compiler-only barrier when the process has registered for
// expedited membarrier(2): the thief then issues the heavy barrier, which
// is rare (steals are rare in a work-first scheduler) while pops are on every
// spawn. Without membarrier both sides use a full fence.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cilkpp/rt/spinlock.h"

namespace cilkpp::rt {

namespace barrier {
// True once membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) is usable.
extern bool asymmetric;
// Registers for expedited membarrier unless disabled; safe to call repeatedly.
void init_asymmetric() noexcept;

inline void owner_side() noexcept {
  if (__builtin_expect(asymmetric, 1))
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
}
void thief_side() noexcept;
}  // namespace barrier

[[noreturn]] void deque_overflow(std::size_t capacity) noexcept;

template <class T>
class TheDeque {
 public:
  explicit TheDeque(unsigned capacity_log2 = 16)
      : mask_((std::int64_t{1} << capacity_log2) - 1),
        slots_(new T *[std::size_t{1} << capacity_log2]) {}

  TheDeque(const TheDeque &) = delete;
  TheDeque &operator=(const TheDeque &) = delete;

  // Owner only.
  void push(T *item) noexcept {
    std::int64_t t = tail_.load(std::memory_order_relaxed);
    if (__builtin_expect(t >= tail_limit_, 0)) refresh_tail_limit(t);
    slots_[t & mask_] = item;
    tail_.store(t + 1, std::memory_order_release);
  }

  // Owner only. Removes the most recently pushed item; false when a thief
  // took it first (the deque is then empty).
  bool pop() noexcept {
    std::int64_t t = tail_.load(std::memory_order_relaxed) - 1;
    // Release (free on x86): a thief that reads this value must also see the
    // items and frames pushed before it (C++20 release sequences no longer
    // carry the earlier push's release through this store).
    tail_.store(t, std::memory_order_release);
    barrier::owner_side();
    if (__builtin_expect(head_.load(std::memory_order_relaxed) <= t, 1)) return true;
    return pop_conflict();
  }

  // Thief side. Takes the oldest item; on_steal(item) runs under the lock, so
  // the owner's pop cannot observe the steal before on_steal has finished.
  template <class OnSteal>
  T *steal(OnSteal &&on_steal) noexcept {
    if (head_.load(std::memory_order_acquire) >= tail_.load(std::memory_order_acquire))
      return nullptr;  // looks empty: no lock, no barrier
    // Busy: another thief, or the owner resolving a conflict. Give up rather
    // than wait on this victim (the holder may be descheduled); the caller
    // tries another one.
    if (!lock_.try_lock()) return nullptr;
    std::int64_t h = head_.load(std::memory_order_relaxed);
    head_.store(h + 1, std::memory_order_relaxed);
    barrier::thief_side();
    if (h + 1 > tail_.load(std::memory_order_acquire)) {
      head_.store(h, std::memory_order_relaxed);
      lock_.unlock();
      return nullptr;
    }
    T *item = slots_[h & mask_];
    on_steal(item);
    lock_.unlock();
    return item;
  }

  T *steal() noexcept {
    return steal([](T *) {});
  }

  // Approximate; for statistics and idle checks.
  std::int64_t size() const noexcept {
    return tail_.load(std::memory_order_relaxed) - head_.load(std::memory_order_relaxed);
  }

 private:
  bool pop_conflict() noexcept {
    std::int64_t t = tail_.load(std::memory_order_relaxed);
    tail_.store(t + 1, std::memory_order_release);
    SpinLockGuard guard(lock_);
    // Thieves change head_ only under the lock, so it is stable here.
    tail_.store(t, std::memory_order_relaxed);
    if (head_.load(std::memory_order_relaxed) > t) {
      tail_.store(t + 1, std::memory_order_relaxed);
      return false;
    }
    return true;
  }

  // The owner's cached bound on tail: full unless a thief moved head since.
  void refresh_tail_limit(std::int64_t t) noexcept {
    tail_limit_ = head_.load(std::memory_order_acquire) + mask_ + 1;
    if (t >= tail_limit_) deque_overflow(static_cast<std::size_t>(mask_ + 1));
  }

  // Owner's line: tail, its cached bound, the slots.
  alignas(64) std::atomic<std::int64_t> tail_{0};
  const std::int64_t mask_;
  std::int64_t tail_limit_ = mask_ + 1;
  std::unique_ptr<T *[]> slots_;
  // Thieves' line.
  alignas(64) std::atomic<std::int64_t> head_{0};
  SpinLock lock_;
};

}  // namespace cilkpp::rt
