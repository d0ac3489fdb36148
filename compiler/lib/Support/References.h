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

namespace detail {
struct FunctionVariableNames : clang::RecursiveASTVisitor<FunctionVariableNames> {
  bool Found = false;
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    const auto *V = clang::dyn_cast<clang::VarDecl>(E->getDecl());
    Found |= V && (V->hasLocalStorage() || V->isStaticLocal() || clang::isa<clang::ParmVarDecl>(V));
    return !Found;
  }
};
}  // namespace detail

// Whether E names a variable of a function.
inline bool namesVariable(const clang::Expr *E) {
  detail::FunctionVariableNames F;
  F.TraverseStmt(const_cast<clang::Expr *>(E));
  return F.Found;
}

// Whether T names a variable of a function (`decltype(k)` of a parameter or
// local, `std::array<long, n>` of a local constant), which a declaration
// outside it cannot.
inline bool namesVariable(clang::QualType T) {
  detail::FunctionVariableNames F;
  F.TraverseType(T);
  return F.Found;
}

}  // namespace cilkpp
