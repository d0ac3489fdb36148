// Calls of cilk procedures inside a statement's expression, where no call
// point (Analysis/CallPoints.h) can stand: each is moved in front of the
// statement, into a fresh local that is a call point's declaration, so that
// its callee's frames join the caller's chain instead of starting a nested
// root call (whose worker, if a thief takes part of the callee, waits for it
// with the caller's frame stuck on its stack).
//
//   x += f(a);  a[i] = f(a) + 1;  g(f(a), f(b));  return f(a) + f(b);
//     -> { auto __cilkpp_call_L = f(a); x += __cilkpp_call_L; }   ...
//   double d = f(a) * 2;   (a declaration: its variable stays in scope)
//     -> auto __cilkpp_call_L = f(a); double d = __cilkpp_call_L * 2;
//
// A call moves only where that changes no order of evaluation: its result
// is scalar (the copy changes nothing), and whatever the statement evaluates
// before it has no side effects. Before it means C++17's sequencing (an
// assignment's right operand before its left; the left operands of <<, >>,
// [], &&, ||, ',' and the condition of ?: first; nothing moves out of a
// branch of ?: or the right of && and ||), and for what the standard leaves
// open, what both g++ and clang++ do: the operands of other built-in
// operators left to right. They disagree on a function's arguments (g++ goes
// right to left), so calls move out of an argument only if no other argument
// has side effects. Several calls move in their order of evaluation.
// Only in a cilk procedure's own code, where a call point could stand (not
// in try blocks or procedures with a goto); in a template, only what every
// instantiation in the file would move (their result types may differ).
// Everything stays on its line.
#pragma once

#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace cilkpp {

// The rewritten main file when some statement was rewritten, else nullopt.
// Sema: findCilkProcedures on Ctx.
std::optional<std::string> hoistExpressionCalls(clang::ASTContext &Ctx, const SemaResult &Sema);

}  // namespace cilkpp
