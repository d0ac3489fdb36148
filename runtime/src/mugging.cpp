// The victim's side of a poll point; see poll.h.
//
// A thief more than beta times faster than this worker asked for its running
// frame (Worker::request_mug). The worker gives the frame up only if it has
// nothing a thief could steal instead: its deque is empty and no older frame
// of its chain is latent (those are answered by exposure, as a classic steal
// of the top of the deque). The frame then holds its state at the poll point
// and moves to the heap if it lived on this worker's stack; it goes into the
// worker's hand-off slot, where the thief (or whoever looks first) takes it,
// and this worker unwinds its stack as after a stolen continuation: every
// frame below was stolen, so each of them just returns.
#include "cilkpp/rt/poll.h"

#include "cilkpp/rt/abi.h"
#include "cilkpp/rt/calls.h"
#include "cilkpp/rt/exposure.h"
#include "hetero.h"
#include "runtime.h"

namespace cilkpp::rt {
namespace {

bool give_up_running_frame(Worker *w, Frame *f) noexcept {
  if (!w->deque().empty_for_owner() || !f->parent || w->has_handoff()) return false;
  if (const Frame *older = past_callers(f->parent); !older || older->visibility == Visibility::latent) return false;
  promote_callers(w, f);
  Frame *moved = f;
  if (const FrameInfo *heap_info = f->info->promote_to) {
    moved = promote(f, w->pool().allocate(size_class_of(heap_info->size)), 1);
  } else {
    follow_promoted_parent(f);
    // A resumed frame is exposed or eager already, which chain walks treat
    // alike, and thieves taking its outstanding children read it meanwhile
    // (promote_callers): only a fast clone's latent frame is written.
    if (f->visibility == Visibility::latent) f->visibility = Visibility::eager;
  }
  w->escaping = true;
  ++w->stats().mugged;
  w->runtime().trace(w->index()).record(TraceEvent::mugged);
  w->hand_off(moved);
  return true;
}

}  // namespace

bool poll(Worker *w, Frame *f) noexcept {
  const std::uint8_t requests = w->take_requests();
  sample_speed(*w);
  if ((requests & Worker::kMug) && w->take_mug_request() >= 0 && give_up_running_frame(w, f)) return true;
  // f itself has no child running: exposing it would run its continuation
  // twice. Older latent frames do, and a thief may take the oldest.
  if (requests & (Worker::kExpose | Worker::kMug)) expose_oldest_from(w, f->parent);
  return false;
}

}  // namespace cilkpp::rt
