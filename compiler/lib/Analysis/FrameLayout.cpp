#include "Analysis/FrameLayout.h"

#include "Analysis/ArgumentTemporaries.h"
#include "Analysis/ContinuationPoints.h"
#include "Analysis/PollPoints.h"
#include "Support/Diagnostics.h"
#include "Support/Instantiations.h"
#include "Support/KnownConstants.h"
#include "Support/Movable.h"
#include "Support/Nameable.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <map>

using namespace clang;

namespace cilkpp {
namespace {

using VarSet = llvm::SetVector<const VarDecl *>;

// Poll, call and settle points may be dropped (dropCostlyOptionalPoints).
bool isOptional(const ContinuationPoint &P) {
  return P.Kind == PointKind::Poll || P.Kind == PointKind::Call || P.Kind == PointKind::Settle;
}

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
        case PointKind::Call: PointAt[Frame.Calls[P.Site].Statement] = &P; break;
        // (After the whole try statement: its block's and handlers'
        // variables are out of scope where it resumes.)
        case PointKind::Settle: PointAt[Frame.Tries[P.Site]] = &P; break;
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
  // The fields in scope at some point other than an optional one (a poll or
  // call point): those the frame holds without optional points.
  llvm::DenseSet<const VarDecl *> Anchored;
  // The first continuation point each field is in scope across (other than
  // an optional one, if there is one).
  llvm::DenseMap<const VarDecl *, const ContinuationPoint *> FirstPoint;
  // Per optional point: the variables in scope there.
  llvm::DenseMap<const ContinuationPoint *, std::vector<const VarDecl *>> AtOptional;

 private:
  void declare(const VarDecl *V) {
    if (V->hasLocalStorage()) Scopes.back().push_back(V);
  }

