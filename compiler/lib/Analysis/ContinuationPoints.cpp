#include "Analysis/ContinuationPoints.h"

#include "Sema/ProcedureChecks.h"
#include "Support/Diagnostics.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

#include <algorithm>

using namespace clang;

namespace cilkpp {
namespace {

enum class Effect { Spawn, Sync, Return };

struct Outstanding {
  std::vector<bool> AtSync, AtReturn;
  std::vector<bool> InTry;  // per try statement, inside its try block
  bool AtEnd = false;
  bool EndReachable = false;
};

// Where control leaves a cilk_scope's block (or a try block that spawns) by
// falling through to the statement after it, whose end syncs: an element inside the block followed
// by the first element of that statement. (Other exits, a break or a goto,
// and a block that ends its own block are left alone: conservatively, the
// children stay outstanding there.)
class ScopeExits {
 public:
  ScopeExits(ASTContext &Ctx, const CilkProcedure &Proc) : SM(Ctx.getSourceManager()) {
    ParentMap PM(Proc.Definition->getBody());
    for (const ScopeSite &Scope : Proc.Scopes) {
      // (A try block that spawns syncs at its end too; the statement after
      // it follows the whole try statement.)
      const Stmt *Whole = Scope.Block;
      if (Scope.IsTryBlock) Whole = PM.getParent(const_cast<CompoundStmt *>(Scope.Block));
      const auto *Parent = Whole ? dyn_cast_or_null<CompoundStmt>(PM.getParent(const_cast<Stmt *>(Whole))) : nullptr;
      if (!Parent) continue;
      const auto *It = llvm::find(Parent->body(), Whole);
      if (It == Parent->body_end() || It + 1 == Parent->body_end()) continue;
      Blocks.push_back({offset(Scope.Block->getLBracLoc()), offset(Scope.Block->getRBracLoc())});
      Next.push_back({offset((*(It + 1))->getBeginLoc()), offset((*(It + 1))->getEndLoc())});
    }
  }
  bool empty() const { return Blocks.empty(); }
  size_t size() const { return Blocks.size(); }
  // The scopes whose blocks hold S, and those whose next statements do.
  llvm::SmallBitVector inside(const Stmt *S) const { return within(S, Blocks); }
  llvm::SmallBitVector next(const Stmt *S) const { return within(S, Next); }

