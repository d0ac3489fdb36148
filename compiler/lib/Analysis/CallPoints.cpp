#include "Analysis/CallPoints.h"

#include "Analysis/ContinuationPoints.h"
#include "Analysis/OwnCode.h"
#include "Sema/ProcedureChecks.h"
#include "Sema/StatementPosition.h"
#include "Support/Nameable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace cilkpp {
namespace {

// The calls of the procedure's own code, outside try blocks; whether it has
// a goto.
class CallCollector : public OwnCodeVisitor<CallCollector> {
 public:
  using OwnCodeVisitor::OwnCodeVisitor;
  bool TraverseCXXTryStmt(CXXTryStmt *) { return true; }
  bool VisitCallExpr(CallExpr *C) {
    Calls.push_back(C);
    return true;
  }
  bool VisitStmt(Stmt *S) {
    HasGoto |= isa<GotoStmt, IndirectGotoStmt>(S);
    return true;
  }
  std::vector<const CallExpr *> Calls;
  bool HasGoto = false;
};

// Arguments the fast clone's call can take as written: no temporary whose
// lifetime the statement would end, no default argument (a fast clone
// declares none).
bool hasPlainArguments(const CallExpr *Call) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitStmt(Stmt *S) {
      Found |= isa<MaterializeTemporaryExpr, CXXBindTemporaryExpr, CXXDefaultArgExpr, PackExpansionExpr>(S);
      return !Found;
    }
  } F;
  for (const Expr *Arg : Call->arguments()) F.TraverseStmt(const_cast<Expr *>(Arg));
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    F.TraverseStmt(const_cast<Expr *>(Member->getImplicitObjectArgument()));
  return !F.Found;
}

bool hasSimpleResult(ASTContext &Ctx, const CallExpr *Call) {
  const QualType R = Call->getCallReturnType(Ctx);
  return R->isVoidType() || (!R->isReferenceType() && R.isTriviallyCopyableType(Ctx) && !R->isArrayType());
}

// The target's type is the callee's result type: no conversion to deliver.
bool receivesResult(ASTContext &Ctx, const CallExpr *Call, const VarDecl *Target) {
  const QualType R = Call->getCallReturnType(Ctx);
  return !Target->getType()->isReferenceType() && !R->isVoidType() &&
         Ctx.hasSameType(R.getCanonicalType().getUnqualifiedType(),
                         Target->getType().getCanonicalType().getUnqualifiedType());
}

// The call as a spawn-like site (SpawnSite), or nothing when it is not in
// one of the three statement forms.
std::optional<SpawnSite> callSite(ASTContext &Ctx, ParentMap &PM, const CallExpr *Call) {
  SpawnSite Site;
  Site.Call = Call;
  Site.Callee = Call->getDirectCallee();
  Site.KeywordLoc = Ctx.getSourceManager().getExpansionLoc(Call->getBeginLoc());
  const Stmt *Parent = PM.getParentIgnoreParenImpCasts(const_cast<CallExpr *>(Call));
  if (isStatementPosition(PM, Call)) {
    Site.Form = SpawnForm::Discard;
    Site.Statement = Call;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent);
             BO && BO->getOpcode() == BO_Assign && BO->getRHS()->IgnoreParenImpCasts() == Call &&
             isStatementPosition(PM, BO)) {
    const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || !receivesResult(Ctx, Call, Var)) return std::nullopt;
    Site.Form = SpawnForm::Assign;
    Site.Statement = BO;
    Site.Target = Var;
    Site.KeywordLoc = Ctx.getSourceManager().getExpansionLoc(BO->getBeginLoc());
  } else if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Parent);
             Decl && Decl->isSingleDecl() && isStatementPosition(PM, Decl)) {
    const auto *Var = dyn_cast<VarDecl>(Decl->getSingleDecl());
    if (!Var || !Var->getInit() || Var->getInit()->IgnoreParenImpCasts() != Call || !receivesResult(Ctx, Call, Var) ||
        Var->isStaticLocal())
      return std::nullopt;
    // The clone declares the target, then assigns the result: a class whose
    // default constructor does something would see one more construction.
    if (const CXXRecordDecl *RD = Var->getType()->getAsCXXRecordDecl(); RD && !RD->hasTrivialDefaultConstructor())
      return std::nullopt;
    Site.Form = SpawnForm::Declare;
    Site.Statement = Decl;
    Site.Target = Var;
    Site.KeywordLoc = Ctx.getSourceManager().getExpansionLoc(Decl->getBeginLoc());
  } else {
    return std::nullopt;
  }
  Site.InCompound = declaresIntoBlock(PM, Site.Statement);
  return Site;
}