  void reach(const ContinuationPoint *P) {
    for (const auto &Scope : Scopes)
      for (const VarDecl *V : Scope) {
        Fields.insert(V);
        if (isOptional(*P)) {
          AtOptional[P].push_back(V);
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

bool isValueUse(ParentMap &PM, const Expr *Use);

// Is the decayed array only indexed (`a[i]`), with the element only read or
// overwritten?
bool isElementUse(ParentMap &PM, const Expr *Decayed) {
  const auto *Subscript = dyn_cast_or_null<ArraySubscriptExpr>(PM.getParentIgnoreParens(const_cast<Expr *>(Decayed)));
  return Subscript && Subscript->getBase()->IgnoreParens() == Decayed && isValueUse(PM, Subscript);
}

// Does this use of a variable only read or overwrite its value, so that no
// pointer or reference to it can escape?
bool isValueUse(ParentMap &PM, const Expr *Use) {
  const Stmt *P = PM.getParentIgnoreParens(const_cast<Expr *>(Use));
  if (!P) return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
    switch (Cast->getCastKind()) {
      case CK_LValueToRValue: return true;
      // Adding const (an object being copied) or naming a base's subobject
      // (a base's member): what the resulting lvalue goes to decides.
      case CK_NoOp:
      case CK_UncheckedDerivedToBase:
      case CK_DerivedToBase: return isValueUse(PM, Cast);
      // An array member's element; an array variable itself stays in the
      // frame, which the fast clone could not assign it to at a spawn.
      case CK_ArrayToPointerDecay: return !isa<DeclRefExpr>(Use->IgnoreParens()) && isElementUse(PM, Cast);
      default: return false;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Use;
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) return UO->isIncrementDecrementOp();
  if (const auto *ME = dyn_cast<MemberExpr>(P)) return !ME->isArrow() && isValueUse(PM, ME);
  if (isa<UnaryExprOrTypeTraitExpr>(P)) return true;
  // Calling a named closure (Nameable.h), which keeps no pointer to itself.
  if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(P); Call && Call->getOperator() == OO_Call &&
                                                            Call->getArg(0)->IgnoreParens() == Use) {
    const auto *Op = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    return Op && isNamedClosure(Op->getParent());
  }
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

// The statement that declares a local of the body, or nullptr.
const DeclStmt *declarationOf(const Stmt *Body, const VarDecl *V) {
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
  return F.Found;
}

// The block whose end ends a variable's lifetime: the one a local is
// declared directly in, the body for a parameter, or nullptr (for-init,
// condition variables).
const CompoundStmt *enclosingBlock(ParentMap &PM, const Stmt *Body, const VarDecl *V) {
  if (isa<ParmVarDecl>(V)) return dyn_cast<CompoundStmt>(Body);
  const DeclStmt *Declaration = declarationOf(Body, V);
  return Declaration ? dyn_cast_or_null<CompoundStmt>(PM.getParent(const_cast<DeclStmt *>(Declaration))) : nullptr;
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

// The class whose objects a managed field holds: its type, or the element
// type of a C array of it (`std::string names[3]`, constructed and destroyed
// as a whole). Null for an array of unknown or variable bound.
const CXXRecordDecl *managedClassOf(ASTContext &Ctx, QualType T) {
  if (!T->isArrayType()) return T->getAsCXXRecordDecl();
  for (const ArrayType *Array = Ctx.getAsArrayType(T); Array; Array = Ctx.getAsArrayType(Array->getElementType()))
    if (!isa<ConstantArrayType>(Array)) return nullptr;
  return T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
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

// A std::initializer_list points at an array that is a temporary of its
// declaration: in a frame it would outlive the fast clone's stack. (A
// parameter's is the caller's, which outlives the call.)
bool isInitializerList(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->getName() == "initializer_list" && RD->isInStdNamespace();
}

// Can V be a frame field at all (FrameDescription.h)? Frames are aligned to
// 64 bytes (runtime/include/cilkpp/rt/frame_pool.h, kFrameAlign).
bool isSupportedField(ASTContext &Ctx, ParentMap &PM, const Stmt *Body, const VarDecl *V) {
  QualType T = V->getType();
  if (!T->isReferenceType() && Ctx.getDeclAlign(V).getQuantity() > 64) return false;
  if (isa<DecompositionDecl>(V) || (isInitializerList(T) && !isa<ParmVarDecl>(V))) return false;
  // (A hidden type may be named through a call that returns it.)
  if (const auto *Function = dyn_cast<FunctionDecl>(V->getDeclContext());
      Function && hiddenMemberType(T, Function) && !hasHiddenTypeSource(V, Function))
    return false;
  if (isStorableReference(V)) return true;
  return !T->isReferenceType() && isNameableOutsideFunction(T) &&
         (T.isTriviallyCopyableType(Ctx) || isManageable(PM, Body, V, managedClassOf(Ctx, T)));
}

// Constructed in the frame and destroyed by the generated code.
// A class whose destructor is declared (or, through a member or base,
// implicitly) noexcept(false). The frame destroys its objects in noexcept
// code. (A destructor whose specification is not computed yet is not
// reported.)
bool mayThrowOnDestruction(const VarDecl *V) {
  const CXXRecordDecl *Class = V->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  const CXXDestructorDecl *Destructor = Class && Class->hasDefinition() ? Class->getDestructor() : nullptr;
  const auto *Proto = Destructor ? Destructor->getType()->getAs<FunctionProtoType>() : nullptr;
  if (!Proto || Proto->getExceptionSpecType() == EST_Unevaluated || Proto->getExceptionSpecType() == EST_Uninstantiated)
    return false;
  return !Proto->isNothrow();
}

bool hasManagedType(ASTContext &Ctx, const VarDecl *V) {
  return !V->getType()->isReferenceType() && !V->getType().isTriviallyCopyableType(Ctx);
}

// The generated code destroys a managed field explicitly where its block is
// left; C++ destroys a local on the stack at the same `}` or jump, but only
// afterwards. A class-type local declared after a managed field, in its
// scope, must die first: it is managed too, so that the generated code
// destroys both, latest first.
void manageLocalsInScopeOfManagedFields(ASTContext &Ctx, ParentMap &PM, const FunctionDecl *FD, VarSet &Fields) {
  struct Walker {
    ASTContext &Ctx;
    ParentMap &PM;
    const Stmt *Body;
    VarSet &Fields;
    // Per open scope: has a managed field been declared in it so far?
    std::vector<bool> Managing;

    bool managing() const { return llvm::is_contained(Managing, true); }
    void declare(const VarDecl *V) {
      if (!V->hasLocalStorage() || !hasManagedType(Ctx, V)) return;
      if (!Fields.contains(V)) {
        if (!managing() || !isSupportedField(Ctx, PM, Body, V)) return;
        Fields.insert(V);
      }
      Managing.back() = true;
    }
    void walk(const Stmt *S) {
      if (!S || isa<LambdaExpr>(S)) return;
      const bool Opens = isa<CompoundStmt, ForStmt, IfStmt, WhileStmt, SwitchStmt, CXXForRangeStmt, CXXCatchStmt>(S);
      if (Opens) Managing.push_back(false);
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D)) {
            walk(V->getInit());
            declare(V);
          }
      } else {
        for (const Stmt *Child : S->children()) walk(Child);
      }
      if (Opens) Managing.pop_back();
    }
  } W{Ctx, PM, FD->getBody(), Fields, {false}};
  for (const ParmVarDecl *P : FD->parameters())
    if (Fields.contains(P) && hasManagedType(Ctx, P)) W.Managing.back() = true;
  W.walk(FD->getBody());
}

bool reportUnsupportedField(ASTContext &Ctx, const VarDecl *V, const ContinuationPoint *P,
                            const UnmovedBodyReasons &Unmoved);

bool checkFieldType(ASTContext &Ctx, ParentMap &PM, const Stmt *Body, const VarDecl *V, const ContinuationPoint *P,
                    const UnmovedBodyReasons &Unmoved) {
  if (isa<ParmVarDecl>(V) && !V->getType()->isReferenceType() && !isMoveConstructible(V->getType())) {
    diag::report(Ctx.getDiagnostics(), V->getLocation(), diag::ImmovableParameter) << V->getName() << V->getType();
    return false;
  }
  return isSupportedField(Ctx, PM, Body, V) || reportUnsupportedField(Ctx, V, P, Unmoved);
}

bool reportUnsupportedField(ASTContext &Ctx, const VarDecl *V, const ContinuationPoint *P,
                            const UnmovedBodyReasons &Unmoved) {
  QualType T = V->getType();
  const char *Across = P->Kind == PointKind::Spawn ? "spawn"
                       : P->Kind == PointKind::Poll ? "poll point"
                       : P->Kind == PointKind::Call ? "call"
                                                    : "sync";
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  // Structured bindings are lowered to plain locals before translation,
  // except in templates; the object they name has no name of its own.
  std::string Name = V->getName().str();
  if (const auto *D = dyn_cast<DecompositionDecl>(V)) {
    std::vector<std::string> Names;
    for (const BindingDecl *B : D->bindings()) Names.push_back(B->getName().str());
    Name = fmt::format("[{}]", fmt::join(Names, ", "));
  }
  // The range and iterators of a range-based for loop that
  // StatementLowering wrote out (`__cilkpp_begin_LINE_COLUMN`): named by
  // role, at the loop.
  SourceLocation At = V->getLocation();
  static constexpr StringRef HiddenPrefixes[] = {"__cilkpp_range_", "__cilkpp_begin_", "__cilkpp_end_"};
  std::optional<unsigned> Role;
  for (unsigned I = 0; I < std::size(HiddenPrefixes); ++I) {
    StringRef Position = V->getName();
    unsigned Line = 0, Column = 0;
    if (!Position.consume_front(HiddenPrefixes[I])) continue;
    const auto [LineText, ColumnText] = Position.split('_');
    if (LineText.getAsInteger(10, Line) || ColumnText.getAsInteger(10, Column)) continue;
    // (LINE is the loop's line in the user's file; rounds of rewriting since
    // may have moved it in the buffer, but not off the variable's line.)
    const SourceManager &SM = Ctx.getSourceManager();
    const SourceLocation Declared = SM.getExpansionLoc(V->getLocation());
    if (SM.getPresumedLineNumber(Declared) != Line) continue;
    if (SourceLocation Loop = SM.translateLineCol(SM.getMainFileID(), SM.getSpellingLineNumber(Declared), Column);
        Loop.isValid()) {
      At = Loop;
      Role = I;
    }
  }
  if (Role)
    diag::report(Diags, At, diag::LiveRangeForUnsupported) << *Role << T << Across;
  else
    diag::report(Diags, At, diag::LiveVariableUnsupported) << Name << T << Across;
  const char *What = P->Kind == PointKind::Spawn      ? "spawn"
                     : P->Kind == PointKind::Sync     ? "sync"
                     : P->Kind == PointKind::Poll     ? "poll point"
                     : P->Kind == PointKind::Call     ? "call"
                     : P->Kind == PointKind::ScopeEnd ? "implicit sync at the end of cilk_scope"
                     : P->Kind == PointKind::Settle   ? "wait for the children before this try statement's handlers"
                                                      : "implicit sync at return";
  diag::report(Diags, P->Loc, diag::NoteContinuationPoint) << What;
  // A tuple-like structured binding, which StatementLowering wrote as a
  // reference bound to what `get` returns (`auto &&x = get<0>(__cilkpp_bindings_L_C)`).
  const auto *Get = T->isReferenceType() && V->getInit() ? dyn_cast<CallExpr>(V->getInit()->IgnoreImplicit()) : nullptr;
  const Expr *Object = nullptr;
  if (const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(Get))
    Object = Member->getImplicitObjectArgument();
  else if (Get && Get->getNumArgs() == 1)
    Object = Get->getArg(0);
  const auto *Named = Object && Get->isPRValue() ? dyn_cast<DeclRefExpr>(Object->IgnoreImplicit()) : nullptr;
  if (Named && Named->getDecl()->getName().starts_with("__cilkpp_bindings_"))
    diag::report(Diags, V->getLocation(), diag::NoteBindingToTemporary) << V->getName();
  // Instantiations are translated as explicit specializations, which must
  // spell every type in them.
  if (const CXXRecordDecl *RD = localClassIn(T)) {
    const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
    if (FD && (FD->isTemplateInstantiation() || FD->getParent()->isDependentContext() ||
               isa<ClassTemplateSpecializationDecl>(FD->getParent())))
      diag::report(Diags, At, diag::NoteClosureTypeInTemplate)
          << (!RD->isLambda() ? 1 : RD->getParentFunctionOrMethod() ? 0 : 2);
    else if (!RD->isLambda() && isa_and_nonnull<CXXMethodDecl>(RD->getParentFunctionOrMethod()))
      diag::report(Diags, At, diag::NoteLocalClassInMember) << Ctx.getRecordType(RD);
    else if (!RD->isLambda())
      diag::report(Diags, At, diag::NoteLocalTypeStays) << Ctx.getRecordType(RD);
    // (BodyOutlining said why a lambda stayed as it is.)
    const SourceManager &SM = Ctx.getSourceManager();
    const CXXMethodDecl *Op = RD->isLambda() ? RD->getLambdaCallOperator() : nullptr;
    const SourceLocation Body = Op && Op->getBody() ? SM.getExpansionLoc(Op->getBody()->getBeginLoc()) : SourceLocation();
    if (auto It = Body.isValid() && SM.isWrittenInMainFile(Body) ? Unmoved.find(SM.getFileOffset(Body)) : Unmoved.end();
        It != Unmoved.end())
      diag::report(Diags, SM.getExpansionLoc(RD->getLocation()), diag::NoteLambdaStaysUnnamed) << It->second;
  } else if (const EnumDecl *Enum = localEnumIn(T)) {
    diag::report(Diags, At, diag::NoteLocalTypeStays) << Ctx.getEnumType(Enum);
  }
  // (StatementLowering.cpp lowers the others.)
  if (isa<DecompositionDecl>(V)) {
    const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
    const bool InTemplate = FD && (FD->isTemplateInstantiation() || FD->isDependentContext());
    diag::report(Diags, At, diag::NoteBindingsInTemplate) << (InTemplate ? 0 : 1);
  }
  if (const auto *Function = dyn_cast<FunctionDecl>(V->getDeclContext()))
    if (const TagDecl *Hidden = hiddenMemberType(T, Function))
      diag::report(Diags, At, diag::NoteHiddenMemberType)
          << Ctx.getTagDeclType(Hidden) << (hiddenAccess(Hidden) == AS_protected ? 1 : 0);
  return false;
}

// Records, for each spawn statement, the fields live right after it, and for
// each loop with a poll point, those live after its test (on to its body or
// out of the loop).
class PointLiveness : public LiveVariables::Observer {
 public:
  PointLiveness(const CilkProcedure &Proc, const FrameDescription &Frame, const VarSet &Fields) : Fields(Fields) {
    for (unsigned I = 0; I < Proc.Spawns.size(); ++I) {
      SiteOf[Proc.Spawns[I].Statement] = I;
      SiteOf[Proc.Spawns[I].Call] = I;
    }
    Live.resize(Proc.Spawns.size());
    for (unsigned I = 0; I < Frame.Calls.size(); ++I) {
      CallOf[Frame.Calls[I].Statement] = I;
      CallOf[Frame.Calls[I].Call] = I;
    }
    LiveAtCall.resize(Frame.Calls.size());
    for (unsigned I = 0; I < Frame.PollSites.size(); ++I)
      if (Frame.PollSites[I]) LoopOf[Frame.PollSites[I]] = I;
  }
  // A loop is its test's block's terminator.
  void observeStmt(const Stmt *S, const CFGBlock *, const LiveVariables::LivenessValues &V) override {
    llvm::DenseSet<const VarDecl *> *Into = nullptr;
    if (auto It = SiteOf.find(S); It != SiteOf.end()) Into = &Live[It->second];
    if (auto It = LoopOf.find(S); It != LoopOf.end()) Into = &AfterTest[It->second];
    if (auto It = CallOf.find(S); It != CallOf.end()) Into = &LiveAtCall[It->second];
    if (!Into) return;
    for (const VarDecl *F : Fields)
      if (V.isLive(F)) Into->insert(F);
  }
  std::vector<llvm::DenseSet<const VarDecl *>> Live;
  // Per call site (Frame.Calls).
  std::vector<llvm::DenseSet<const VarDecl *>> LiveAtCall;
  // Per poll site; absent for a loop the CFG does not test.
  std::map<unsigned, llvm::DenseSet<const VarDecl *>> AfterTest;

 private:
  const VarSet &Fields;
  llvm::DenseMap<const Stmt *, unsigned> SiteOf, LoopOf, CallOf;
};

// The variables a loop's test and increment read: from its back-edge they
// run before the body or the code after the loop.
llvm::DenseSet<const VarDecl *> readByLoopHeader(const Stmt *Loop) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    llvm::DenseSet<const VarDecl *> Read;
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) Read.insert(V);
      return true;
    }
  } V;
  if (const auto *F = dyn_cast<ForStmt>(Loop)) {
    V.TraverseStmt(const_cast<Expr *>(F->getCond()));
    V.TraverseStmt(const_cast<Expr *>(F->getInc()));
  } else if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    V.TraverseStmt(const_cast<Expr *>(W->getCond()));
  } else if (const auto *D = dyn_cast<DoStmt>(Loop)) {
    V.TraverseStmt(const_cast<Expr *>(D->getCond()));
  }
  return std::move(V.Read);
}

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

