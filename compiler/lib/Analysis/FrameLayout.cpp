#include "Analysis/FrameLayout.h"

#include "Support/Diagnostics.h"
#include "Support/Instantiations.h"
#include "Support/Nameable.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

using VarSet = llvm::SetVector<const VarDecl *>;

// Walks the body keeping the variables in scope; at each continuation point
// everything in scope must be in the frame.
class ScopeWalker {
 public:
  ScopeWalker(const CilkProcedure &Proc, const FrameDescription &Frame) {
    for (const ContinuationPoint &P : Frame.Points) {
      switch (P.Kind) {
        case PointKind::Spawn: PointAt[Proc.Spawns[P.Site].Statement] = &P; break;
        case PointKind::Sync: PointAt[Proc.Syncs[P.Site].Marker] = &P; break;
        case PointKind::Return: PointAt[Proc.Returns[P.Site]] = &P; break;
        case PointKind::EndOfBody: End = &P; break;
        case PointKind::ScopeEnd: PointAt[Proc.Scopes[P.Site].Block] = &P; break;
        // A loop's back-edge is reached after its body, whose variables are
        // out of scope there; those of its header are not.
        case PointKind::Poll:
          if (const Stmt *Loop = Frame.PollSites[P.Site]) PointAt[Loop] = &P;
          else Entry = &P;
          break;
      }
    }
  }

  void run(const FunctionDecl *FD) {
    Scopes.emplace_back();
    for (const ParmVarDecl *P : FD->parameters()) declare(P);
    if (Entry) reach(Entry);
    walk(FD->getBody(), /*IsBody=*/true);
  }

  VarSet Fields;
  // The fields in scope at some point other than a poll point: those the
  // frame holds without poll points.
  llvm::DenseSet<const VarDecl *> Anchored;
  // The first continuation point each field is in scope across (other than
  // a poll point, if there is one).
  llvm::DenseMap<const VarDecl *, const ContinuationPoint *> FirstPoint;
  // Per poll point: the variables in scope there.
  llvm::DenseMap<const ContinuationPoint *, std::vector<const VarDecl *>> AtPoll;

 private:
  void declare(const VarDecl *V) {
    if (V->hasLocalStorage()) Scopes.back().push_back(V);
  }

  void reach(const ContinuationPoint *P) {
    for (const auto &Scope : Scopes)
      for (const VarDecl *V : Scope) {
        Fields.insert(V);
        if (P->Kind == PointKind::Poll) {
          AtPoll[P].push_back(V);
          FirstPoint.try_emplace(V, P);
        } else if (Anchored.insert(V).second) {
          FirstPoint[V] = P;
        }
      }
  }

  void walk(const Stmt *S, bool IsBody = false) {
    if (!S || isa<LambdaExpr>(S)) return;
    bool Opens = isa<CompoundStmt, ForStmt, IfStmt, WhileStmt, SwitchStmt, CXXForRangeStmt, CXXCatchStmt>(S);
    if (Opens) Scopes.emplace_back();
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D)) {
          if (const Expr *Init = V->getInit()) walk(Init);
          declare(V);
        }
    } else if (const auto *Catch = dyn_cast<CXXCatchStmt>(S)) {
      if (const VarDecl *V = Catch->getExceptionDecl()) declare(V);
      walk(Catch->getHandlerBlock());
    } else {
      for (const Stmt *Child : S->children()) walk(Child);
    }
    if (const ContinuationPoint *P = PointAt.lookup(S)) reach(P);
    if (IsBody && End) reach(End);
    if (Opens) Scopes.pop_back();
  }

  llvm::DenseMap<const Stmt *, const ContinuationPoint *> PointAt;
  const ContinuationPoint *End = nullptr, *Entry = nullptr;
  std::vector<std::vector<const VarDecl *>> Scopes;
};

// Does this use of a variable only read or overwrite its value, so that no
// pointer or reference to it can escape?
bool isValueUse(ParentMap &PM, const Expr *Use) {
  const Stmt *P = PM.getParentIgnoreParens(const_cast<Expr *>(Use));
  if (!P) return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) return Cast->getCastKind() == CK_LValueToRValue;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Use;
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) return UO->isIncrementDecrementOp();
  if (const auto *ME = dyn_cast<MemberExpr>(P)) return !ME->isArrow() && isValueUse(PM, ME);
  if (isa<UnaryExprOrTypeTraitExpr>(P)) return true;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(P))
    return CE->getConstructor()->isTrivial() && CE->getNumArgs() == 1;
  return false;
}

