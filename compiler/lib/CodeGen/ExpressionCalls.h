// Calls of cilk procedures inside a statement's expression, where no call
// point (Analysis/CallPoints.h) can stand: each is moved in front of the
// statement, into a fresh local that is a call point's declaration, so that
// its callee's frames join the caller's chain instead of starting a nested
// root call (whose worker, if a thief takes part of the callee, waits for it
// with the caller's frame stuck on its stack).
//
//   x += f(a);  a[i] = f(a) + 1;  g(f(a), n);  return f(a) + f(b);
//     -> { auto __cilkpp_call_L = f(a); x += __cilkpp_call_L; }   ...
//   double d = f(a) * 2;   (a declaration: its variable stays in scope)
//     -> auto __cilkpp_call_L = f(a); double d = __cilkpp_call_L * 2;
//
// A call moves only where that changes nothing a program can observe: its
// result is scalar (the copy changes nothing), and whatever the statement
// evaluates before it has no side effects and reads nothing the call could
// write (only locals whose address never escapes, and constants). Before it
// means C++17's sequencing (an assignment's right operand before its left;
// the left operands of <<, >> and [] and the condition of ?: first) and,
// where the standard leaves the order open, any order g++ or clang++ might
// pick: g++ takes a function's arguments right to left and an operator's
// operands in an order that depends on their shape, so calls move out of
// one operand only when the others are inert, or out of both operands of a
// built-in operator that are the calls themselves (`f(a) + f(b)`, called
// left to right by both). Nothing moves out of &&, ||, ',', a branch of ?:,
// a reference binding, or from a line other than the statement's first.
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
