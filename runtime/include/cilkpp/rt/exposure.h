// Lazy exposure: a fast clone's spawn leaves its frame off the deque.
//
// A spawn in a fast clone saves the continuation's state in the frame, as a
// thief would need it, but does not push the frame: it stays *latent*, linked
// to its parent's frame. Only when a thief finds this worker's deque empty and
// asks (Worker::request_exposure) does the worker, at its next spawn, push the
// oldest latent frame of its current chain: the continuation nearest the root,
// the same one a classic Cilk thief would take from the top of the deque.
// With nobody asking, a spawn costs a few stores and a test, no deque traffic.
//
// Invariant: along the chain of frames from the running fast clone to the
// nearest eager frame, the exposed frames are the oldest ones. So the deque
// holds exactly the exposed frames, oldest at the top; a child returning to
// an exposed parent finds it at the bottom; and a frame whose continuation
// was stolen has a parent whose continuation was stolen before it, as with
// eager pushes (the escape protocol of abi.h depends on that).
//
// Calling frames (calls.h) are passed over: their continuations wait for a
// callee, and the frames above them are older in the chain.
//
// Spawns whose callee is not a fast clone (plain functions, which never reach
// a spawn to answer a request) expose the whole latent chain first, so that
// thieves can take any continuation while the callee runs.
#pragma once

#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {

// Pushes the oldest latent frame among f and its ancestors; clears the request.
[[__gnu__::__noinline__, __gnu__::__cold__]] void expose_oldest(Worker *w, Frame *f) noexcept;

// Pushes the oldest latent frame among f and its ancestors, leaving the
// requests alone (poll.h).
void expose_oldest_from(Worker *w, Frame *f) noexcept;

// Pushes f and every latent ancestor, oldest first.
void expose_chain(Worker *w, Frame *f) noexcept;

// At a spawn to a fast clone, after the continuation's state is saved. Any
// pending request leads to expose_oldest, which answers all of them (a mug
// request is answered with the exposed frame: the deque is not empty).
inline void poll_exposure(Worker *w, Frame *f) noexcept {
  if (__builtin_expect(w->attention(), 0)) expose_oldest(w, f);
}

// After the child returned to a frame that was exposed meanwhile: takes it
// off the deque. False: a thief took it first.
inline bool reclaim(Worker *w, Frame *f) noexcept {
  if (!w->pop()) return false;
  f->visibility = Visibility::latent;
  return true;
}

// The spawned call returned to f, a frame on this worker's C stack: true
// while f's continuation is still ours. A stolen stack frame's storage stays
// readable (its copy on the heap runs elsewhere) and is never latent again.
inline bool still_ours(Worker *w, Frame *f) noexcept {
  return __builtin_expect(f->visibility == Visibility::latent, 1) || reclaim(w, f);
}

// The same for a frame from the pool (new_frame). A worker that unwinds
// escaping must not look at it: the last of its children that this worker
// handed back (or a mugged one) may have let it complete elsewhere and its
// memory hold a new, latent frame, which would run f's continuation twice.
inline bool pooled_still_ours(Worker *w, Frame *f) noexcept {
  if (__builtin_expect(w->escaping, 0)) return false;
  return still_ours(w, f);
}

}  // namespace cilkpp::rt
