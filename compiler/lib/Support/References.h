// Whether a piece of code names a variable.
#pragma once

#include "clang/AST/RecursiveASTVisitor.h"

namespace cilkpp {

// Whether S (or anything in it) names Var.
inline bool namesVariable(const clang::Stmt *S, const clang::VarDecl *Var) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::VarDecl *Var = nullptr;
    bool Found = false;
    bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
      Found |= E->getDecl() == Var;
      return !Found;
    }
  } F;
  F.Var = Var;
  F.TraverseStmt(const_cast<clang::Stmt *>(S));
  return F.Found;
}

}  // namespace cilkpp
