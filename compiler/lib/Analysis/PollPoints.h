// Poll points: where a faster worker may take the running frame over
// (mugging, runtime/include/cilkpp/rt/poll.h). A cilk procedure polls at its
// entry and at the back-edge of every loop of its own body (the end of each
// iteration, where a `continue` goes too), so a frame that runs long between
// spawns still answers. A poll point is a continuation point: the state live
// there is saved and the frame resumes at its own label; the fast path pays
// only a load and a branch not taken.
//
// The entry's poll point follows the body's leading base cases
// (`if (n < 2) return n;`, without calls or side effects): they end the
// procedure at once, and compilers inline such a head into callers (with the
// poll before it GCC could not, and fib(38) took twice as long). A
// procedure that spawns first thing after them has no entry poll: that
// spawn tests the same request byte at once (and fib keeps its speed). Nor
// does a forwarder (Sema/Forwarders.h): its callee polls.
//
// Not every loop gets one:
// - only where the resume clone can jump back in: not inside a catch
//   handler, a statement expression or a condition that declares a variable
//   (the rules for any continuation point), and not between a goto and its
//   label (as Sema requires of spawns);
// - only in the procedure's own code: not in lambdas, local classes or
//   cilk_for bodies, which run apart from this frame;
// - a range-based for loop polls only once rewritten as a plain one
//   (StatementLowering.h);
// - not in a tight loop, an innermost loop that calls nothing out of line:
//   a poll would cost more than an iteration and keep the loop from being
//   vectorized; the loops around it poll.
// FrameLayout then drops the poll points that would make the fast path pay
// more than the poll itself.
#pragma once

#include "Analysis/FrameDescription.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

// Adds the procedure's candidate poll points to Frame.Points (PointKind::Poll,
// numbered with the others) and fills PollSites and PollEntry.
void findPollPoints(clang::ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame);

// `if (c) return v;` (or `{ return v; }`) with a condition and value that
// call nothing and change nothing: a base case.
bool isBaseCase(clang::ASTContext &Ctx, const clang::Stmt *S);

// An innermost loop that calls nothing out of line (`for`, `while`, `do` or
// range-based `for`): it gets no poll point.
bool isTightLoop(const clang::Stmt *Loop);

}  // namespace cilkpp
