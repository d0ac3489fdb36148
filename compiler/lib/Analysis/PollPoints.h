// Poll points: where a faster worker may take the running frame over
// (mugging, runtime/include/cilkpp/rt/poll.h). A cilk procedure polls at its
// entry and at the back-edge of every loop of its own body (the end of each
// iteration, where a `continue` goes too), so a frame that runs long between
// spawns still answers. A poll point is a continuation point: the state live
// there is saved and the frame resumes at its own label; the fast path pays
// only a load and a branch not taken.
//
// Not every loop can have one: only where the resume clone can jump back in
// (not inside a catch handler, a statement expression, a range-based for
// loop or a condition that declares a variable: the rules for any
// continuation point), in the procedure's own code (not in lambdas, local
// classes or cilk_for bodies, which run apart from this frame), and not
// between a goto and its label (as Sema requires of spawns). FrameLayout
// then drops the poll points that would make the fast path pay more.
#pragma once

#include "Analysis/FrameDescription.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

// Adds the procedure's candidate poll points to Frame.Points (PointKind::Poll,
// numbered with the others) and fills PollSites and PollEntry.
void findPollPoints(clang::ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame);

}  // namespace cilkpp
