// Poll points: where a running frame may be taken over by a faster worker
// (mugged, Bender-Rabin's Enhanced Cilk Scheduler).
//
// The compiler puts a poll point at the entry of every cilk procedure and at
// its loop back-edges. On the fast path a poll point is one load of the
// worker's request byte and a branch that is not taken. When it is taken, the
// generated code saves the state live at the poll point into the frame and
// records the poll point in Frame::entry, exactly as at a spawn, then calls
// poll(): the frame is then resumable from its closure, so a mugger resumes it
// through the ordinary resume path.
#pragma once

#include "cilkpp/rt/frame.h"
#include "cilkpp/rt/worker.h"

namespace cilkpp::rt {

// True when the worker has a request to answer at this poll point.
inline bool poll_requested(Worker *w) noexcept { return __builtin_expect(w->attention(), 0); }

// Answers the pending requests at a poll point of frame f, whose state is
// saved and whose entry names the poll point. True: f was mugged, it belongs
// to another worker now and the caller returns at once, as after a stolen
// continuation (Worker::escaping is set).
[[__gnu__::__noinline__, __gnu__::__cold__]] bool poll(Worker *w, Frame *f) noexcept;

}  // namespace cilkpp::rt
