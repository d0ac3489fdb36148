// Spawns of virtual members that reach cilk procedures.
//
// A virtual call cannot name the fast clone of the override it reaches, and
// the override's public entry is a nested root call: its frames are not
// linked to the spawner's, so a thief cannot take the spawner's continuation
// while they run, and a steal below makes the entry wait. So for a virtual
// member whose overriders include a cilk procedure, every class that declares
// the member or an override of it gets a *companion*: a virtual member
// `__cilkpp_spawn_<name>` with the fast clone's hidden parameters and the
// member's own. The companion of a cilk procedure calls its fast clone; that
// of a plain one exposes the spawner's frames (it answers no thief's
// request) and calls the member. A spawn dispatches on the companion, so the
// override runs as a child linked to the spawner's frame.
//
// The companion of a class must override every override below it, so a
// member gets companions only when every overrider in the translation unit
// is in a class whose definition the translator rewrites: in the main file,
// not a template, not local to a function. A class defined in the main file
// is seen by no other translation unit, so nothing elsewhere overrides it.
#pragma once

#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace cilkpp {

class VirtualSpawns {
 public:
  VirtualSpawns(clang::ASTContext &Ctx, const CilkProcedureSet &Cilk);

  // Whether a dispatching spawn of Method calls Method's companion.
  bool dispatchesThroughCompanion(const clang::CXXMethodDecl *Method) const;

  // `__cilkpp_spawn_m` for m.
  static std::string companionName(const clang::CXXMethodDecl *Method);

  // Declares the companions at the end of their classes.
  void declareCompanions(clang::Rewriter &Main) const;

 private:
  bool isCilkProcedure(const clang::CXXMethodDecl *Method) const;
  std::string companion(const clang::CXXMethodDecl *Method) const;

  clang::ASTContext &Ctx;
  const CilkProcedureSet &Cilk;
  llvm::DenseSet<const clang::CXXMethodDecl *> Dispatching;
  llvm::SetVector<const clang::CXXMethodDecl *> WithCompanion;
};

}  // namespace cilkpp
