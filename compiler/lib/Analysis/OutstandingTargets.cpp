#include "Analysis/OutstandingTargets.h"

#include "Support/Diagnostics.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

using namespace clang;

namespace cilkpp {
namespace {

// A use of a variable in a CFG element: the variable, and whether the use
// only writes it (the left side of `=`). Compound assignments and increments
// read it too. Taking its address, or capturing it in a lambda, is no access
// yet.
struct Use {
  const VarDecl *Var = nullptr;
  const FieldDecl *Field = nullptr;  // a member of the object the procedure is a member of: `this->f`
  bool Write = false;
};

// `f` or `this->f` in a member function: the data member it names.
const FieldDecl *thisField(const Expr *E) {
  const auto *Member = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts())) return nullptr;
  return dyn_cast<FieldDecl>(Member->getMemberDecl());
}
// `std::get<I>(x)`: how a lowered structured binding names an element.
bool isStdGet(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  return F && Call->getNumArgs() == 1 && F->isInStdNamespace() && F->getIdentifier() && F->getName() == "get";
}

// Inside `sizeof`, `alignof`, `noexcept` or a `typeid` of a non-polymorphic
// type: not evaluated.
bool isUnevaluated(const Stmt *S, const ParentMap &Parents) {
  for (const Stmt *P = Parents.getParent(S); P; P = Parents.getParent(P)) {
    if (isa<UnaryExprOrTypeTraitExpr, CXXNoexceptExpr>(P)) return true;
    if (const auto *Typeid = dyn_cast<CXXTypeidExpr>(P)) return !Typeid->isPotentiallyEvaluated();
  }
  return false;
}

// The variable, or a member or tuple element of it, bound to a reference
// (`auto &a = x.first;`, a structured binding's `auto &&a =
// std::get<0>(x)`): no access yet.
bool bindsReference(const Stmt *S, const ParentMap &Parents) {
  for (const Stmt *P = Parents.getParent(S);; S = P, P = Parents.getParent(P)) {
    if (!P) return false;
    if (isa<ParenExpr>(P)) continue;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
        Cast && (Cast->getCastKind() == CK_NoOp || Cast->getCastKind() == CK_DerivedToBase))
      continue;
    if (const auto *Member = dyn_cast<MemberExpr>(P); Member && !Member->isArrow() && isa<FieldDecl>(Member->getMemberDecl()))
      continue;
    if (const auto *Get = dyn_cast<CallExpr>(P)) {
      if (isStdGet(Get) && Get->getCallReturnType(Get->getDirectCallee()->getASTContext())->isReferenceType()) continue;
      return false;
    }
    if (const auto *Decls = dyn_cast<DeclStmt>(P))
      return llvm::any_of(Decls->decls(), [&](const Decl *D) {
        const auto *V = dyn_cast<VarDecl>(D);
        return V && V->getType()->isReferenceType() && V->getInit() == S;
      });
    return false;
  }
}

Use useOf(const Stmt *S, const ParentMap &Parents, const llvm::DenseSet<const Stmt *> &TargetRefs) {
  const auto *Ref = dyn_cast<Expr>(S);
  if (!Ref || TargetRefs.contains(Ref)) return {};
  const auto *Named = dyn_cast<DeclRefExpr>(Ref);
  const VarDecl *V = Named ? dyn_cast<VarDecl>(Named->getDecl()) : nullptr;
  const FieldDecl *Field = isa<MemberExpr>(Ref) ? thisField(Ref) : nullptr;
  if (!V && !Field) return {};
  const Stmt *Parent = Parents.getParentIgnoreParens(Ref);
  if (const auto *Op = dyn_cast_or_null<UnaryOperator>(Parent); Op && Op->getOpcode() == UO_AddrOf) return {};
  // `(void)x;`: named to silence -Wunused, not read.
  if (const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(Parent); Cast && Cast->getType()->isVoidType()) return {};
  if (isUnevaluated(Ref, Parents) || bindsReference(Ref, Parents)) return {};
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
      Call && Call->getBuiltinCallee() == Builtin::BI__builtin_addressof)
    return {};
  // (A capture by reference: a lambda, or the closure an outlining round
  // made of one, which takes the variable's address.)
  if (isa_and_nonnull<LambdaExpr>(Parent)) return {};
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent);
      BO && BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == Ref)
    return {V, Field, true};
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
      Op && Op->getOperator() == OO_Equal && Op->getArg(0)->IgnoreParens() == Ref)
    return {V, Field, true};
  return {V, Field, false};
}

