// Exceptions across spawns: a child's exception is rethrown in its parent at
// the parent's next sync. Only procedures that may throw use this (the
// compiler decides); the others never pay for it.
//
// Serial order decides between exceptions: children are numbered in the
// order their parent spawned them (the `seq` below), and when several
// children throw, the first in serial order wins and the others are
// destroyed. An exception of the continuation itself comes after every child
// still outstanding, so it has the largest number.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <type_traits>
#include <utility>

#include "cilkpp/rt/frame.h"

namespace cilkpp::rt {

class Worker;

// The position of the continuation's own exceptions in serial order.
inline constexpr std::uint32_t continuation_seq = UINT32_MAX;

struct PendingException {
  std::exception_ptr error;
  std::uint32_t seq;
  // The largest child number that threw (calls.h), continuation_seq aside.
  std::uint32_t latest_child;
};

// Keeps `error` in f unless f already holds one that comes first in serial
// order. Thread safe: children completing on different workers may race.
void record_exception(Frame *f, std::exception_ptr error, std::uint32_t seq);

// A spawned call threw on this worker. True: the parent's continuation was
// not stolen, so an exception goes on through the parent as in the serial
// program: rethrow_earliest. False: a thief runs the continuation; the
// exception was handed to it (rethrown at its next sync) and the caller
// returns at once, as after parent_stolen.
// On the resume path children spawned before this one may still run on
// other workers (the frame was stolen since its last sync), and one of them
// may throw too: true comes only once they have completed.
[[gnu::cold]] bool spawn_threw(Worker *w, Frame *parent, std::uint32_t seq) noexcept;
// After spawn_threw returned true, in the handler: rethrows what an earlier
// child threw if one did (it comes first in serial order), else the
// exception being handled.
[[noreturn, gnu::cold]] void rethrow_earliest(Frame &parent);

// On the resume path, an exception leaving a try block of the procedure
// (before the block's handlers see it): children spawned earlier may still
// run, using the block's variables, and one that throws comes first in
// serial order. Waits until they have completed, then throws what the
// earliest of them threw, else rethrows the exception being handled.
[[noreturn, gnu::cold]] void settle_exception(Worker *w, Frame &f);
// The same in a fast clone, whose frame may be latent (exposure.h).
[[gnu::cold]] bool fast_spawn_threw(Worker *w, Frame *parent, std::uint32_t seq) noexcept;

// Ends a frame whose procedure threw on the resume path, after its children
// have completed: frees it and hands the exception and the count to the
// parent. seq_in_parent: the frame's position among its parent's children.
[[gnu::cold]] void complete_frame_exceptionally(Worker *w, Frame *f, std::uint32_t seq_in_parent) noexcept;

// A root call waited for a callee that completed elsewhere:
// rethrows what the callee threw, if anything.
void rethrow_pending(Frame &waiter);

// A spawned call's result, constructed in place only if the call returns:
//   try { ::new (d.slot()) R(call); d.ready(); } catch (...) { ... }
template <class R>
class Deferred {
 public:
  Deferred() noexcept {}
  ~Deferred() {
    if constexpr (!std::is_trivially_destructible_v<R>)
      if (ready_) value_.~R();
  }
  Deferred(const Deferred &) = delete;
  Deferred &operator=(const Deferred &) = delete;
  void *slot() noexcept { return static_cast<void *>(&value_); }
  void ready() noexcept { ready_ = true; }
  R &get() noexcept { return value_; }

 private:
  union {
    R value_;
  };
  bool ready_ = false;
};

}  // namespace cilkpp::rt