// (Pack elements have names of their own: parameterName.)
std::string nameOf(const VarDecl *V) {
  const auto *Param = dyn_cast<ParmVarDecl>(V);
  return Param ? parameterName(Param) : V->getName().str();
}

struct Residency {
  // Kept in the frame on the fast path too (FrameField::ResidentOnFastPath).
  llvm::DenseSet<const VarDecl *> Resident;
  // Constructed and destroyed in the frame (FrameField::ManagedLifetime).
  llvm::DenseSet<const VarDecl *> Managed;
};

Residency residencyOf(ASTContext &Ctx, const CilkProcedure &Proc, const ScopeWalker &Walker,
                      const AddressTakenFinder &Taken) {
  Residency R;
  // A reference's address is its referent's, wherever the frame keeps it.
  for (const VarDecl *V : Taken.Taken)
    if (!V->getType()->isReferenceType()) R.Resident.insert(V);
  // `r = v;` through a reference is not a use of `r` to liveness analysis
  // (it counts assignments as definitions), so the fast clone would not save
  // the reference at a spawn before it; such a reference lives in the frame.
  for (const VarDecl *V : Taken.AssignedThrough) R.Resident.insert(V);
  // A spawn that assigns to part of a local (`a[i] = spawn ...`) hands the
  // child that part's address.
  for (const SpawnSite &S : Proc.Spawns)
    if (const VarDecl *V = S.TargetLValue ? localStorageOf(S.TargetLValue) : nullptr; V && Walker.Fields.contains(V))
      R.Resident.insert(V);
  for (const VarDecl *V : Walker.Fields)
    if (hasManagedType(Ctx, V)) R.Managed.insert(V), R.Resident.insert(V);

  // The fast clone stores a live variable by naming it at the spawn, which
  // would find the wrong one if it were shadowed there. (Fields in scope at
  // poll points only are saved by name there alone: dropCostlyOptionalPoints
  // keeps no poll point where a name is shadowed.)
  llvm::StringMap<unsigned> NameCount;
  for (const VarDecl *V : Walker.Fields)
    if (Walker.Anchored.contains(V)) ++NameCount[nameOf(V)];
  for (const VarDecl *V : Walker.Fields)
    if (Walker.Anchored.contains(V) && NameCount[nameOf(V)] > 1) R.Resident.insert(V);
  // Variables declared together are rewritten together, so they share
  // residency (last: any reason above may make one resident).
  shareResidencyWithinDeclarations(Proc.Definition->getBody(), Walker.Fields, R.Resident);
  return R;
}

