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

// A spawned call threw on this worker, on the resume path. True: the
// parent's continuation was not stolen; the exception is recorded in the
// parent, and the parent syncs (suspending while children spawned before
// this one still run on other workers: one of them may throw too, and come
// first) and then rethrows the first in serial order where the spawn was
// (rethrow_pending), as the serial program would. The worker never waits on
// its C stack here: frames below it there may be what those children wait
// for. False: a thief runs the continuation; the exception was handed to it
// (rethrown at its next sync) and the caller returns at once, as after
// parent_stolen.
[[__gnu__::__cold__]] bool spawn_threw(Worker *w, Frame *parent, std::uint32_t seq) noexcept;
// After spawn_threw returned true (or the procedure's own code threw in a
// try block, the exception recorded after every child) and the parent's
// sync: throws the first exception in serial order among those recorded.
[[noreturn, __gnu__::__cold__]] void rethrow_first_thrown(Frame &parent);

// On the resume path, an exception leaving a try block that holds no
// continuation point (before the block's handlers see it): children spawned
// before the block may still run, and one that throws comes first in serial
// order. Waits for them on this worker's stack (the block has no point to
// suspend at), then throws what the earliest of them threw, else rethrows
// the exception being handled. Blocks with points settle by suspending
// instead (rethrow_first_thrown).
[[noreturn, __gnu__::__cold__]] void settle_exception(Worker *w, Frame &f);

// A spawned call threw in a fast clone, whose frame may be latent
// (exposure.h) and has no other child running: true, the caller rethrows;
// false as for spawn_threw.
[[__gnu__::__cold__]] bool fast_spawn_threw(Worker *w, Frame *parent, std::uint32_t seq) noexcept;

// Ends a frame whose procedure threw on the resume path, after its children
// have completed: frees it and hands the exception and the count to the
// parent. seq_in_parent: the frame's position among its parent's children.
[[__gnu__::__cold__]] void complete_frame_exceptionally(Worker *w, Frame *f, std::uint32_t seq_in_parent) noexcept;

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
  void *slot() noexcept { return static_cast<void *>(__builtin_addressof(value_)); }
  void ready() noexcept { ready_ = true; }
  R &get() noexcept { return value_; }

 private:
  union {
    R value_;
  };
  bool ready_ = false;
};

}  // namespace cilkpp::rt
