// Plain calls of cilk procedures from a fast clone.
//
// `y = f(x);` in a cilk procedure, f a cilk procedure, calls f's fast clone
// with the caller's frame as the parent, as a spawn does, so that f's frames
// join the caller's chain: thieves can take f's continuations and, while f
// runs, the caller's older continuations. The caller's own continuation is
// not one of them: it needs f's result. So during the call its frame is
// `calling`, which exposure passes over (exposure.h).
//
// If a thief takes a frame below a calling frame, it promotes the calling
// frames between them first (promote_callers), each counting its
// continuation, which the victim gives back when the call returns escaping,
// and the callee, which gives its count back when it completes; a copy, or a
// frame already on the heap, is eager from then on. The caller resumes at
// the call's continuation point, in its resume clone, once both have: the
// callee's result is then in the frame.
#pragma once

#include <cstdint>

#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {

// Before the call: the frame holds the continuation's state and entry.
inline void begin_call(Frame *f) noexcept { f->visibility = Visibility::calling; }

// The callee escaped: its frames, and so the caller's, belong to other
// workers. Gives the caller's continuation count back.
[[__gnu__::__noinline__, __gnu__::__cold__]] void call_escaped(Worker *w, Frame *f) noexcept;

// After the call. True: it returned its result here, go on. False: it
// escaped; the caller returns at once, as after a stolen continuation.
inline bool call_returned(Worker *w, Frame *f) noexcept {
  if (__builtin_expect(w->escaping, 0)) {
    call_escaped(w, f);
    return false;
  }
  f->visibility = Visibility::latent;
  return true;
}

// Under the victim's deque lock (a steal) or on the victim (a mugging), for
// a frame about to run elsewhere: promotes its calling ancestors up to the
// nearest other frame, oldest first, so that the frame's result and count,
// and theirs, reach heap copies that outlive the victim's stack.
void promote_callers(Worker *w, Frame *f) noexcept;

// The first of f and its ancestors that is not calling.
inline Frame *past_callers(Frame *f) noexcept {
  while (f && is_calling(f->visibility)) f = f->parent;
  return f;
}

// At the call's continuation point in the resume clone of a procedure that
// may throw: if the callee, numbered call_seq among the frame's children,
// threw, rethrows its exception here, as the call would have. (Exceptions
// of children spawned earlier wait for the next sync: the callee's number
// is the latest.)
void rethrow_if_call_threw(Frame &f, std::uint32_t call_seq);

}  // namespace cilkpp::rt