bool isWrittenInFile(const SourceManager &SM, const Stmt *S) {
  return !S->getBeginLoc().isMacroID() && !S->getEndLoc().isMacroID() && SM.isWrittenInMainFile(S->getBeginLoc());
}

// Parameters the body assigns, increments or takes the address of.
llvm::DenseSet<const VarDecl *> changedParameters(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::DenseSet<const VarDecl *> Changed;
    void note(const Expr *E) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl())) Changed.insert(P);
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp()) note(B->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) note(U->getSubExpr());
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(F.Changed);
}

// An argument that cannot lead to the caller's own storage.
bool refersOutside(const Expr *Arg, const llvm::DenseSet<const VarDecl *> &Changed) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const llvm::DenseSet<const VarDecl *> &Changed;
    bool Inside = false;
    explicit Finder(const llvm::DenseSet<const VarDecl *> &C) : Changed(C) {}
    bool VisitUnaryOperator(UnaryOperator *U) {
      Inside |= U->getOpcode() == UO_AddrOf;
      return !Inside;
    }
    bool VisitLambdaExpr(LambdaExpr *) {
      Inside = true;
      return false;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || !V->hasLocalStorage()) return true;
      const QualType T = V->getType();
      // (A closure parameter the body leaves alone is copied into the callee.)
      if (T->isArrayType() || (T->isRecordType() && !(isa<ParmVarDecl>(V) && !Changed.contains(V) &&
                                                       isPlainClosure(V->getASTContext(), T))))
        Inside = true;
      if ((T->isPointerType() || T->isReferenceType()) && (!isa<ParmVarDecl>(V) || Changed.contains(V))) Inside = true;
      return !Inside;
    }
  } F(Changed);
  F.TraverseStmt(const_cast<Expr *>(Arg));
  return !F.Inside;
}

// An argument bound to a reference parameter that names the caller's own
// storage (a local or by-value parameter, or a member or element of one):
// the callee would keep referring to it after a tail call's caller has
// returned.
bool bindsOwnStorage(const Expr *Arg) {
  for (const Expr *E = Arg->IgnoreParenImpCasts();;) {
    // `static_cast<T &&>(x)`, `std::move(x)`, `std::forward<T>(x)`.
    if (const auto *Cast = dyn_cast<CXXNamedCastExpr>(E); Cast && Cast->getTypeAsWritten()->isReferenceType()) {
      E = Cast->getSubExpr()->IgnoreParenImpCasts();
    } else if (const auto *Call = dyn_cast<CallExpr>(E);
               Call && Call->getNumArgs() == 1 && Call->getDirectCallee() && Call->getDirectCallee()->isInStdNamespace() &&
               Call->getDirectCallee()->getDeclName().isIdentifier() &&
               (Call->getDirectCallee()->getName() == "move" || Call->getDirectCallee()->getName() == "forward")) {
      E = Call->getArg(0)->IgnoreParenImpCasts();
    } else if (const auto *Member = dyn_cast<MemberExpr>(E); Member && !Member->isArrow()) {
      E = Member->getBase()->IgnoreParenImpCasts();
    } else if (const auto *Element = dyn_cast<ArraySubscriptExpr>(E);
               Element && Element->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      E = Element->getBase()->IgnoreParenImpCasts();
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      return V && V->hasLocalStorage() && !V->getType()->isReferenceType();
    } else {
      return false;
    }
  }
}

bool hasDestructibleLocal(const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitVarDecl(VarDecl *V) {
      const CXXRecordDecl *RD = V->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
      Found |= V->hasLocalStorage() && RD && RD->hasDefinition() && !RD->hasTrivialDestructor();
      return !Found;
    }
  } F;
  for (const ParmVarDecl *P : FD->parameters()) F.VisitVarDecl(const_cast<ParmVarDecl *>(P));
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