// The variables declared, and those named, inside the body of a macro (not
// in an argument of one, which is written in the file): the generated code
// cannot rewrite them there.
struct MacroBodyVariables : RecursiveASTVisitor<MacroBodyVariables> {
  MacroBodyVariables(const SourceManager &SM, const Stmt *Body) : SM(SM) { TraverseStmt(const_cast<Stmt *>(Body)); }
  bool inBody(SourceLocation Loc) const { return Loc.isMacroID() && !SM.isMacroArgExpansion(Loc); }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && inBody(DR->getLocation())) Named.insert(V);
    return true;
  }
  // A declaration a macro writes, even one whose name is an argument
  // (`DECL(long, w, n + 1)`): the statement cannot be rewritten as a whole.
  // Not one whose type alone a macro spells (`LONG e = 3;`).
  bool VisitDeclStmt(DeclStmt *DS) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && (writtenByMacro(DS, V) || V->getLocation().isMacroID()))
        Declared.insert(V);
    return true;
  }
  bool writtenByMacro(const DeclStmt *DS, const VarDecl *V) const {
    if (!inBody(DS->getBeginLoc())) return false;
    if (DS->getEndLoc().isMacroID() || V->getLocation().isMacroID()) return true;
    return !SM.isBeforeInTranslationUnit(SM.getExpansionRange(DS->getBeginLoc()).getEnd(), V->getLocation());
  }
  const SourceManager &SM;
  llvm::DenseSet<const VarDecl *> Declared, Named;
};

