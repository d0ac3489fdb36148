// Inlined recursion: a procedure that spawns itself has its spawns call
// copies of its own fast clone, which the host compiler inlines, up to a few
// levels deep before the recursion goes back through the fast clone proper.
//
// A serial compiler inlines a small recursive function into itself (g++
// turns the serial elision of fib into a few levels of the recursion per
// call); the fast clone, whose spawns publish its frame to thieves first,
// only ever got one level per call. The copies keep each level's frame and
// protocol exactly as it is, so what a thief sees does not change: only the
// call, the register saves and the return of each inlined level go away.
// The copies are `CILKPP_INLINED_RECURSION` (always inlined when the host
// compiler optimises, runtime/include/cilkpp/rt/abi.h).
#pragma once

#include "Analysis/FrameDescription.h"
#include "CodeGen/Naming.h"

#include <string>

namespace cilkpp {

// The size of the procedure's body (its statements and expressions) where it
// may be copied: small, and with nothing whose identity copies would split
// (a lambda's or local class's type, a static local, an asm statement, a
// label's address); else 0.
unsigned copyableBodySize(const FrameDescription &Frame);

// How many levels of copies a fast clone gets whose body, of BodySize
// (copyableBodySize), spawns or calls itself at SelfSpawns places: each
// level multiplies the code by SelfSpawns, so fewer for more places; 0 for
// none.
unsigned inlinedRecursionLevels(unsigned BodySize, unsigned SelfSpawns);

// The fast clone's copy at Level (1 for the one its own spawns call).
std::string inlinedCopyName(const ProcedureNames &Names, unsigned Level);

}  // namespace cilkpp