class AddressTakenFinder : public RecursiveASTVisitor<AddressTakenFinder> {
 public:
  AddressTakenFinder(ParentMap &PM, const VarSet &Fields) : PM(PM), Fields(Fields) {}
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (V && Fields.contains(V) && !isValueUse(PM, DR)) Taken.insert(V);
    return true;
  }
  // A lambda that captures a frame variable by reference may run as a
  // spawned child or outlive a continuation point: the variable must stay
  // where the lambda points. Arrays captured by copy cannot be re-captured
  // from the frame (an init-capture would decay them).
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures()) {
      if (!C.capturesVariable()) continue;
      const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
      if (!V || !Fields.contains(V)) continue;
      if (C.getCaptureKind() == LCK_ByRef) Taken.insert(V);
      else if (V->getType()->isArrayType()) ArraysCapturedByCopy.push_back({V, C.getLocation()});
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() != BO_Assign) return true;
    const auto *DR = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (V && Fields.contains(V) && V->getType()->isReferenceType()) AssignedThrough.insert(V);
    return true;
  }
  llvm::DenseSet<const VarDecl *> Taken;
  // References assigned through with `=` (`r = v;`).
  llvm::DenseSet<const VarDecl *> AssignedThrough;
  std::vector<std::pair<const VarDecl *, SourceLocation>> ArraysCapturedByCopy;

 private:
  ParentMap &PM;
  const VarSet &Fields;
};

// The block whose end ends a variable's lifetime: the one a local is
// declared directly in, the body for a parameter, or nullptr (for-init,
// condition variables).
const CompoundStmt *enclosingBlock(ParentMap &PM, const Stmt *Body, const VarDecl *V) {
  if (isa<ParmVarDecl>(V)) return dyn_cast<CompoundStmt>(Body);
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    const DeclStmt *Found = nullptr;
    bool VisitDeclStmt(DeclStmt *DS) {
      for (const Decl *D : DS->decls())
        if (D == V) Found = DS;
      return !Found;
    }
  } F;
  F.V = V;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found ? dyn_cast_or_null<CompoundStmt>(PM.getParent(const_cast<DeclStmt *>(F.Found))) : nullptr;
}

// The local variable whose storage an lvalue designates part of (`a[i]` of
// an array, `s.x`), or nullptr when it designates memory reached through a
// pointer or reference.
const VarDecl *localStorageOf(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      return V && V->hasLocalStorage() && !V->getType()->isReferenceType() ? V : nullptr;
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay = dyn_cast<ImplicitCastExpr>(Sub->getBase()->IgnoreParens());
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay) return nullptr;
      E = Decay->getSubExpr();
    } else if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
      E = M->getBase();
    } else {
      return nullptr;
    }
  }
}

// A class-type local whose lifetime the generated code manages: declared
// directly in a block (so the block's end destroys it), destructible.
bool isManageable(ParentMap &PM, const Stmt *Body, const VarDecl *V, const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition() || RD->isLambda()) return false;
  const CXXDestructorDecl *D = RD->getDestructor();
  if (D && (D->isDeleted() || D->getAccess() == AS_private || D->getAccess() == AS_protected)) return false;
  return enclosingBlock(PM, Body, V) != nullptr;
}

// A reference the frame can hold as a pointer: a parameter, or a local bound
// to an object that outlives it (not to a temporary it keeps alive).
bool isStorableReference(const VarDecl *V) {
  if (!V->getType()->isReferenceType() || !isNameableOutsideFunction(V->getType().getNonReferenceType())) return false;
  if (isa<ParmVarDecl>(V)) return true;
  const Expr *Init = V->getInit();
  if (!Init) return false;
  while (true) {
    if (isa<MaterializeTemporaryExpr>(Init)) return false;
    if (const auto *C = dyn_cast<ExprWithCleanups>(Init)) Init = C->getSubExpr();
    else if (const auto *P = dyn_cast<ParenExpr>(Init)) Init = P->getSubExpr();
    else if (const auto *I = dyn_cast<ImplicitCastExpr>(Init)) Init = I->getSubExpr();
    else return true;
  }
}

// Can V be a frame field at all (FrameDescription.h)?
bool isSupportedField(ASTContext &Ctx, ParentMap &PM, const Stmt *Body, const VarDecl *V) {
  QualType T = V->getType();
  if (isa<DecompositionDecl>(V)) return false;
  if (isStorableReference(V)) return true;
  return !T->isReferenceType() && isNameableOutsideFunction(T) &&
         (T.isTriviallyCopyableType(Ctx) || isManageable(PM, Body, V, T->getAsCXXRecordDecl()));
}

bool reportUnsupportedField(ASTContext &Ctx, const VarDecl *V, const ContinuationPoint *P);