// Poll, call and settle points are optional, and the fast path pays for a
// poll point no more than its load and branch, for a call point no more than
// a spawn's stores, for a settle point nothing: such a point stays only where every variable in scope is
// a field anyway, or would be one that the fast clone keeps in a register
// and saves there alone. A variable in scope there that would have to live
// in the frame on the fast path (a class type constructed in it, an array,
// a variable whose address is taken: ResidentOnFastPath, and with it
// EagerFrame's allocation at entry), that no frame can hold (a closure, a
// structured binding), or whose name another one in scope shadows, drops
// that point: the procedure keeps the frame and fast path it has without it
// (a dropped call is a nested root call; a dropped settle point waits on
// the worker's stack). (So a loop with, say, a
// std::string declared before it gets no back-edge poll unless the string
// already lives in the frame; test/translate/poll-points-skipped.cilkpp.)
void dropCostlyOptionalPoints(ASTContext &Ctx, ParentMap &PM, const CilkProcedure &Proc, FrameDescription &Frame) {
  if (llvm::none_of(Frame.Points, isOptional)) return;
  const Stmt *Body = Proc.Definition->getBody();
  ScopeWalker Walker(Proc, Frame);
  Walker.run(Proc.Definition);
  AddressTakenFinder Taken(PM, Walker.Fields);
  Taken.TraverseStmt(const_cast<Stmt *>(Body));
  const Residency R = residencyOf(Ctx, Proc, Walker, Taken);
  llvm::DenseSet<const VarDecl *> Costly;
  for (const VarDecl *V : Walker.Fields)
    if (!Walker.Anchored.contains(V) && (R.Resident.contains(V) || !isSupportedField(Ctx, PM, Body, V)))
      Costly.insert(V);
  for (const auto &[V, Loc] : Taken.ArraysCapturedByCopy)
    if (!Walker.Anchored.contains(V)) Costly.insert(V);
  // A field declared or used in a macro's body cannot be rewritten there.
  const MacroBodyVariables InMacros(Ctx.getSourceManager(), Body);
  for (const VarDecl *V : Walker.Fields)
    if (!Walker.Anchored.contains(V) && (InMacros.Declared.contains(V) || InMacros.Named.contains(V))) Costly.insert(V);

  std::vector<bool> Drop(Frame.Points.size(), false);
  for (unsigned I = 0; I < Frame.Points.size(); ++I) {
    auto It = Walker.AtOptional.find(&Frame.Points[I]);
    if (It == Walker.AtOptional.end()) continue;
    llvm::StringSet<> Names;
    for (const VarDecl *V : It->second) Drop[I] = Drop[I] || Costly.contains(V) || !Names.insert(nameOf(V)).second;
  }
  if (llvm::none_of(Drop, [](bool D) { return D; })) return;
  std::vector<ContinuationPoint> Kept;
  for (unsigned I = 0; I < Frame.Points.size(); ++I)
    if (!Drop[I]) Kept.push_back(std::move(Frame.Points[I]));
  Frame.Points = std::move(Kept);
  numberContinuationPoints(Ctx.getSourceManager(), Frame);
}

