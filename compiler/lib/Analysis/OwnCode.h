// A visitor of a cilk procedure's own code: not the lambdas, local classes
// and cilk_for bodies in it, which run apart from the procedure's frame.
#pragma once

#include "Sema/CilkModel.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace cilkpp {

template <class Derived>
class OwnCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
 public:
  // (By where they are written: in a template's instantiation the loops
  // are the instantiation's statements, the bound ones the template's.)
  explicit OwnCodeVisitor(const CilkProcedure &Proc) {
    for (const ParallelLoop *L : Proc.Loops) ParallelLoops.insert(L->Loop->getForLoc().getRawEncoding());
  }
  bool TraverseLambdaExpr(clang::LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(clang::CXXRecordDecl *) { return true; }
  bool TraverseForStmt(clang::ForStmt *S) {
    return ParallelLoops.contains(S->getForLoc().getRawEncoding()) ||
           clang::RecursiveASTVisitor<Derived>::TraverseForStmt(S);
  }

 private:
  llvm::DenseSet<clang::SourceLocation::UIntTy> ParallelLoops;
};

}  // namespace cilkpp