bool checkFieldType(ASTContext &Ctx, ParentMap &PM, const Stmt *Body, const VarDecl *V, const ContinuationPoint *P) {
  return isSupportedField(Ctx, PM, Body, V) || reportUnsupportedField(Ctx, V, P);
}

bool reportUnsupportedField(ASTContext &Ctx, const VarDecl *V, const ContinuationPoint *P) {
  QualType T = V->getType();
  const char *Across = P->Kind == PointKind::Spawn ? "spawn" : P->Kind == PointKind::Poll ? "poll point" : "sync";
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  // Structured bindings are lowered to plain locals before translation,
  // except in templates; the object they name has no name of its own.
  std::string Name = V->getName().str();
  if (const auto *D = dyn_cast<DecompositionDecl>(V)) {
    std::vector<std::string> Names;
    for (const BindingDecl *B : D->bindings()) Names.push_back(B->getName().str());
    Name = fmt::format("[{}]", fmt::join(Names, ", "));
  }
  diag::report(Diags, V->getLocation(), diag::LiveVariableUnsupported) << Name << T << Across;
  const char *What = P->Kind == PointKind::Spawn      ? "spawn"
                     : P->Kind == PointKind::Sync     ? "sync"
                     : P->Kind == PointKind::Poll     ? "poll point"
                     : P->Kind == PointKind::ScopeEnd ? "implicit sync at the end of cilk_scope"
                                                      : "implicit sync at return";
  diag::report(Diags, P->Loc, diag::NoteContinuationPoint) << What;
  // Instantiations are translated as explicit specializations, which must
  // spell every type in them.
  if (const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
      RD && (RD->getParentFunctionOrMethod() || RD->isLambda())) {
    const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
    if (FD && (FD->isTemplateInstantiation() || FD->getParent()->isDependentContext() ||
               isa<ClassTemplateSpecializationDecl>(FD->getParent())))
      diag::report(Diags, V->getLocation(), diag::NoteClosureTypeInTemplate)
          << (!RD->isLambda() ? 1 : RD->getParentFunctionOrMethod() ? 0 : 2);
  }
  // Bindings outside templates are always lowered (StatementLowering.cpp).
  if (isa<DecompositionDecl>(V)) diag::report(Diags, V->getLocation(), diag::NoteBindingsInTemplate);
  return false;
}

// Records, for each spawn statement, the fields live right after it.
class SpawnLiveness : public LiveVariables::Observer {
 public:
  SpawnLiveness(const CilkProcedure &Proc, const VarSet &Fields) : Fields(Fields) {
    for (unsigned I = 0; I < Proc.Spawns.size(); ++I) {
      SiteOf[Proc.Spawns[I].Statement] = I;
      SiteOf[Proc.Spawns[I].Call] = I;
    }
    Live.resize(Proc.Spawns.size());
  }
  void observeStmt(const Stmt *S, const CFGBlock *, const LiveVariables::LivenessValues &V) override {
    auto It = SiteOf.find(S);
    if (It == SiteOf.end()) return;
    for (const VarDecl *F : Fields)
      if (V.isLive(F)) Live[It->second].insert(F);
  }
  std::vector<llvm::DenseSet<const VarDecl *>> Live;

 private:
  const VarSet &Fields;
  llvm::DenseMap<const Stmt *, unsigned> SiteOf;
};

void shareResidencyWithinDeclarations(Stmt *Body, const VarSet &Fields,
                                      llvm::DenseSet<const VarDecl *> &Resident) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const VarSet &Fields;
    llvm::DenseSet<const VarDecl *> &Resident;
    Visitor(const VarSet &F, llvm::DenseSet<const VarDecl *> &R) : Fields(F), Resident(R) {}
    bool VisitDeclStmt(DeclStmt *DS) {
      bool Any = false;
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D)) Any |= Resident.contains(V);
      if (Any)
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D); V && Fields.contains(V)) Resident.insert(V);
      return true;
    }
  } V(Fields, Resident);
  V.TraverseStmt(Body);
}

}  // namespace

