// Promotion: a stolen frame that lives on its fast clone's C stack moves to
// the heap, because the victim's stack frame dies as soon as its child
// returns. The victim and the stolen frame's children find the copy through
// Frame::promoted.
#include <cstring>

#include "canonical_check.h"
#include "cilkpp/rt/frame.h"

namespace cilkpp::rt {

void follow_promoted_parent(Frame *f) noexcept {
  // The parent is older in the same deque, so if it lived on a stack it was
  // stolen, and promoted, before this frame.
  Frame *parent = f->parent;
  Frame *parent_now = current_location(parent);
  if (parent_now == parent) return;
  if (f->result_slot) f->result_slot = relocate_slot(f->result_slot, parent, parent_now);
  f->parent = parent_now;
}

Frame *promote(Frame *stack_frame, void *memory, std::int32_t counts) noexcept {
  const FrameInfo *heap_info = stack_frame->info->promote_to;
  auto *copy = static_cast<Frame *>(memory);
  // The procedure's state after the header: trivially copyable fields.
  if (!canonical_check::enabled() || !canonical_check::move(*stack_frame, memory))
    std::memcpy(static_cast<char *>(memory) + sizeof(Frame),
                reinterpret_cast<const char *>(stack_frame) + sizeof(Frame), heap_info->size - sizeof(Frame));
  copy->info = heap_info;
  copy->entry = stack_frame->entry;
  copy->next_ready = nullptr;
  copy->promoted = nullptr;
  copy->pending = nullptr;
  copy->visibility = Visibility::eager;
  copy->parent = stack_frame->parent;
  copy->result_slot = stack_frame->result_slot;
  follow_promoted_parent(copy);
  copy->join.store(counts, std::memory_order_relaxed);
  stack_frame->promoted = copy;
  return copy;
}

}  // namespace cilkpp::rt
