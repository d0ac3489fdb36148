// Finds the cilk procedures of a translation unit and binds every keyword to
// the AST node it introduced, rejecting keywords in positions the translator
// does not handle.
#pragma once

#include "Dialect/Keywords.h"
#include "Dialect/Pragmas.h"
#include "Sema/CilkModel.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <string>

namespace cilkpp {

class CilkProcedureSet {
 public:
  void add(const clang::FunctionDecl *FD) {
    if (Canonical.insert(FD->getCanonicalDecl()).second) Ordered.push_back(FD->getCanonicalDecl());
  }
  llvm::ArrayRef<const clang::FunctionDecl *> all() const { return Ordered; }
  bool contains(const clang::FunctionDecl *FD) const {
    return FD && Canonical.contains(FD->getCanonicalDecl());
  }

 private:
  llvm::DenseSet<const clang::FunctionDecl *> Canonical;
  std::vector<const clang::FunctionDecl *> Ordered;
};

struct SemaResult {
  std::vector<CilkProcedure> Procedures;
  CilkProcedureSet CilkFunctions;
  // Keywords removed from the output: `cilk` specifiers, and spawn, sync
  // and cilk_scope inside cilk_for bodies and lambdas, which run serially.
  std::vector<clang::SourceLocation> RemovedKeywords;
  // Every cilk_for that passed its checks, in or outside cilk procedures.
  std::vector<ParallelLoop> Loops;
};

// Result.Procedures holds the procedures that passed the checks; the others
// have had their errors reported. The warnings about keywords in bodies that
// run serially quote Reasons.
void findCilkProcedures(clang::ASTContext &Ctx, llvm::ArrayRef<KeywordUse> Uses,
                        llvm::ArrayRef<GrainPragma> Pragmas, SemaResult &Result,
                        const UnmovedBodyReasons &Reasons = {});

}  // namespace cilkpp
