// The work deque: Cilk-5's THE protocol.
//
// The owner pushes and pops at the tail without taking a lock; thieves take
// from the head under a per-deque lock. The owner's pop and a thief's steal
// form a Dekker pair (store own index, then read the other's), so both sides
// need a full fence. With lazy exposure (exposure.h) a fast clone pushes and
// pops only frames a thief asked for, so the owner's fence is rare too.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "cilkpp/rt/spinlock.h"

// ThreadSanitizer does not model fences, and GCC warns at each one under
// -fsanitize=thread; the thieves' lock orders what it must see.
#if defined(__SANITIZE_THREAD__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#define CILKPP_DEQUE_QUIET_TSAN
#endif

namespace cilkpp::rt {

// The deque is an array the owner pushes into from the start. Slots are
// addressed by pointer so that a push or pop is a load, a compare and two
// stores. When the tail reaches the end of the array the owner, under the
// thieves' lock, either moves the live items to the front or, if they fill
// more than half of it, moves them into an array twice as large. Thieves
// read slots only under the lock, so neither move can race with a steal.
template <class T>
class TheDeque {
 public:
  explicit TheDeque(unsigned capacity_log2 = 10) { reset_array(std::size_t{1} << capacity_log2); }
  TheDeque(const TheDeque &) = delete;
  TheDeque &operator=(const TheDeque &) = delete;

  // Owner only.
  void push(T *item) noexcept {
    T **t = tail_.load(std::memory_order_relaxed);
    if (__builtin_expect(t == end_, 0)) t = make_room();
    *t = item;
    tail_.store(t + 1, std::memory_order_release);
  }

  // Owner only. Removes the most recently pushed item; false when a thief
  // took it first (the deque is then empty).
  bool pop() noexcept {
    T **t = tail_.load(std::memory_order_relaxed) - 1;
    // Release (free on x86): a thief that reads this value must also see the
    // items and frames pushed before it (C++20 release sequences no longer
    // carry the earlier push's release through this store).
    tail_.store(t, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (__builtin_expect(head_.load(std::memory_order_relaxed) <= t, 1)) return true;
    return pop_conflict();
  }

  // Thief side. Takes the oldest item; on_steal(item) runs under the lock, so
  // the owner's pop cannot observe the steal before on_steal has finished.
  template <class OnSteal>
  T *steal(OnSteal &&on_steal) noexcept {
    if (looks_empty()) return nullptr;  // no lock, no barrier
    // Busy: another thief, or the owner resolving a conflict or moving the
    // items. Give up rather than wait on this victim (the holder may be
    // descheduled); the caller tries another one.
    if (!lock_.try_lock()) return nullptr;
    T **h = head_.load(std::memory_order_relaxed);
    head_.store(h + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (h + 1 > tail_.load(std::memory_order_acquire)) {
      head_.store(h, std::memory_order_relaxed);
      lock_.unlock();
      return nullptr;
    }
    T *item = *h;
    on_steal(item);
    lock_.unlock();
    return item;
  }
  T *steal() noexcept {
    return steal([](T *) {});
  }

  // Owner only. Exact (only the owner adds items), and taken under the
  // thieves' lock: a thief that has already claimed the last item may still
  // be working on it in on_steal, and the owner must not go on until it is
  // done (as a failed pop waits for it).
  bool empty_for_owner() const noexcept {
    SpinLockGuard guard(lock_);
    return head_.load(std::memory_order_relaxed) >= tail_.load(std::memory_order_relaxed);
  }

  // Approximate; for statistics and idle checks.
  std::int64_t size() const noexcept {
    SpinLockGuard guard(lock_);
    return tail_.load(std::memory_order_relaxed) - head_.load(std::memory_order_relaxed);
  }
  std::size_t capacity() const noexcept { return static_cast<std::size_t>(end_ - slots_.get()); }

 private:
  // Without the lock, head and tail may come from either side of a move of
  // the array, so they are compared as plain addresses: a wrong answer only
  // makes the thief skip this victim or take the lock for nothing.
  bool looks_empty() const noexcept {
    return reinterpret_cast<std::uintptr_t>(head_.load(std::memory_order_acquire)) >=
           reinterpret_cast<std::uintptr_t>(tail_.load(std::memory_order_acquire));
  }

  [[__gnu__::__noinline__, __gnu__::__cold__]] bool pop_conflict() noexcept {
    T **t = tail_.load(std::memory_order_relaxed);
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

  // The tail reached the end of the array: compact or grow. Returns the new
  // tail. Moving at most half an array per compaction keeps pushes O(1)
  // amortised.
  [[__gnu__::__noinline__, __gnu__::__cold__]] T **make_room() noexcept {
    SpinLockGuard guard(lock_);
    T **const h = head_.load(std::memory_order_relaxed);
    const std::size_t live = static_cast<std::size_t>(tail_.load(std::memory_order_relaxed) - h);
    const std::size_t cap = capacity();
    std::unique_ptr<T *[]> old;
    if (live > cap / 2) {
      old = std::move(slots_);
      slots_.reset(new T *[2 * cap]);
      end_ = slots_.get() + 2 * cap;
    }
    std::copy(h, h + live, slots_.get());
    head_.store(slots_.get(), std::memory_order_relaxed);
    tail_.store(slots_.get() + live, std::memory_order_relaxed);
    return slots_.get() + live;
  }

  void reset_array(std::size_t capacity) {
    slots_.reset(new T *[capacity]);
    end_ = slots_.get() + capacity;
    head_.store(slots_.get(), std::memory_order_relaxed);
    tail_.store(slots_.get(), std::memory_order_relaxed);
  }

  // Owner's line: tail, the end of the array, the array.
  alignas(64) std::atomic<T **> tail_;
  T **end_;
  std::unique_ptr<T *[]> slots_;
  // Thieves' line.
  alignas(64) std::atomic<T **> head_;
  mutable SpinLock lock_;
};

}  // namespace cilkpp::rt

#ifdef CILKPP_DEQUE_QUIET_TSAN
#pragma GCC diagnostic pop
#undef CILKPP_DEQUE_QUIET_TSAN
#endif