class OutstandingTargets {
 public:
  OutstandingTargets(ASTContext &Ctx, const CilkProcedure &Proc)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Proc(Proc), Parents(Proc.Definition->getBody()) {
    for (unsigned I = 0; I < Proc.Spawns.size(); ++I) {
      const SpawnSite &Site = Proc.Spawns[I];
      Owners.push_back(Site.Target ? ownerOfVariable(Site.Target) : ownerOf(Site.TargetLValue));
      // (A data member of the procedure's object outlives the procedure:
      // only its reads before the sync count.)
      Fields.push_back(!Site.Target && Site.TargetLValue ? thisField(Site.TargetLValue) : nullptr);
      if (!Owners.back() && !Fields.back()) continue;
      Spawns[Site.Call] = I;
      // The target named as what receives the result is not a read.
      if (Site.Form == SpawnForm::Assign)
        if (const Expr *LHS = assignedExpr(Site.Statement)) TargetRefs.insert(LHS->IgnoreParenImpCasts());
    }
    for (const SyncSite &S : Proc.Syncs) Syncs.insert(S.Marker);
  }

  void run(const CFG &G) {
    // Forward may-analysis: which spawns with a target variable may still be
    // outstanding at the start of each block.
    std::vector<llvm::BitVector> In(G.getNumBlockIDs(), llvm::BitVector(Proc.Spawns.size()));
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const CFGBlock *B : G) {
        llvm::BitVector State(Proc.Spawns.size());
        for (const CFGBlock::AdjacentBlock &Pred : B->preds())
          if (const CFGBlock *P = Pred.getReachableBlock()) State |= transfer(*P, In[P->getBlockID()], false);
        if (State != In[B->getBlockID()]) {
          In[B->getBlockID()] = State;
          Changed = true;
        }
      }
    }
    for (const CFGBlock *B : G) transfer(*B, In[B->getBlockID()], true);
    // In source order; the graph's block order is not.
    for (const auto &[Access, Write] : Reads) {
      const SpawnSite &Site = Proc.Spawns[Access.second];
      diag::report(Ctx.getDiagnostics(), Access.first, diag::ReadOfOutstandingTarget)
          << (Site.Target ? Site.Target->getName() : Fields[Access.second]->getName()) << Write;
      diag::report(Ctx.getDiagnostics(), Site.KeywordLoc, diag::NoteContinuationPoint) << "spawn that writes it";
    }
    for (const auto &[End, OnlyLost] : Ends) {
      const SpawnSite &Site = Proc.Spawns[End.second];
      // (A structured binding's object has no name of its own: the
      // binding's, as the target names it, instead.)
      const VarDecl *Owner = Owners[End.second];
      std::string Name = Owner->getName().str();
      if (StringRef(Name).starts_with("__cilkpp_"))
        Name = Site.Target ? Site.Target->getName().str()
                           : Lexer::getSourceText(CharSourceRange::getTokenRange(Site.TargetLValue->getSourceRange()), SM,
                                                  Ctx.getLangOpts())
                                 .str();
      diag::report(Ctx.getDiagnostics(), End.first,
                   OnlyLost ? diag::OutstandingTargetOutOfScope : diag::OutstandingTargetDestroyed)
          << Name << (Site.Target == Owner || Name != Owner->getName() ? 0 : 1);
      diag::report(Ctx.getDiagnostics(), Site.KeywordLoc, diag::NoteContinuationPoint) << "spawn that assigns it";
    }
  }

 private:
  static const Expr *assignedExpr(const Stmt *S) {
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S)) S = Cleanups->getSubExpr();
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) return BO->getLHS();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getNumArgs() == 2) return Op->getArg(0);
    return nullptr;
  }

  llvm::BitVector transfer(const CFGBlock &B, llvm::BitVector State, bool Report) {
    for (const CFGElement &E : B) {
      if (auto End = E.getAs<CFGLifetimeEnds>()) {
        if (Report) checkLifetimeEnd(End->getVarDecl(), End->getTriggerStmt(), State);
        continue;
      }
      auto Element = E.getAs<CFGStmt>();
      if (!Element) continue;
      const Stmt *S = Element->getStmt();
      if (Syncs.contains(S) || isa<ReturnStmt>(S)) {
        State.reset();
        continue;
      }
      if (auto It = Spawns.find(S); It != Spawns.end()) {
        State.set(It->second);
        continue;
      }
      const Use U = Report ? useOf(S, Parents, TargetRefs) : Use{};
      if (!U.Var && !U.Field) continue;
      for (unsigned I : State.set_bits())
        if (((U.Var && Proc.Spawns[I].Target == U.Var) || (U.Field && Fields[I] == U.Field)) &&
            !syncedBefore(Proc.Spawns[I], S->getBeginLoc()))
          warn(S, I, U.Write);
    }
    return State;
  }

  // The local whose storage holds an element or member target: `a` of
  // `a[i]`, `s.f`, `v[i]` (a container's elements die with it), `s` for a
  // reference bound to it; null for a target reached through a pointer.
  static const VarDecl *ownerOf(const Expr *Target) {
    while (Target) {
      Target = Target->IgnoreParenImpCasts();
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Target)) {
        const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        return V && V->hasLocalStorage() ? ownerOfVariable(V) : nullptr;
      }
      if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Target)) {
        if (!Subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) return nullptr;
        Target = Subscript->getBase();
      } else if (const auto *Member = dyn_cast<MemberExpr>(Target)) {
        if (Member->isArrow()) return nullptr;
        Target = Member->getBase();
      } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Target);
                 Op && Op->getOperator() == OO_Subscript && isContainer(Op->getArg(0)->getType())) {
        Target = Op->getArg(0);
      } else if (const auto *Get = dyn_cast<CallExpr>(Target); Get && isStdGet(Get)) {
        Target = Get->getArg(0);  // a tuple-like structured binding's element
      } else {
        return nullptr;
      }
    }
    return nullptr;
  }
  // A variable target's storage: its own, or for a reference (a structured
  // binding's, lowered to one) what it was bound to.
  static const VarDecl *ownerOfVariable(const VarDecl *V) {
    if (!V->getType()->isReferenceType()) return V;
    return V->getInit() && V->hasLocalStorage() ? ownerOf(V->getInit()) : nullptr;
  }
  // A class that owns what its operator[] returns (std::vector, std::array,
  // std::map, std::deque, ...), unlike a view or a span.
  static bool isContainer(QualType T) {
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier()) return false;
    return llvm::is_contained({"vector", "array", "deque", "map", "unordered_map", "basic_string"}, RD->getName());
  }

  // A target that dies while its spawn may be outstanding: the child would
  // assign an object that no longer exists (or, in a loop, the next
  // iteration's). The body's own variables die after its implicit sync.
  void checkLifetimeEnd(const VarDecl *V, const Stmt *Trigger, const llvm::BitVector &State) {
    if (V->getDeclContext() != Proc.Definition) return;
    for (unsigned I : State.set_bits()) {
      const SpawnSite &Site = Proc.Spawns[I];
      if (Owners[I] != V || isBodyVariable(V)) continue;
      // The end of a cilk_scope (or spawning try block) around the spawn
      // syncs before its own variables and those outside it die, not before
      // those of a block inside it.
      if (llvm::any_of(Proc.Scopes, [&](const ScopeSite &Scope) {
            return within(Site.KeywordLoc, Scope.Block->getSourceRange()) &&
                   (declaredIn(V, Scope.Block) || !within(V->getLocation(), Scope.Block->getSourceRange()));
          }))
        continue;
      // Where it dies: at a jump out of its scope, else at the end of its block.
      SourceLocation At = Trigger ? Trigger->getEndLoc() : V->getLocation();
      if (Trigger && isa<BreakStmt, ContinueStmt, GotoStmt>(Trigger)) At = Trigger->getBeginLoc();
      Ends.insert({{SM.getExpansionLoc(At), I}, !V->getType().isDestructedType()});
    }
  }
  bool isBodyVariable(const VarDecl *V) const {
    return declaredIn(V, cast<CompoundStmt>(Proc.Definition->getBody()));
  }
  static bool declaredIn(const VarDecl *V, const CompoundStmt *Block) {
    return llvm::any_of(Block->body(), [&](const Stmt *S) {
      const auto *DS = dyn_cast<DeclStmt>(S);
      return DS && llvm::is_contained(DS->decls(), V);
    });
  }

  // Syncs the graph does not show. A return syncs before it evaluates its
  // value. A spawn inside a cilk_scope is synced when the block ends, so a
  // read outside the block cannot see it outstanding (jumps out of the block
  // are rejected).
  bool syncedBefore(const SpawnSite &Site, SourceLocation Read) const {
    for (const ReturnStmt *R : Proc.Returns)
      if (within(Read, R->getSourceRange())) return true;
    for (const ScopeSite &Scope : Proc.Scopes)
      if (within(Site.KeywordLoc, Scope.Block->getSourceRange()) && !within(Read, Scope.Block->getSourceRange()))
        return true;
    return false;
  }
  bool within(SourceLocation Loc, SourceRange R) const {
    return SM.isPointWithin(SM.getExpansionLoc(Loc), SM.getExpansionLoc(R.getBegin()),
                            SM.getExpansionLoc(R.getEnd()));
  }

  void warn(const Stmt *Access, unsigned Spawn, bool Write) {
    Reads.insert({{SM.getExpansionLoc(Access->getBeginLoc()), Spawn}, Write});
  }

  struct BySourceOrder {
    const SourceManager *SM;
    bool operator()(const std::pair<SourceLocation, unsigned> &A, const std::pair<SourceLocation, unsigned> &B) const {
      if (A.first != B.first) return SM->isBeforeInTranslationUnit(A.first, B.first);
      return A.second < B.second;
    }
  };
  // (Access location, spawn) -> whether the access only writes.

  ASTContext &Ctx;
  const SourceManager &SM;
  const CilkProcedure &Proc;
  llvm::DenseMap<const Stmt *, unsigned> Spawns;  // call -> spawn index
  std::vector<const VarDecl *> Owners;            // per spawn: the local its target lives in
  std::vector<const FieldDecl *> Fields;          // per spawn: the data member of `*this` it assigns
  llvm::DenseSet<const Stmt *> Syncs;
  llvm::DenseSet<const Stmt *> TargetRefs;
  ParentMap Parents;
  std::map<std::pair<SourceLocation, unsigned>, bool, BySourceOrder> Reads{BySourceOrder{&SM}};
  // (Where a target dies, spawn) -> whether that only loses the result.
  std::map<std::pair<SourceLocation, unsigned>, bool, BySourceOrder> Ends{BySourceOrder{&SM}};
};

}  // namespace

void checkOutstandingTargets(ASTContext &Ctx, const CilkProcedure &Proc) {
  CFG::BuildOptions Options;
  // Every read must be an element of the graph.
  Options.setAllAlwaysAdd();
  // (Where each variable's scope ends: CFGLifetimeEnds; inside a try block
  // Clang marks them only along with the destructors.)
  Options.AddLifetime = true;
  Options.AddImplicitDtors = true;
  const FunctionDecl *FD = Proc.Definition;
  if (std::unique_ptr<CFG> G = CFG::buildCFG(FD, FD->getBody(), &Ctx, Options)) OutstandingTargets(Ctx, Proc).run(*G);
}

}  // namespace cilkpp
