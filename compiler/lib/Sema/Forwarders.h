// Functions that only pass their parameters on to a cilk procedure: a
// function object's call operator (`long operator()(long n) const { return
// fib(n); }`), the named class that a spawning lambda held across a spawn
// becomes (CodeGen/BodyOutlining.h), a wrapper (`long solve(const Board *b)
// { return search(b, 0); }`), a member calling a member on an object it does
// not own (`long solve(long n) const { return search(n); }`, a named
// closure's `__cilkpp_this->body(...)`). They are cilk procedures too, with no frame
// of their own: the fast clone tail-calls the callee's (Analysis/
// CallPoints.h), so a spawn or call of one in a cilk procedure costs what
// one of the callee does, where a plain function would make a nested root
// call (about 15 ns, more than a spawn).
#pragma once

#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace cilkpp {

// The forwarders among Definitions (function bodies written in the main
// file; a template counts when all its instantiations forward), found
// until none is left: a forwarder's callee may itself be one. Procedures
// holds the cilk procedures known so far.
std::vector<const clang::FunctionDecl *> findForwarders(clang::ASTContext &Ctx,
                                                        llvm::ArrayRef<const clang::FunctionDecl *> Definitions,
                                                        CilkProcedureSet Procedures);

}  // namespace cilkpp