// The leading base cases a fast clone can run before its frame exists: as
// written, so only those that name nothing the clone spells differently
// (pack elements; members through `this` it spells with its `__this`).
std::vector<const Stmt *> earlyReturns(ASTContext &Ctx, const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitStmt(Stmt *S) {
      Found |= isa<PackExpansionExpr, SizeOfPackExpr, FunctionParmPackExpr>(S);
      return !Found;
    }
  };
  std::vector<const Stmt *> Early;
  for (const Stmt *S : cast<CompoundStmt>(FD->getBody())->body()) {
    Finder F;
    if (!isBaseCase(Ctx, S) || (F.TraverseStmt(const_cast<Stmt *>(S)), F.Found)) break;
    Early.push_back(S);
  }
  return Early;
}

// Fields worth saving once (FrameField::SavedOnce): a copy of a few
// registers costs less than the test. A variable declared in a loop is
// initialised again each round, and one a goto can jump back over too.
constexpr clang::CharUnits::QuantityType SavedOnceMinBytes = 64;

bool hasGoto(const Stmt *S) {
  if (isa<GotoStmt, IndirectGotoStmt>(S)) return true;
  return llvm::any_of(S->children(), [](const Stmt *Child) { return Child && hasGoto(Child); });
}

bool initialisedOncePerCall(ParentMap &PM, const FunctionDecl *FD, const VarDecl *V, bool HasGoto) {
  if (isa<ParmVarDecl>(V)) return true;
  const DeclStmt *Declaration = HasGoto ? nullptr : declarationOf(FD->getBody(), V);
  if (!Declaration) return false;
  for (const Stmt *S = PM.getParent(const_cast<DeclStmt *>(Declaration)); S; S = PM.getParent(const_cast<Stmt *>(S)))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S)) return false;
  return true;
}

