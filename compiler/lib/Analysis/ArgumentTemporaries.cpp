#include "Analysis/ArgumentTemporaries.h"

#include "Support/Nameable.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cilkpp {
namespace {

// The temporaries an expression materializes where it is evaluated: not in
// lambdas (their bodies run later) nor in unevaluated operands.
class TemporaryCollector : public RecursiveASTVisitor<TemporaryCollector> {
 public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E) {
    return E->isPotentiallyEvaluated() ? RecursiveASTVisitor::TraverseCXXTypeidExpr(E) : true;
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }
  bool TraverseMaterializeTemporaryExpr(MaterializeTemporaryExpr *E) {
    Found.push_back({E, Depth});
    ++Depth;
    const bool Continue = RecursiveASTVisitor::TraverseMaterializeTemporaryExpr(E);
    --Depth;
    return Continue;
  }
  struct Temporary {
    const MaterializeTemporaryExpr *Expr;
    unsigned Depth;  // how many of the others it is part of
  };
  std::vector<Temporary> Found;
  unsigned Depth = 0;
};

// Whether E would mean something else in a lambda's body.
bool namesItsContext(const Expr *E, bool CPlusPlus20) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool CPlusPlus20 = false, Found = false;
    bool VisitPredefinedExpr(PredefinedExpr *) { return !(Found = true); }  // __func__
    bool VisitSourceLocExpr(SourceLocExpr *) { return !(Found = true); }
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      // (Captured by lambdas only from C++20 on.)
      if (isa<BindingDecl>(R->getDecl()) && !CPlusPlus20) Found = true;
      return !Found;
    }
  } F;
  F.CPlusPlus20 = CPlusPlus20;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

bool createsTemporary(const Expr *E) {
  TemporaryCollector C;
  C.TraverseStmt(const_cast<Expr *>(E));
  return !C.Found.empty();
}

// Parameters whose value may point into their argument's temporaries.
bool mayReferToArgument(QualType T, ASTContext &Ctx) {
  T = T.getNonReferenceType().getCanonicalType();
  return T->isPointerType() || T->isMemberPointerType() || (T->isRecordType() && T.isTriviallyCopyableType(Ctx));
}

bool canHold(ASTContext &Ctx, const MaterializeTemporaryExpr *E) {
  const QualType T = E->getType();
  if (E->getStorageDuration() != SD_FullExpression || T->isArrayType() || T->isDependentType() ||
      T->isIncompleteType() || !isNameableOutsideFunction(T) || localClassIn(T))
    return false;
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID()) return false;
  return !namesItsContext(E, Ctx.getLangOpts().CPlusPlus20);
}

}  // namespace

const Expr *calledObject(const SpawnSite &Site) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Site.Call);
  return Op ? Op->getArg(0) : nullptr;
}

std::vector<QualType> parameterTypes(const CallExpr *Call) {
  std::vector<QualType> Types;
  if (const FunctionDecl *Callee = Call->getDirectCallee()) {
    for (const ParmVarDecl *P : Callee->parameters()) Types.push_back(P->getType());
    return Types;
  }
  QualType T = Call->getCallee()->getType();
  if (const auto *Ptr = T->getAs<PointerType>()) T = Ptr->getPointeeType();
  if (const auto *Proto = T.getNonReferenceType()->getAs<FunctionProtoType>())
    Types.assign(Proto->param_type_begin(), Proto->param_type_end());
  return Types;
}

ArgumentTemporaries argumentTemporaries(ASTContext &Ctx, const SpawnSite &Site, bool CilkCallee) {
  TemporaryCollector Collector;
  auto Collect = [&](const Expr *E) { Collector.TraverseStmt(const_cast<Expr *>(E)); };
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Site.Call); Member && Member->getImplicitObjectArgument())
    Collect(Member->getImplicitObjectArgument());
  const Expr *Object = calledObject(Site);
  if (Object && CilkCallee) Collect(Object);
  ArgumentTemporaries Result;
  const std::vector<QualType> Params = parameterTypes(Site.Call);
  const unsigned First = Object ? 1 : 0;
  for (unsigned I = First; I < Site.Call->getNumArgs() && I - First < Params.size(); ++I) {
    const Expr *Arg = Site.Call->getArg(I);
    const QualType T = Params[I - First];
    if (!T->isReferenceType() && !mayReferToArgument(T, Ctx)) continue;
    // (The call adds a default argument: its text is the callee's.)
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      Result.InDefaultArgument |= createsTemporary(Default->getExpr());
    else
      Collect(Arg);
  }
  Result.Referenced = !Collector.Found.empty();
  // Those inside another first: its lambda makes them again.
  llvm::stable_sort(Collector.Found, [](const auto &A, const auto &B) { return A.Depth > B.Depth; });
  for (const auto &T : Collector.Found) {
    if (!canHold(Ctx, T.Expr)) {
      Result.Held.clear();
      return Result;
    }
    Result.Held.push_back(T.Expr);
  }
  return Result;
}

}  // namespace cilkpp
