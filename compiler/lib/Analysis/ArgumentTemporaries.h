// Temporaries of a spawn's statement that its child may refer to.
//
// C++ keeps the temporaries of a call's arguments until the statement ends.
// A spawned cilk procedure can outlive its statement (its fast clone returns
// early once its own continuation is stolen), and the spawn evaluates its
// arguments into variables of its own before the call. So an argument that
// refers into a temporary, bound to a reference parameter (`spawn
// count(s + "a")` for a `const std::string &`) or to a pointer or trivially
// copyable view of one (a std::string_view of `a + b`, `v().data()`), and a
// member call's temporary object (`spawn Text{s}.size()`), need the temporary
// kept elsewhere: the runtime's held storage (runtime/include/cilkpp/rt/
// held.h), which lives until the child completes.
//
// An argument refers into a temporary when it makes one for a reference
// parameter, or for a parameter of pointer or class type (which may point
// into it: a `std::string_view`, a `std::pair<std::string_view, int>`).
//
// A temporary is held when it can be made again in place by a lambda that
// returns it (`[&] { return s + "a"; }`, or `[&]() -> T { return "a"; }`
// where the text converts to it, whose type T must then be nameable there):
// not an array (a braced list's `std::initializer_list` array), with a public
// destructor; it is written in the file, outside macros; and its text means
// the same inside a lambda (no __func__, no std::source_location::current(),
// also as a default argument, no structured binding before C++20). A default
// argument that makes a temporary inside an argument (`g()` for `const
// std::string &g(const std::string &s = "x")`) is not held either.
// Temporaries made while another is (`std::string(s) + "b"` as a
// std::string_view) are held too, by the same statement, inside its lambda.
// Otherwise the spawn stays the plain call of the serial elision: correct,
// and its continuation waits for the child.
#pragma once

#include "Sema/CilkModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <vector>

namespace cilkpp {

struct ArgumentTemporaries {
  // Some argument or the called object refers into a temporary.
  bool Referenced = false;
  // The temporaries to hold, those inside others first; empty when
  // Referenced and some temporary cannot be held.
  std::vector<const clang::MaterializeTemporaryExpr *> Held;
  // A default argument the call adds creates a temporary (`const
  // std::string &s = "x"`): held by nobody, it dies with the statement.
  bool InDefaultArgument = false;

  bool holdable() const { return Referenced && !Held.empty(); }
};

// CilkCallee: the callee is a cilk procedure, whose fast clone takes the
// object of a member call or called function object by address (a plain
// call evaluates its object in the call, or binds it to a reference of the
// spawn's statement, `auto &&__f = Fib{};`).
// Procedure: the function whose code makes them (see canHold).
ArgumentTemporaries argumentTemporaries(clang::ASTContext &Ctx, const SpawnSite &Site,
                                        const clang::FunctionDecl *Procedure, bool CilkCallee);

// Whether the temporary is the value its text makes, a prvalue of its type
// (no conversion, no bare braced list), so that a lambda returning the text
// returns it.
bool madeAsWritten(clang::ASTContext &Ctx, const clang::MaterializeTemporaryExpr *E);

// The object a called function object is (`spawn Fib{}(n)`: `Fib{}`), or null.
const clang::Expr *calledObject(const SpawnSite &Site);

// The declared parameter types of the function a call calls, directly or
// through a function pointer or reference.
std::vector<clang::QualType> parameterTypes(const clang::CallExpr *Call);

}  // namespace cilkpp
