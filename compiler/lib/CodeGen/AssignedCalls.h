// Calls of cilk procedures whose results a statement assigns in a form that
// is not a call point's (Analysis/CallPoints.h): rewritten so that the call
// is one, and its callee's frames join the caller's chain instead of
// starting a nested root call.
//
//   x += f(a);  a[i] = f(a);  *p -= f(a);  s.n = f(a);  (any target or operator)
//     -> { auto __cilkpp_call_L = f(a); x += __cilkpp_call_L; }
//   double d = f(a);   (a declaration whose type is not the result's)
//     -> auto __cilkpp_call_L = f(a); double d = __cilkpp_call_L;
//
// The result is scalar, so the copy changes nothing, and the standard
// evaluates the right operand of an assignment before its left (C++17), as
// the rewritten statement does. Only in a cilk procedure's own code, where a
// call point could stand (not in try blocks or procedures with a goto), and
// not in templates, whose instantiations may differ. Everything stays on
// its line.
#pragma once

#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace cilkpp {

// The rewritten main file when some statement was rewritten, else nullopt.
// Sema: findCilkProcedures on Ctx.
std::optional<std::string> lowerAssignedCalls(clang::ASTContext &Ctx, const SemaResult &Sema);

}  // namespace cilkpp
