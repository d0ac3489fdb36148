#include "CodeGen/TryBlocks.h"

#include "clang/Basic/SourceManager.h"

#include <fmt/format.h>

using namespace clang;

namespace cilkpp {
namespace {

std::string label(unsigned TryIndex) { return fmt::format("__cilkpp_try_{}", TryIndex + 1); }

}  // namespace

TryBlocks::TryBlocks(ASTContext &Ctx, const FrameDescription &Frame)
    : SM(Ctx.getSourceManager()), Frame(Frame), Tries(Frame.Tries) {
  Chains.resize(Frame.Points.size());
  SettlePoints.assign(Tries.size(), nullptr);
  // Tries are in source order, so enclosing ones come first. (A settle
  // point lies before its own try block, in those enclosing it.)
  std::vector<bool> Holds(Tries.size());
  for (unsigned P = 0; P < Frame.Points.size(); ++P) {
    if (Frame.Points[P].Kind == PointKind::Settle) {
      SettlePoints[Frame.Points[P].Site] = &Frame.Points[P];
      Holds[Frame.Points[P].Site] = HoldPoints = true;
    }
    for (unsigned T = 0; T < Tries.size(); ++T)
      if (contains(Tries[T], Frame.Points[P].Loc)) {
        Chains[P].push_back(T);
        Holds[T] = HoldPoints = true;
      }
  }
  // (A block holding no point has none: the entry switch would jump past
  // the initialization of locals that are not frame fields.)
  SettleChains.resize(Tries.size());
  for (unsigned S = 0; S < Tries.size(); ++S) {
    if (!Holds[S]) continue;
    for (unsigned T = 0; T < S; ++T)
      if (contains(Tries[T], Tries[S]->getTryLoc())) SettleChains[S].push_back(T);
    SettleChains[S].push_back(S);
  }
}

bool TryBlocks::hasSettlePoint(unsigned TryIndex) const { return !SettleChains[TryIndex].empty(); }

int TryBlocks::settleEntry(unsigned TryIndex) const {
  if (SettlePoints[TryIndex]) return SettlePoints[TryIndex]->Entry;
  int Max = 0;
  for (const ContinuationPoint &P : Frame.Points) Max = std::max(Max, P.Entry);
  // (After the unwind entry, Max + 1.)
  return Max + 2 + static_cast<int>(TryIndex);
}

std::string TryBlocks::settleCases() const {
  std::string Cases;
  for (unsigned S = 0; S < Tries.size(); ++S)
    if (hasSettlePoint(S))
      Cases += fmt::format(" case {}: __cilkpp_resuming = true; goto {};", settleEntry(S), label(SettleChains[S].front()));
  return Cases;
}

bool TryBlocks::contains(const CXXTryStmt *T, SourceLocation Loc) const {
  const CompoundStmt *Block = T->getTryBlock();
  return SM.isPointWithin(SM.getExpansionLoc(Loc), SM.getExpansionLoc(Block->getLBracLoc()),
                          SM.getExpansionLoc(Block->getRBracLoc()));
}

bool TryBlocks::inTryBlock(SourceLocation Loc) const {
  for (const CXXTryStmt *T : Tries)
    if (contains(T, Loc)) return true;
  return false;
}

std::string TryBlocks::entryCase(const ContinuationPoint &P) const {
  const std::vector<unsigned> &Chain = Chains[&P - Frame.Points.data()];
  if (Chain.empty()) return fmt::format("goto __cilkpp_resume_{};", P.Entry);
  return fmt::format("__cilkpp_resuming = true; goto {};", label(Chain.front()));
}

void TryBlocks::markThrowPoints(llvm::function_ref<bool(unsigned)> SpawnHasThrowPoint) {
  ThrowPoints.assign(Frame.Points.size(), false);
  for (unsigned P = 0; P < Frame.Points.size(); ++P)
    ThrowPoints[P] = Frame.Points[P].Kind == PointKind::Spawn && SpawnHasThrowPoint(Frame.Points[P].Site);
}

std::string TryBlocks::throwCase(const ContinuationPoint &P) const {
  const std::vector<unsigned> &Chain = Chains[&P - Frame.Points.data()];
  if (Chain.empty()) return fmt::format("goto __cilkpp_rethrow_{};", P.Entry);
  return fmt::format("__cilkpp_resuming = true; goto {};", label(Chain.front()));
}

void TryBlocks::emitDispatch(Rewriter &R) const {
  for (unsigned T = 0; T < Tries.size(); ++T) {
    std::string Cases;
    for (unsigned P = 0; P < Frame.Points.size(); ++P) {
      // (A settle point's cases are its try block's, below.)
      if (Frame.Points[P].Kind == PointKind::Settle) continue;
      const std::vector<unsigned> &Chain = Chains[P];
      auto It = std::find(Chain.begin(), Chain.end(), T);
      if (It == Chain.end()) continue;
      const int Entry = Frame.Points[P].Entry;
      Cases += It + 1 == Chain.end()
                   ? fmt::format(" case {0}: __cilkpp_resuming = false; goto __cilkpp_resume_{0};", Entry)
                   : fmt::format(" case {}: goto {};", Entry, label(*(It + 1)));
      if (ThrowPoints[P])
        Cases += It + 1 == Chain.end()
                     ? fmt::format(" case -{0}: __cilkpp_resuming = false; goto __cilkpp_rethrow_{0};", Entry)
                     : fmt::format(" case -{}: goto {};", Entry, label(*(It + 1)));
    }
    for (unsigned S = 0; S < Tries.size(); ++S) {
      const std::vector<unsigned> &Chain = SettleChains[S];
      auto It = std::find(Chain.begin(), Chain.end(), T);
      if (It == Chain.end()) continue;
      Cases += It + 1 == Chain.end()
                   ? fmt::format(" case {}: __cilkpp_resuming = false; goto __cilkpp_resettle_{};", settleEntry(S), S + 1)
                   : fmt::format(" case {}: goto {};", settleEntry(S), label(*(It + 1)));
    }
    if (Cases.empty()) continue;
    R.InsertTextBefore(SM.getExpansionLoc(Tries[T]->getTryLoc()), label(T) + ": ");
    R.InsertTextAfterToken(SM.getExpansionLoc(Tries[T]->getTryBlock()->getLBracLoc()),
                           fmt::format(" if (__builtin_expect(__cilkpp_resuming, 0)) switch (__frame->entry) {{{} "
                                       "default: __builtin_unreachable(); }}",
                                       Cases));
  }
}

}  // namespace cilkpp
