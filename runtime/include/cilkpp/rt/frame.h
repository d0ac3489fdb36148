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

// Continues a frame at the continuation point recorded in Frame::entry.
using ResumeFn = void (*)(Worker *, Frame *) noexcept;

// Static description of one frame type, emitted once per cilk procedure.
struct FrameInfo {
  const char *name;    // the procedure, for diagnostics
  ResumeFn resume;     // nullptr marks the frame a root call waits on
  std::uint32_t size;  // sizeof the generated frame struct
};

struct Frame {
  const FrameInfo *info;
  // Receives this frame's result when the frame completes on the resume path.
  Frame *parent;
  // Where in the parent the result goes; nullptr when the result is discarded.
  void *result_slot;
  // 1 while some worker runs (or will run) this frame's continuation, plus one
  // per child that completes asynchronously. A sync that sees more than 1
  // suspends; whoever brings the count to 0 makes the frame ready again.
  std::atomic<std::int32_t> join;
  // Continuation point to resume at.
  std::int32_t entry;
  // Intrusive link for the owning worker's ready list.
  Frame *next_ready;
};

// What a root call (a cilk procedure called from ordinary code) waits on.
// join starts at 2: the waiting caller plus the root procedure's frame.
struct RootFrame : Frame {
  RootFrame() noexcept;
};

}  // namespace cilkpp::rt