 private:
  unsigned offset(SourceLocation L) const { return SM.getFileOffset(SM.getExpansionLoc(L)); }
  llvm::SmallBitVector within(const Stmt *S, const std::vector<std::pair<unsigned, unsigned>> &Ranges) const {
    llvm::SmallBitVector Out(Ranges.size());
    const SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
    if (!SM.isWrittenInMainFile(L)) return Out;
    const unsigned At = SM.getFileOffset(L);
    for (size_t I = 0; I < Ranges.size(); ++I) Out[I] = Ranges[I].first <= At && At <= Ranges[I].second;
    return Out;
  }
  const SourceManager &SM;
  std::vector<std::pair<unsigned, unsigned>> Blocks, Next;
};

class TryCollector : public RecursiveASTVisitor<TryCollector> {
 public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool VisitCXXTryStmt(CXXTryStmt *S) {
    Tries.push_back(S);
    return true;
  }
  std::vector<const CXXTryStmt *> Tries;
};

// May a spawned child be outstanding (not yet synced) at each sync, return
// and the closing brace, and inside each try block?
Outstanding computeOutstanding(ASTContext &Ctx, const CFG &G, const CilkProcedure &Proc,
                               ArrayRef<const CXXTryStmt *> Tries) {
  llvm::DenseMap<const Stmt *, std::pair<Effect, unsigned>> Effects;
  for (unsigned I = 0; I < Proc.Spawns.size(); ++I) Effects[Proc.Spawns[I].Call] = {Effect::Spawn, I};
  for (unsigned I = 0; I < Proc.Syncs.size(); ++I) Effects[Proc.Syncs[I].Marker] = {Effect::Sync, I};
  for (unsigned I = 0; I < Proc.Returns.size(); ++I) Effects[Proc.Returns[I]] = {Effect::Return, I};

  Outstanding Result;
  Result.AtSync.assign(Proc.Syncs.size(), false);
  Result.AtReturn.assign(Proc.Returns.size(), false);
  Result.InTry.assign(Tries.size(), false);
  const SourceManager &SM = Ctx.getSourceManager();
  auto TriesHolding = [&](const Stmt *S) {
    llvm::SmallVector<unsigned, 2> Holding;
    const SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
    for (unsigned T = 0; T < Tries.size(); ++T)
      if (SM.isPointWithin(L, SM.getExpansionLoc(Tries[T]->getTryBlock()->getLBracLoc()),
                           SM.getExpansionLoc(Tries[T]->getTryBlock()->getRBracLoc())))
        Holding.push_back(T);
    return Holding;
  };
  std::vector<char> Out(G.getNumBlockIDs(), 0), Reached(G.getNumBlockIDs(), 0);
  Reached[G.getEntry().getBlockID()] = 1;

  // Per block, the scopes its last element is inside (for a block without
  // elements, those all its predecessors' are), and those whose next
  // statement its first element begins.
  const ScopeExits Exits(Ctx, Proc);
  std::vector<llvm::SmallBitVector> LastInside(G.getNumBlockIDs(), llvm::SmallBitVector(Exits.size())),
      FirstInNext(G.getNumBlockIDs(), llvm::SmallBitVector(Exits.size()));
  std::vector<char> HasElements(G.getNumBlockIDs(), 0);
  if (!Exits.empty())
    for (const CFGBlock *B : G)
      for (const CFGElement &E : *B)
        if (auto S = E.getAs<CFGStmt>()) {
          if (!HasElements[B->getBlockID()]) FirstInNext[B->getBlockID()] = Exits.next(S->getStmt());
          HasElements[B->getBlockID()] = 1;
          LastInside[B->getBlockID()] = Exits.inside(S->getStmt());
        }

  // Monotone over a two-point lattice, so a few sweeps reach the fixpoint.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : G) {
      bool State = false, Reachable = B == &G.getEntry();
      llvm::SmallBitVector Inside(Exits.size(), true);
      for (const CFGBlock::AdjacentBlock &Pred : B->preds())
        if (const CFGBlock *P = Pred.getReachableBlock()) {
          // The edge that leaves a scope by its end has synced.
          const bool Leaves = (LastInside[P->getBlockID()] & FirstInNext[B->getBlockID()]).any();
          State |= Out[P->getBlockID()] && !Leaves;
          Reachable |= Reached[P->getBlockID()];
          Inside &= LastInside[P->getBlockID()];
        }
      if (!HasElements[B->getBlockID()] && !B->pred_empty() && LastInside[B->getBlockID()] != Inside) {
        LastInside[B->getBlockID()] = Inside;
        Changed = true;
      }
      // A handler starts once every child has completed: on the fast path
      // nothing was stolen, on the resume path the try block's settle point
      // synced.
      if (isa_and_nonnull<CXXCatchStmt>(B->getLabel())) State = false;
      llvm::SmallBitVector Previous(Exits.size());
      for (const CFGElement &E : *B) {
        auto S = E.getAs<CFGStmt>();
        if (!S) continue;
        if (!Exits.empty()) {
          if ((Previous & Exits.next(S->getStmt())).any()) State = false;
          Previous = Exits.inside(S->getStmt());
        }
        if (State && !Tries.empty())
          for (unsigned T : TriesHolding(S->getStmt()))
            if (!Result.InTry[T]) Result.InTry[T] = Changed = true;
        auto It = Effects.find(S->getStmt());
        if (It == Effects.end()) continue;
        auto [Kind, Index] = It->second;
        if (Kind == Effect::Spawn) State = true;
        if (Kind == Effect::Sync) {
          if (State && !Result.AtSync[Index]) Result.AtSync[Index] = Changed = true;
          State = false;
        }
        if (Kind == Effect::Return && State && !Result.AtReturn[Index])
          Result.AtReturn[Index] = Changed = true;
      }
      if (Out[B->getBlockID()] != State || Reached[B->getBlockID()] != Reachable) {
        Out[B->getBlockID()] = State;
        Reached[B->getBlockID()] = Reachable;
        Changed = true;
      }
    }
  }
  // Falling off the end: predecessors of the exit block not ending in a return.
  for (const CFGBlock::AdjacentBlock &Pred : G.getExit().preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || !Reached[P->getBlockID()]) continue;
    bool EndsInReturn = false;
    if (!P->empty())
      if (auto Last = P->back().getAs<CFGStmt>()) EndsInReturn = isa<ReturnStmt>(Last->getStmt());
    if (EndsInReturn) continue;
    Result.EndReachable = true;
    Result.AtEnd |= Out[P->getBlockID()];
  }
  return Result;
}

