// CILKPP_CANONICAL_CHECK=1: every stack frame that moves to the heap (a steal
// or a mug promotes it, promote.cpp) travels through the canonical format
// instead of a byte copy when its signature table says it is portable:
// encoded, its header checked, decoded into the heap copy, and encoded again
// to check that nothing changed. Runs of the test corpus in this mode show
// that translation on send and on reception preserves every frame the
// programs steal, and that resuming the decoded copy gives the same results.
#pragma once

#include <cstdint>

namespace cilkpp::rt {

struct Frame;

namespace canonical_check {

// Set once from the configuration, before any worker starts.
void enable() noexcept;
bool enabled() noexcept;

// Moves `from`'s state into `memory` through the canonical format. False
// when the frame is not portable (the caller copies it); a failed encode or
// decode of a portable frame is a bug, reported and aborted on.
bool move(const Frame &from, void *memory) noexcept;

// Frames moved so far.
std::uint64_t moved() noexcept;

}  // namespace canonical_check
}  // namespace cilkpp::rt