bool computeFrameLayout(ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame) {
  const FunctionDecl *FD = Proc.Definition;
  for (unsigned I = 0; I < Proc.Spawns.size(); ++I) {
    const SpawnSite &S = Proc.Spawns[I];
    if (!S.Target && !S.TargetLValue) continue;
    const QualType Result = S.Call->getCallReturnType(Ctx).getUnqualifiedType();
    const QualType Target = S.Target ? S.Target->getType() : S.TargetLValue->getType();
    if (!Ctx.hasSameType(Result.getCanonicalType(), Target.getCanonicalType().getUnqualifiedType()))
      Frame.ConvertedResults.push_back(
          {I, Result, S.TargetLValue ? Ctx.getPointerType(S.TargetLValue->getType()) : QualType()});
  }
  ScopeWalker Walker(Proc, Frame);
  Walker.run(FD);

  ParentMap PM(FD->getBody());
  bool Ok = true;
  for (const VarDecl *V : Walker.Fields) Ok &= checkFieldType(Ctx, PM, FD->getBody(), V, Walker.FirstPoint[V]);
  if (!Ok) return false;

  AddressTakenFinder Taken(PM, Walker.Fields);
  Taken.TraverseStmt(FD->getBody());
  for (const auto &[V, Loc] : Taken.ArraysCapturedByCopy) {
    diag::report(Ctx.getDiagnostics(), Loc, diag::LambdaCapturesFrameVariable) << V->getName();
    Ok = false;
  }
  if (!Ok) return false;

  // A reference's address is its referent's, wherever the frame keeps it.
  llvm::DenseSet<const VarDecl *> Resident;
  for (const VarDecl *V : Taken.Taken)
    if (!V->getType()->isReferenceType()) Resident.insert(V);
  // `r = v;` through a reference is not a use of `r` to liveness analysis
  // (it counts assignments as definitions), so the fast clone would not save
  // the reference at a spawn before it; such a reference lives in the frame.
  for (const VarDecl *V : Taken.AssignedThrough) Resident.insert(V);
  // A spawn that assigns to part of a local (`a[i] = spawn ...`) hands the
  // child that part's address.
  for (const SpawnSite &S : Proc.Spawns)
    if (const VarDecl *V = S.TargetLValue ? localStorageOf(S.TargetLValue) : nullptr; V && Walker.Fields.contains(V))
      Resident.insert(V);
  llvm::DenseSet<const VarDecl *> Managed;
  for (const VarDecl *V : Walker.Fields)
    if (!V->getType()->isReferenceType() && !V->getType().isTriviallyCopyableType(Ctx))
      Managed.insert(V), Resident.insert(V);
  // Variables declared together are rewritten together, so they share
  // residency.
  shareResidencyWithinDeclarations(FD->getBody(), Walker.Fields, Resident);

  // The fast clone stores a live variable by naming it at the spawn, which
  // would find the wrong one if it were shadowed there.
  llvm::StringMap<unsigned> NameCount;
  // (Pack elements have names of their own: parameterName.)
  auto NameOf = [](const VarDecl *V) {
    const auto *Param = dyn_cast<ParmVarDecl>(V);
    return Param ? parameterName(Param) : V->getName().str();
  };
  for (const VarDecl *V : Walker.Fields) ++NameCount[NameOf(V)];
  for (const VarDecl *V : Walker.Fields)
    if (NameCount[NameOf(V)] > 1) Resident.insert(V);

  llvm::StringSet<> Used;
  for (const VarDecl *V : Walker.Fields) {
    const auto *Param = dyn_cast<ParmVarDecl>(V);
    const std::string Base = Param ? parameterName(Param) : V->getName().str();
    std::string Name = Base;
    for (unsigned Suffix = 1; !Used.insert(Name).second; ++Suffix) Name = Base + "_" + std::to_string(Suffix);
    Frame.FieldIndex[V] = Frame.Fields.size();
    Frame.Fields.push_back({V, Name, Resident.contains(V), Managed.contains(V), V->getType()->isReferenceType(),
                            Managed.contains(V) ? enclosingBlock(PM, FD->getBody(), V) : nullptr});
    Frame.EagerFrame |= Resident.contains(V);
  }

  if (Proc.Spawns.empty()) return true;
  AnalysisDeclContextManager Manager(Ctx);
  AnalysisDeclContext *ADC = Manager.getContext(FD);
  // Liveness needs every variable reference to be a CFG element.
  ADC->getCFGBuildOptions().setAllAlwaysAdd();
  LiveVariables *LV = ADC ? ADC->getAnalysis<LiveVariables>() : nullptr;
  if (!LV) {
    diag::report(Ctx.getDiagnostics(), FD->getLocation(), diag::CfgUnavailable) << FD->getName();
    return false;
  }
  SpawnLiveness Liveness(Proc, Walker.Fields);
  LV->runOnAllBlocks(Liveness);
  for (ContinuationPoint &P : Frame.Points) {
    if (P.Kind != PointKind::Spawn) continue;
    const VarDecl *Target = Proc.Spawns[P.Site].Target;
    for (const FrameField &F : Frame.Fields)
      if (!F.ResidentOnFastPath && F.Var != Target && Liveness.Live[P.Site].contains(F.Var))
        P.FastPathSaves.push_back(F.Var);
  }
  return true;
}

}  // namespace cilkpp