void markSavedOnce(ASTContext &Ctx, ParentMap &PM, const FunctionDecl *FD, FrameDescription &Frame) {
  llvm::DenseSet<const VarDecl *> Saved;
  for (const ContinuationPoint &P : Frame.Points)
    if (P.Kind == PointKind::Spawn || P.Kind == PointKind::Call) Saved.insert(P.FastPathSaves.begin(), P.FastPathSaves.end());
  std::optional<ExprMutationAnalyzer> Mutations;
  const bool HasGoto = hasGoto(FD->getBody());
  for (FrameField &F : Frame.Fields) {
    const QualType T = F.Var->getType();
    if (!Saved.contains(F.Var) || F.ManagedLifetime || F.IsReference || T->isDependentType() || T->isIncompleteType() ||
        T.isVolatileQualified() || Ctx.getTypeSizeInChars(T).getQuantity() < SavedOnceMinBytes ||
        !initialisedOncePerCall(PM, FD, F.Var, HasGoto))
      continue;
    if (!Mutations) Mutations.emplace(*FD->getBody(), Ctx);
    F.SavedOnce = !Mutations->isMutated(F.Var);
  }
}

// Fields that are constants whose every use reads the value where C++ needs
// no object (`n * 2`, `std::array<long, n>`; not `&n`, `std::max(n, k)` or
// an explicit capture): the clones write the value at each use
// (CloneEmitter), so no continuation point needs the variable saved.
llvm::DenseSet<const VarDecl *> valueOnlyConstants(ASTContext &Ctx, const Stmt *Body,
                                                   const std::vector<FrameField> &Fields) {
  struct Objects : RecursiveASTVisitor<Objects> {
    llvm::DenseSet<const VarDecl *> Needed;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->isNonOdrUse() == NOUR_None)
        if (const auto *V = dyn_cast<VarDecl>(E->getDecl())) Needed.insert(V);
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *L) {
      for (const LambdaCapture &C : L->explicit_captures())
        if (C.capturesVariable())
          if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar())) Needed.insert(V);
      return true;
    }
  } Uses;
  Uses.TraverseStmt(const_cast<Stmt *>(Body));
  llvm::DenseSet<const VarDecl *> Constants;
  for (const FrameField &F : Fields)
    if (!F.ResidentOnFastPath && !F.IsReference && !Uses.Needed.contains(F.Var) && knownScalarValue(Ctx, *F.Var))
      Constants.insert(F.Var);
  return Constants;
}

}  // namespace

bool convertsResult(ASTContext &Ctx, const SpawnSite &S) {
  if (!S.Target && !S.TargetLValue) return false;
  const QualType Result = S.Call->getCallReturnType(Ctx).getNonReferenceType().getUnqualifiedType();
  const QualType Target = S.Target ? S.Target->getType() : S.TargetLValue->getType();
  return !Ctx.hasSameType(Result.getCanonicalType(), Target.getCanonicalType().getUnqualifiedType());
}