const CallExpr *tailCall(ASTContext &Ctx, const CilkProcedureSet &CilkFunctions, ParentMap &PM,
                         const FunctionDecl *FD, const ReturnStmt *R, const llvm::DenseSet<const VarDecl *> &Changed) {
  const Expr *Value = R->getRetValue();
  const auto *Call = Value ? dyn_cast<CallExpr>(Value->IgnoreImplicit()) : nullptr;
  // Called by name, or a member through an object (the fast clone's call
  // names the callee's fast clone and passes the object's address first).
  if (!Call || isa<CXXOperatorCallExpr>(Call) || !isCallPointCallee(CilkFunctions, Call)) return nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    // The object must outlive the caller's fast clone, and evaluating it
    // among the arguments must change nothing.
    const Expr *Object = Member->getImplicitObjectArgument();
    const auto *ME = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
    if (!ME || Object->HasSideEffects(Ctx) || !refersOutside(Object, Changed) ||
        (!ME->isArrow() && bindsOwnStorage(Object)))
      return nullptr;
  } else if (!isa<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
    return nullptr;
  }
  const QualType Result = Call->getCallReturnType(Ctx), Own = FD->getReturnType();
  if (Result->isReferenceType() || !Ctx.hasSameType(Result.getCanonicalType().getUnqualifiedType(),
                                                    Own.getCanonicalType().getUnqualifiedType()))
    return nullptr;
  if (!Result->isVoidType() && (!Result.isTriviallyCopyableType(Ctx) || Result->isRecordType())) return nullptr;
  for (const Stmt *S = R; S; S = PM.getParent(const_cast<Stmt *>(S)))
    if (isa<CXXTryStmt, CXXCatchStmt, StmtExpr>(S)) return nullptr;
  if (!llvm::all_of(Call->arguments(), [&](const Expr *Arg) { return refersOutside(Arg, Changed); })) return nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
    if (Callee->getParamDecl(I)->getType()->isReferenceType() && bindsOwnStorage(Call->getArg(I))) return nullptr;
  return Call;
}

}  // namespace

bool isCallPointCallee(const CilkProcedureSet &CilkFunctions, const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !CilkFunctions.contains(Callee)) return false;
  // Of operators, only a function object's call (`(*this)(n - 1)`, `f(n)`).
  const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
  if (Operator && (Operator->getOperator() != OO_Call || !isa<CXXMethodDecl>(Callee))) return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee)) {
    if (Method->isVirtual() || (!isa<CXXMemberCallExpr>(Call) && !Operator && !Method->isStatic())) return false;
  } else if (isa<CXXMemberCallExpr>(Call)) {
    return false;
  }
  return hasPlainArguments(Call);
}

bool makesNoTailCalls(const CilkProcedure &Proc) {
  CallCollector Collector(Proc);
  Collector.TraverseStmt(Proc.Definition->getBody());
  return Collector.HasGoto || hasDestructibleLocal(Proc.Definition);
}

void findCallPoints(ASTContext &Ctx, const CilkProcedureSet &CilkFunctions, FrameDescription &Frame) {
  const CilkProcedure &Proc = *Frame.Procedure;
  Stmt *Body = Proc.Definition->getBody();
  CallCollector Collector(Proc);
  Collector.TraverseStmt(Body);
  Frame.TailCalls.assign(Proc.Returns.size(), nullptr);
  if (Collector.HasGoto) return;
  const SourceManager &SM = Ctx.getSourceManager();
  ParentMap PM(Body);
  llvm::DenseSet<const CallExpr *> Spawned;
  for (const SpawnSite &S : Proc.Spawns) Spawned.insert(S.Call);
  for (const CallExpr *Call : Collector.Calls) {
    if (Spawned.contains(Call) || !isCallPointCallee(CilkFunctions, Call) || !hasSimpleResult(Ctx, Call)) continue;
    std::optional<SpawnSite> Site = callSite(Ctx, PM, Call);
    if (!Site || !isWrittenInFile(SM, Site->Statement) || unsupportedEnclosingConstruct(PM, Site->Statement)) continue;
    Frame.Points.push_back({PointKind::Call, 0, static_cast<unsigned>(Frame.Calls.size()), Site->KeywordLoc, {}});
    Frame.Calls.push_back(*Site);
  }
  numberContinuationPoints(SM, Frame);

  if (hasDestructibleLocal(Proc.Definition)) return;
  const llvm::DenseSet<const VarDecl *> Changed = changedParameters(Body);
  for (unsigned I = 0; I < Proc.Returns.size(); ++I)
    if (isWrittenInFile(SM, Proc.Returns[I]))
      Frame.TailCalls[I] = tailCall(Ctx, CilkFunctions, PM, Proc.Definition, Proc.Returns[I], Changed);
}

}  // namespace cilkpp
