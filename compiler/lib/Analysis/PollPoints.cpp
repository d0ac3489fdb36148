#include "Analysis/PollPoints.h"

#include "Analysis/ContinuationPoints.h"
#include "Analysis/OwnCode.h"
#include "Sema/ProcedureChecks.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace cilkpp {
namespace {

// The loops, continues and gotos of the procedure's own code, in source
// order. A cilk_for's body becomes a lambda that other workers run, so
// neither it nor the loops in it poll this frame.
class LoopCollector : public OwnCodeVisitor<LoopCollector> {
 public:
  using OwnCodeVisitor::OwnCodeVisitor;
  bool VisitStmt(Stmt *S) {
    if (isa<ForStmt, WhileStmt, DoStmt>(S)) Loops.push_back(S);
    if (const auto *C = dyn_cast<ContinueStmt>(S)) Continues.push_back(C);
    if (const auto *G = dyn_cast<GotoStmt>(S)) Gotos.push_back(G);
    return true;
  }
  std::vector<const Stmt *> Loops;
  std::vector<const ContinueStmt *> Continues;
  std::vector<const GotoStmt *> Gotos;
};

const Stmt *bodyOf(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop)) return F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Loop)) return W->getBody();
  return cast<DoStmt>(Loop)->getBody();
}

// Where a block opened around a loop's body would begin: after the header.
SourceLocation headerEnd(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop)) return F->getRParenLoc();
  if (const auto *W = dyn_cast<WhileStmt>(Loop)) return W->getRParenLoc();
  return cast<DoStmt>(Loop)->getDoLoc();
}

// The loop a continue goes to the end of.
const Stmt *loopOf(ParentMap &PM, const ContinueStmt *C) {
  const Stmt *S = PM.getParent(const_cast<ContinueStmt *>(C));
  while (S && !isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) S = PM.getParent(const_cast<Stmt *>(S));
  return S;
}

// `T a, b;` of variables without initializers: nothing runs.
bool isUninitializedDeclaration(const Stmt *S) {
  const auto *D = dyn_cast<DeclStmt>(S);
  return D && llvm::all_of(D->decls(), [](const Decl *Dcl) {
           const auto *V = dyn_cast<VarDecl>(Dcl);
           return V && !V->hasInit();
         });
}

}  // namespace

bool isBaseCase(ASTContext &Ctx, const Stmt *S) {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getInit() || If->getConditionVariable() || If->getElse() || If->isConstexpr() ||
      If->getBeginLoc().isMacroID() || If->getEndLoc().isMacroID() || If->getCond()->HasSideEffects(Ctx))
    return false;
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then); Block && Block->size() == 1) Then = Block->body_front();
  const auto *Return = dyn_cast<ReturnStmt>(Then);
  return Return && (!Return->getRetValue() || !Return->getRetValue()->HasSideEffects(Ctx));
}

// An innermost loop that calls nothing out of line: a few instructions per
// iteration, which compilers unroll and vectorize. A load and a branch per
// iteration would cost more than the iteration itself there (and stop the
// vectorizer: matmul's kernel ran at half speed), so such a loop gets no
// poll point; the loops around it, or the procedure's entry, poll between
// its runs. A loop that calls a function not defined inline (or spawns, or
// allocates) pays far more per iteration than a poll.
bool isTightLoop(const Stmt *Loop) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt *Root;
    bool Heavy = false;
    bool VisitStmt(Stmt *S) {
      if (S != Root && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) Heavy = true;
      if (isa<CXXNewExpr, CXXDeleteExpr, CXXThrowExpr>(S)) Heavy = true;
      return !Heavy;
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      Heavy |= !F || !(F->isInlined() || F->getBuiltinID());
      return !Heavy;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      Heavy |= !C->getConstructor()->isTrivial() && !C->getConstructor()->isInlined();
      return !Heavy;
    }
  } F;
  F.Root = Loop;
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return !F.Heavy;
}

void findPollPoints(ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = cast<CompoundStmt>(Proc.Definition->getBody());
  const Stmt *FirstAfterBaseCases = nullptr;
  for (const Stmt *S : Body->body()) {
    if (!isBaseCase(Ctx, S)) break;
    Frame.EntryPollAfter = S;
  }
  // The first statement that does something (`long x, y;` does not).
  for (auto It = Body->body_begin(); It != Body->body_end() && !FirstAfterBaseCases; ++It) {
    if (Frame.EntryPollAfter && SM.isBeforeInTranslationUnit((*It)->getBeginLoc(), Frame.EntryPollAfter->getEndLoc()))
      continue;
    if (const Stmt *S = *It; !isUninitializedDeclaration(S)) FirstAfterBaseCases = S;
  }
  // Site 0 is the entry. A spawn right after the base cases tests the same
  // request byte at once and answers a mug request by exposing the frame (a
  // thief then steals the continuation, as ECS does when the victim's deque
  // holds work), so an entry poll there would only cost fib-like procedures
  // their speed (fib(38) +13% on one worker).
  Frame.PollSites.push_back(nullptr);
  const bool SpawnsFirst = FirstAfterBaseCases && llvm::any_of(Proc.Spawns, [&](const SpawnSite &Spawn) {
                             return Spawn.Statement == FirstAfterBaseCases;
                           });
  const SourceLocation Entry = Frame.EntryPollAfter ? Frame.EntryPollAfter->getEndLoc() : Body->getLBracLoc();
  // A forwarder's callee polls at its own entry, at once.
  if (!SpawnsFirst && !Proc.Forwards) Frame.Points.push_back({PointKind::Poll, 0, 0, SM.getExpansionLoc(Entry), {}});

  LoopCollector Collector(Proc);
  Collector.TraverseStmt(const_cast<CompoundStmt *>(Body));
  ParentMap PM(const_cast<CompoundStmt *>(Body));
  // The generated code edits a loop's body at its ends, and its continues;
  // none of them may be inside a macro.
  llvm::DenseSet<const Stmt *> Unwritable;
  for (const ContinueStmt *C : Collector.Continues)
    if (C->getBeginLoc().isMacroID())
      if (const Stmt *Loop = loopOf(PM, C)) Unwritable.insert(Loop);
  // Inner loops first: points are numbered in source order, and a loop whose
  // body is another loop ends where that one does, after it.
  for (const Stmt *Loop : llvm::reverse(Collector.Loops)) {
    const Stmt *LoopBody = bodyOf(Loop);
    if (Unwritable.contains(Loop) || headerEnd(Loop).isMacroID() || LoopBody->getBeginLoc().isMacroID() ||
        LoopBody->getEndLoc().isMacroID())
      continue;
    if (isTightLoop(Loop) || unsupportedEnclosingConstruct(PM, LoopBody)) continue;
    const SourceLocation At = SM.getExpansionLoc(LoopBody->getEndLoc());
    const bool JumpedOver = llvm::any_of(Collector.Gotos, [&](const GotoStmt *G) {
      SourceLocation From = SM.getExpansionLoc(G->getBeginLoc());
      SourceLocation To = SM.getExpansionLoc(G->getLabel()->getStmt()->getBeginLoc());
      if (SM.isBeforeInTranslationUnit(To, From)) std::swap(From, To);
      return SM.isPointWithin(At, From, To);
    });
    if (JumpedOver) continue;
    Frame.Points.push_back({PointKind::Poll, 0, static_cast<unsigned>(Frame.PollSites.size()), At, {}});
    Frame.PollSites.push_back(Loop);
  }
  numberContinuationPoints(SM, Frame);
}

}  // namespace cilkpp
