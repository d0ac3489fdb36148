// Plain calls of cilk procedures from fast clones; see calls.h.
#include "cilkpp/rt/calls.h"

#include "cilkpp/rt/abi.h"
#include "cilkpp/rt/exceptions.h"

namespace cilkpp::rt {

void call_escaped(Worker *w, Frame *f) noexcept {
  Frame *copy = current_location(f);
  if (copy->join.fetch_sub(1, std::memory_order_acq_rel) == 1) w->make_ready(copy);
}

void promote_callers(Worker *w, Frame *f) noexcept {
  // The links point from callee to caller and the promotions must go the
  // other way (a copy follows its parent's copy): link the callers downward
  // through next_ready, which only ready frames use.
  Frame *below = nullptr;
  for (Frame *caller = f->parent; caller && is_calling(caller->visibility); caller = caller->parent) {
    caller->next_ready = below;
    below = caller;
  }
  for (Frame *caller = below; caller;) {
    Frame *next = caller->next_ready;
    // Two counts: the continuation (call_escaped) and the callee.
    if (const FrameInfo *heap_info = caller->info->promote_to) {
      promote(caller, w->pool().allocate(size_class_of(heap_info->size)), 2);
    } else {
      // Counted once: the callee, resumed elsewhere, may be stolen from or
      // mugged again, and its parent is this frame, not a copy.
      follow_promoted_parent(caller);
      caller->next_ready = nullptr;
      caller->join.fetch_add(1, std::memory_order_relaxed);
      caller->visibility = Visibility::eager;
    }
    caller = next;
  }
}

void rethrow_if_call_threw(Frame &f, std::uint32_t call_seq) {
  // Children spawned before the call have smaller numbers; their
  // exceptions wait for the next sync.
  if (f.pending != nullptr && f.pending->latest_child == call_seq) rethrow_pending(f);
}

}  // namespace cilkpp::rt
