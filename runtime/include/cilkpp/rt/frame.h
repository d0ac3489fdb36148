// Frames: the heap-resident closures of cilk procedures.
//
// Every cilk procedure gets a generated frame struct that derives from Frame.
// The header is owned by the runtime; the fields after it hold the procedure's
// state that lives across continuation points (see docs/translation.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace cilkpp::rt {

class Worker;
struct Frame;
struct PendingException;

// Whether thieves can find a frame (see exposure.h). Only the worker that
// runs a fast clone changes its frame's visibility; a thief reads it only for
// the ancestors of a frame it steals, under the victim's deque lock (calls.h).
enum class Visibility : std::int32_t {
  // Pushed on its worker's deque at every spawn: resumed frames, roots,
  // call waiters, cilk_for frames. A chain walk stops here.
  eager,
  // A fast clone's frame at a spawn, not on the deque: its continuation
  // runs only on this worker unless a thief asks for work.
  latent,
  // A fast clone's frame put on the deque because a thief asked for work,
  // or because a spawn had to expose it.
  exposed,
  // A fast clone's frame during a plain call of a cilk procedure (calls.h):
  // its continuation needs the callee's result, so no thief may take it.
  // Chain walks pass over it to the frames above.
  calling,
  // The same, once a chain walk (expose_chain) has left no latent frame above
  // it: those frames are suspended, and only their owner, this worker, could
  // make one latent again, by returning to it through this call. Later walks
  // stop here instead of passing the whole chain of calls again.
  calling_settled,
};

inline bool is_calling(Visibility v) noexcept { return v == Visibility::calling || v == Visibility::calling_settled; }

// Continues a frame at the continuation point recorded in Frame::entry.
using ResumeFn = void (*)(Worker *, Frame *) noexcept;

// Static description of one frame type, emitted once per cilk procedure.
struct FrameSignature;

struct FrameInfo {
  const char *name;    // the procedure, for diagnostics
  ResumeFn resume;     // nullptr marks the frame a root call waits on
  std::uint32_t size;  // sizeof the generated frame struct
  // Set for frames that live on the C stack of a fast clone: a thief that
  // steals one copies it to the heap (promotes it), gives the copy this
  // info and resumes the copy. nullptr for frames already on the heap.
  const FrameInfo *promote_to;
  // The procedure's signature table and function-table entry (signature.h);
  // nullptr for the runtime's own frames, which never leave their process.
  const FrameSignature *signature = nullptr;
};

// (compiler/lib/Analysis/FrameLayout.cpp keeps generated fields off these
// names, which would hide them.)
struct Frame {
  const FrameInfo *info;
  // Receives this frame's result when the frame completes on the resume path.
  Frame *parent;
  // Where in the parent the result goes; nullptr when the result is discarded.
  void *result_slot;
  // Continuation point to resume at.
  std::int32_t entry;
  // Next to entry: a spawn stores both at once when it sets up the frame.
  Visibility visibility;
  // 1 while some worker runs (or will run) this frame's continuation, plus one
  // per child that completes asynchronously. A sync that sees more than 1
  // suspends; whoever brings the count to 0 makes the frame ready again.
  std::atomic<std::int32_t> join;
  // Intrusive link for the owning worker's ready list.
  Frame *next_ready;
  // For a stack frame that was stolen: its heap copy. Written by the thief
  // under the victim's deque lock; read by the victim after its pop failed
  // and by thieves of the frame's children (stolen later, same lock).
  Frame *promoted;
  // The exception a child (or the continuation itself) threw, to be rethrown
  // at the next sync; see exceptions.h. Valid on heap frames and roots: a
  // stack frame receives nothing until it is promoted.
  PendingException *pending;
};

// promote copies a frame's state from sizeof(Frame) on, so the header must
// not end in padding that a generated frame's first field could occupy.
namespace frame_layout_check {
struct FirstFieldAfterHeader : Frame {
  char first;
};
static_assert(sizeof(FirstFieldAfterHeader) > sizeof(Frame), "a frame field would share the header's tail padding");
}  // namespace frame_layout_check

// Where a stack frame's state now lives: itself, or its heap copy.
inline Frame *current_location(Frame *f) noexcept { return f->info->promote_to ? f->promoted : f; }

// A result slot inside `from` moved along with the frame to `to`; a slot
// elsewhere (an array element reached through a pointer) stays where it is.
inline void *relocate_slot(void *slot, const Frame *from, Frame *to) noexcept {
  const auto at = reinterpret_cast<std::uintptr_t>(slot);
  const auto begin = reinterpret_cast<std::uintptr_t>(from);
  if (from == to || at < begin || at >= begin + from->info->size) return slot;
  return reinterpret_cast<char *>(to) + (at - begin);
}

// Copies a stack frame to memory on the heap and returns the copy, ready to
// be resumed, with the given join count: for a stolen frame its continuation
// plus the child still running on the victim, for a mugged one (poll.h) its
// continuation alone.
Frame *promote(Frame *stack_frame, void *memory, std::int32_t counts = 2) noexcept;

// Points a stolen frame at its parent's heap copy when the parent lived on a
// stack and was promoted, moving the result slot along. Every stolen frame
// needs this, heap frames included: a frame allocated on the heap (it holds
// class-type or address-taken state) may well have a stack-frame parent, and
// completing into the dead stack frame would lose its count and its result.
void follow_promoted_parent(Frame *f) noexcept;

// What a root call (a cilk procedure called from ordinary code) waits on.
// join starts at 2: the waiting caller plus the root procedure's frame.
// (Inline: a cilk_for body's call of a cilk procedure makes one per
// iteration.)
extern const FrameInfo root_frame_info;
struct RootFrame : Frame {
  RootFrame() noexcept {
    info = &root_frame_info;
    parent = nullptr;
    result_slot = nullptr;
    // The waiting caller plus the root procedure's frame.
    join.store(2, std::memory_order_relaxed);
    entry = 0;
    next_ready = nullptr;
    pending = nullptr;
    visibility = Visibility::eager;
  }
};

}  // namespace cilkpp::rt