bool computeFrameLayout(ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame,
                        const UnmovedBodyReasons &Unmoved) {
  const FunctionDecl *FD = Proc.Definition;
  for (unsigned I = 0; I < Proc.Spawns.size(); ++I)
    if (const SpawnSite &S = Proc.Spawns[I]; S.Target && convertsResult(Ctx, S))
      Frame.ConvertedResults.push_back({I, S.Call->getCallReturnType(Ctx).getNonReferenceType().getUnqualifiedType()});
  for (const SpawnSite &S : Proc.Spawns) Frame.HoldsTemporaries |= argumentTemporaries(Ctx, S, FD, /*CilkCallee=*/true).holdable();
  ParentMap PM(FD->getBody());
  dropCostlyOptionalPoints(Ctx, PM, Proc, Frame);
  ScopeWalker Walker(Proc, Frame);
  Walker.run(FD);

  bool Ok = true;
  for (const VarDecl *V : Walker.Fields)
    Ok &= checkFieldType(Ctx, PM, FD->getBody(), V, Walker.FirstPoint[V], Unmoved);
  const MacroBodyVariables InMacros(Ctx.getSourceManager(), FD->getBody());
  for (const VarDecl *V : Walker.Fields)
    if (InMacros.Declared.contains(V)) {
      const SourceManager &SM = Ctx.getSourceManager();
      // The macro the user wrote (`FOR(i, n)`), not one it expands to.
      StringRef Macro;
      for (SourceLocation Loc = V->getBeginLoc(); Loc.isMacroID(); Loc = SM.getImmediateMacroCallerLoc(Loc))
        Macro = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
      diag::report(Ctx.getDiagnostics(), SM.getExpansionLoc(V->getLocation()), diag::ConstructUnsupported)
          << fmt::format("variable '{}', declared by {} and live across a spawn or sync (declare it outside the "
                         "macro),",
                         V->getName(), Macro.empty() ? std::string("a macro") : fmt::format("macro '{}'", Macro));
      Ok = false;
    }
  if (!Ok) return false;
  manageLocalsInScopeOfManagedFields(Ctx, PM, FD, Walker.Fields);

  AddressTakenFinder Taken(PM, Walker.Fields);
  Taken.TraverseStmt(FD->getBody());
  for (const auto &[V, Loc] : Taken.ArraysCapturedByCopy) {
    diag::report(Ctx.getDiagnostics(), Loc, diag::LambdaCapturesFrameVariable) << V->getName();
    Ok = false;
  }
  if (!Ok) return false;
  const Residency R = residencyOf(Ctx, Proc, Walker, Taken);

  // The members a frame inherits from rt::Frame (runtime/include/cilkpp/rt/
  // frame.h): a field of the same name would hide one from generated code.
  llvm::StringSet<> Used = {"info", "parent", "result_slot", "entry", "visibility",
                            "join", "next_ready", "promoted", "pending"};
  for (const VarDecl *V : Walker.Fields) {
    const std::string Base = nameOf(V);
    std::string Name = Base;
    for (unsigned Suffix = 1; !Used.insert(Name).second; ++Suffix) Name = Base + "_" + std::to_string(Suffix);
    const bool Managed = R.Managed.contains(V);
    Frame.FieldIndex[V] = Frame.Fields.size();
    Frame.Fields.push_back({V, Name, R.Resident.contains(V), Managed, V->getType()->isReferenceType(),
                            Managed ? enclosingBlock(PM, FD->getBody(), V) : nullptr});
    Frame.EagerFrame |= R.Resident.contains(V);
  }

  for (const FrameField &F : Frame.Fields)
    if (F.ManagedLifetime && mayThrowOnDestruction(F.Var))
      diag::report(Ctx.getDiagnostics(), F.Var->getLocation(), diag::ThrowingDestructorInFrame)
          << F.Var->getName() << F.Var->getType().getNonReferenceType().getUnqualifiedType();

  Frame.EarlyReturns = earlyReturns(Ctx, FD);
  const bool Optional = llvm::any_of(Frame.Points, isOptional);
  if (Proc.Spawns.empty() && !Optional) return true;
  AnalysisDeclContextManager Manager(Ctx);
  AnalysisDeclContext *ADC = Manager.getContext(FD);
  // Liveness needs every variable reference to be a CFG element, and the
  // edges from calls that may throw into catch handlers: what a handler (or
  // the code after it) reads is live at the spawns of its try block.
  ADC->getCFGBuildOptions().setAllAlwaysAdd();
  ADC->getCFGBuildOptions().AddEHEdges = true;
  LiveVariables *LV = ADC ? ADC->getAnalysis<LiveVariables>() : nullptr;
  if (!LV) {
    diag::report(Ctx.getDiagnostics(), FD->getLocation(), diag::CfgUnavailable) << FD;
    return false;
  }
  PointLiveness Liveness(Proc, Frame, Walker.Fields);
  LV->runOnAllBlocks(Liveness);
  for (ContinuationPoint &P : Frame.Points) {
    if (P.Kind == PointKind::Spawn) {
      const VarDecl *Target = Proc.Spawns[P.Site].Target;
      for (const FrameField &F : Frame.Fields)
        if (!F.ResidentOnFastPath && F.Var != Target && Liveness.Live[P.Site].contains(F.Var))
          P.FastPathSaves.push_back(F.Var);
    }
    if (P.Kind == PointKind::Call) {
      const VarDecl *Target = Frame.Calls[P.Site].Target;
      for (const FrameField &F : Frame.Fields)
        if (!F.ResidentOnFastPath && F.Var != Target && Liveness.LiveAtCall[P.Site].contains(F.Var))
          P.FastPathSaves.push_back(F.Var);
    }
    if (P.Kind != PointKind::Poll) continue;
    // What is live at the poll point: at the entry, what the entry block
    // passes on; at a back-edge, what the loop's test and increment read and
    // what is live after the test (everything in scope, should the CFG not
    // test the loop).
    const Stmt *Loop = Frame.PollSites[P.Site];
    auto Tested = Liveness.AfterTest.find(P.Site);
    const llvm::DenseSet<const VarDecl *> Header = Loop ? readByLoopHeader(Loop) : llvm::DenseSet<const VarDecl *>();
    auto LiveHere = [&](const VarDecl *V) {
      if (!Loop) return LV->isLive(&ADC->getCFG()->getEntry(), V);
      return Tested == Liveness.AfterTest.end() || Tested->second.contains(V) || Header.contains(V);
    };
    auto InScope = Walker.AtOptional.find(&P);
    if (InScope == Walker.AtOptional.end()) continue;
    for (const FrameField &F : Frame.Fields)
      if (!F.ResidentOnFastPath && llvm::is_contained(InScope->second, F.Var) && LiveHere(F.Var))
        P.FastPathSaves.push_back(F.Var);
  }
  const llvm::DenseSet<const VarDecl *> Constants = valueOnlyConstants(Ctx, FD->getBody(), Frame.Fields);
  for (ContinuationPoint &P : Frame.Points)
    llvm::erase_if(P.FastPathSaves, [&](const VarDecl *V) { return Constants.contains(V); });
  markSavedOnce(Ctx, PM, FD, Frame);
  return true;
}

}  // namespace cilkpp
