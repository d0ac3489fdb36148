#include "Analysis/ArgumentTemporaries.h"

#include "Support/Nameable.h"

#include "clang/AST/RecursiveASTVisitor.h"

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
  // The call makes a default argument's temporaries where it is, and they
  // die with the argument's declaration; in a held temporary's text (the
  // allocator of `std::string("a")`), with its lambda, as other temporaries
  // that the held one is made from.
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    if (Depth == 0) MadeByDefault |= createsTemporary(E->getExpr());
    return true;
  }
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
  bool MadeByDefault = false;

  static bool createsTemporary(const Expr *E) {
    TemporaryCollector C;
    C.TraverseStmt(const_cast<Expr *>(E));
    return !C.Found.empty() || C.MadeByDefault;
  }
};

// Whether E would mean something else in a lambda's body.
bool namesItsContext(const Expr *E, bool CPlusPlus20) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool CPlusPlus20 = false, Found = false;
    bool VisitPredefinedExpr(PredefinedExpr *) { return !(Found = true); }  // __func__
    bool VisitSourceLocExpr(SourceLocExpr *) { return !(Found = true); }
    // (`std::source_location::current()` is one, a default argument.)
    bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) { return TraverseStmt(E->getExpr()); }
    bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) { return TraverseStmt(E->getExpr()); }
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

// Parameters whose value may point into their argument's temporaries.
bool mayReferToArgument(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  return T->isPointerType() || T->isMemberPointerType() || T->isRecordType();
}

// held.h destroys it: the destructor must be public (not only to friends).
bool publiclyDestructible(QualType T) {
  const auto *Class = T->getAsCXXRecordDecl();
  if (!Class) return true;
  const CXXDestructorDecl *Destructor = Class->getDestructor();
  return !Destructor || (Destructor->getAccess() == AS_public && !Destructor->isDeleted());
}

bool canHold(ASTContext &Ctx, const MaterializeTemporaryExpr *E, const FunctionDecl *Procedure) {
  const QualType T = E->getType();
  if (E->getStorageDuration() != SD_FullExpression || T->isArrayType() || T->isDependentType() ||
      T->isIncompleteType() || !publiclyDestructible(T))
    return false;
  // (Spelled only where the text converts to it.)
  if (!madeAsWritten(Ctx, E) && (!isNameableOutsideFunction(T) || localClassIn(T) || hiddenMemberType(T, Procedure)))
    return false;
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID()) return false;
  return !namesItsContext(E, Ctx.getLangOpts().CPlusPlus20);
}

}  // namespace

bool madeAsWritten(ASTContext &Ctx, const MaterializeTemporaryExpr *E) {
  // (Not through an implicit conversion: a constructor's, `"a"` to a
  // std::string, or a conversion function's, a std::string to a view.)
  const Expr *Written = E->getSubExpr()->IgnoreUnlessSpelledInSource();
  // (A bare braced list has no type of its own: `{1, 2}`.)
  if (isa<InitListExpr>(Written)) return false;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Written);
      Construct && Construct->isListInitialization() && !isa<CXXTemporaryObjectExpr>(Construct))
    return false;
  return Written->isPRValue() && Written->getSourceRange() == E->getSourceRange() &&
         Ctx.hasSameUnqualifiedType(Written->getType(), E->getType());
}

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

ArgumentTemporaries argumentTemporaries(ASTContext &Ctx, const SpawnSite &Site, const FunctionDecl *Procedure,
                                        bool CilkCallee) {
  TemporaryCollector Collector;
  auto Collect = [&](const Expr *E) { Collector.TraverseStmt(const_cast<Expr *>(E)); };
  // (A plain callee's object is evaluated in its call, which keeps it.)
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Site.Call);
      Member && Member->getImplicitObjectArgument() && CilkCallee)
    Collect(Member->getImplicitObjectArgument());
  const Expr *Object = calledObject(Site);
  if (Object && CilkCallee) Collect(Object);
  ArgumentTemporaries Result;
  const std::vector<QualType> Params = parameterTypes(Site.Call);
  const unsigned First = Object ? 1 : 0;
  for (unsigned I = First; I < Site.Call->getNumArgs() && I - First < Params.size(); ++I) {
    const Expr *Arg = Site.Call->getArg(I);
    const QualType T = Params[I - First];
    if (!T->isReferenceType() && !mayReferToArgument(T)) continue;
    // (The call adds a default argument: its text is the callee's.)
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      Result.InDefaultArgument |= TemporaryCollector::createsTemporary(Default->getExpr());
    else
      Collect(Arg);
  }
  Result.Referenced = !Collector.Found.empty() || Collector.MadeByDefault;
  if (Collector.MadeByDefault) return Result;
  // Those inside another first: its lambda makes them again.
  llvm::stable_sort(Collector.Found, [](const auto &A, const auto &B) { return A.Depth > B.Depth; });
  for (const auto &T : Collector.Found) {
    if (!canHold(Ctx, T.Expr, Procedure)) {
      Result.Held.clear();
      return Result;
    }
    Result.Held.push_back(T.Expr);
  }
  return Result;
}

}  // namespace cilkpp