// A spawn whose next statement in the same block is a sync.
std::vector<bool> findTailSpawns(ParentMap &PM, const CilkProcedure &Proc) {
  llvm::DenseSet<const Stmt *> SyncStatements;
  for (const SyncSite &S : Proc.Syncs) SyncStatements.insert(S.Marker);
  std::vector<bool> Tail(Proc.Spawns.size(), false);
  for (unsigned I = 0; I < Proc.Spawns.size(); ++I) {
    const auto *Block = dyn_cast_or_null<CompoundStmt>(PM.getParent(const_cast<Stmt *>(Proc.Spawns[I].Statement)));
    if (!Block) continue;
    for (auto It = Block->body_begin(); It != Block->body_end(); ++It)
      if (*It == Proc.Spawns[I].Statement && It + 1 != Block->body_end()) Tail[I] = SyncStatements.contains(*(It + 1));
  }
  return Tail;
}

}  // namespace

bool findContinuationPoints(ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame) {
  const FunctionDecl *FD = Proc.Definition;
  Stmt *Body = FD->getBody();
  std::unique_ptr<CFG> G = CFG::buildCFG(FD, Body, &Ctx, CFG::BuildOptions());
  if (!G) {
    diag::report(Ctx.getDiagnostics(), FD->getLocation(), diag::CfgUnavailable) << FD;
    return false;
  }
  TryCollector Collector;
  Collector.TraverseStmt(Body);
  Frame.Tries = std::move(Collector.Tries);
  Outstanding O = computeOutstanding(Ctx, *G, Proc, Frame.Tries);
  Frame.FallsOffEnd = O.EndReachable;

  for (unsigned I = 0; I < Proc.Spawns.size(); ++I)
    Frame.Points.push_back({PointKind::Spawn, 0, I, Proc.Spawns[I].KeywordLoc, {}});
  for (unsigned I = 0; I < Proc.Syncs.size(); ++I)
    if (O.AtSync[I]) Frame.Points.push_back({PointKind::Sync, 0, I, Proc.Syncs[I].KeywordLoc, {}});
  for (unsigned I = 0; I < Proc.Returns.size(); ++I)
    if (O.AtReturn[I]) Frame.Points.push_back({PointKind::Return, 0, I, Proc.Returns[I]->getBeginLoc(), {}});
  if (O.AtEnd) Frame.Points.push_back({PointKind::EndOfBody, 0, 0, Body->getEndLoc(), {}});
  // The end of a cilk_scope that spawns syncs (the dataflow above clears
  // the outstanding children where the block falls through to the statement
  // after it; ScopeExits).
  const SourceManager &SM = Ctx.getSourceManager();
  for (unsigned I = 0; I < Proc.Scopes.size(); ++I) {
    const CompoundStmt *Block = Proc.Scopes[I].Block;
    auto Inside = [&](SourceLocation L) {
      return SM.isPointWithin(SM.getExpansionLoc(L), Block->getLBracLoc(), Block->getRBracLoc());
    };
    if (llvm::any_of(Proc.Spawns, [&](const SpawnSite &S) { return Inside(S.KeywordLoc); }))
      Frame.Points.push_back({PointKind::ScopeEnd, 0, I, Block->getRBracLoc(), {}});
  }

  ParentMap PM(Body);
  // A try block without points of its own, which children may outstand: its
  // settle point (optional: FrameLayout may drop it, and an exception there
  // then waits for the children on the worker's stack; translation.md, "try
  // blocks").
  for (unsigned T = 0; T < Frame.Tries.size(); ++T) {
    const CompoundStmt *Block = Frame.Tries[T]->getTryBlock();
    const auto Inside = [&](const ContinuationPoint &P) {
      return SM.isPointWithin(SM.getExpansionLoc(P.Loc), SM.getExpansionLoc(Block->getLBracLoc()),
                              SM.getExpansionLoc(Block->getRBracLoc()));
    };
    if (O.InTry[T] && llvm::none_of(Frame.Points, Inside) && !Frame.Tries[T]->getTryLoc().isMacroID() &&
        !unsupportedEnclosingConstruct(PM, Frame.Tries[T]))
      Frame.Points.push_back({PointKind::Settle, 0, T, Frame.Tries[T]->getTryLoc(), {}});
  }

  // A return that must wait for children cannot sit where the resume clone
  // cannot jump to.
  Frame.SpawnIsTail = findTailSpawns(PM, Proc);
  bool Ok = true;
  for (const ContinuationPoint &P : Frame.Points)
    if (P.Kind == PointKind::Return)
      if (const char *Construct = unsupportedEnclosingConstruct(PM, Proc.Returns[P.Site])) {
        diag::report(Ctx.getDiagnostics(), P.Loc, diag::ContinuationInUnsupported) << Construct;
        Ok = false;
      }

  numberContinuationPoints(SM, Frame);
  return Ok;
}

