// Nested root calls: a cilk procedure reached through ordinary code.
//
// A fast clone's call of a plain function that calls a cilk procedure (or
// of a procedure where no call point could be made, CallPoints.h) enters
// that procedure through its public entry, a nested root call: its frames
// start a chain of their own, and a thief's request, answered at a poll
// point inside it, can expose only frames of that chain. The frames around
// the call, whose continuations may be latent (a parent at a spawn), would
// stay hidden from thieves until the call returns; so before such a call
// the fast clone exposes them (`expose_chain(__w, __parent)`, never its own
// frame: its continuation needs the call's result).
//
// NestedRootCallees finds the functions through which a call reaches a cilk
// procedure: the file's functions (template instantiations and lambdas'
// call operators included) whose bodies call a cilk procedure or another
// such function, transitively.
#pragma once

#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"

namespace cilkpp {

class NestedRootCallees {
 public:
  NestedRootCallees(clang::ASTContext &Ctx, const CilkProcedureSet &Procedures);
  // Whether a call of Callee from a cilk procedure's fast clone may run a
  // cilk procedure as a nested root call.
  bool reaches(const clang::FunctionDecl *Callee) const {
    return Callee && Reaching.contains(Callee->getCanonicalDecl());
  }

 private:
  llvm::DenseSet<const clang::FunctionDecl *> Reaching;
};

}  // namespace cilkpp