void numberContinuationPoints(const SourceManager &SM, FrameDescription &Frame) {
  const CilkProcedure &Proc = *Frame.Procedure;
  // Entries follow source order, which keeps the emitted code easy to read.
  std::stable_sort(Frame.Points.begin(), Frame.Points.end(), [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.Loc), SM.getExpansionLoc(B.Loc));
  });
  Frame.SpawnEntry.assign(Proc.Spawns.size(), 0);
  Frame.SyncEntry.assign(Proc.Syncs.size(), 0);
  Frame.ReturnEntry.assign(Proc.Returns.size(), 0);
  Frame.ScopeEntry.assign(Proc.Scopes.size(), 0);
  Frame.PollEntry.assign(Frame.PollSites.size(), 0);
  Frame.CallEntry.assign(Frame.Calls.size(), 0);
  Frame.EndEntry = 0;
  int Entry = 0;
  for (ContinuationPoint &P : Frame.Points) {
    P.Entry = ++Entry;
    switch (P.Kind) {
      case PointKind::Spawn: Frame.SpawnEntry[P.Site] = P.Entry; break;
      case PointKind::Sync: Frame.SyncEntry[P.Site] = P.Entry; break;
      case PointKind::Return: Frame.ReturnEntry[P.Site] = P.Entry; break;
      case PointKind::EndOfBody: Frame.EndEntry = P.Entry; break;
      case PointKind::ScopeEnd: Frame.ScopeEntry[P.Site] = P.Entry; break;
      case PointKind::Poll: Frame.PollEntry[P.Site] = P.Entry; break;
      case PointKind::Call: Frame.CallEntry[P.Site] = P.Entry; break;
      case PointKind::Settle: break;  // (TryBlocks::settleEntry)
    }
  }
}

}  // namespace cilkpp
