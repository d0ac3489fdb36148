// Continuation points inside try blocks. C++ forbids jumping into a try
// block, so the resume clone cannot go to such a point straight from its
// entry switch: it jumps to a label before the outermost try block holding
// the point, with __cilkpp_resuming set, and a second switch at the start of
// each such try block goes on inward, to the next try block or the point.
#pragma once

#include "Analysis/FrameDescription.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace cilkpp {

class TryBlocks {
 public:
  TryBlocks(clang::ASTContext &Ctx, const FrameDescription &Frame);

  // Some continuation point lies in a try block.
  bool holdPoints() const { return HoldPoints; }
  // The statement the resume clone's entry switch runs for the point.
  std::string entryCase(const ContinuationPoint &P) const;
  // A spawn whose child may throw has a second entry, -P.Entry, where the
  // resume clone rethrows its children's first exception after they have
  // completed (CloneEmitter's throwPoint): which spawns (by index) have
  // one, whether a point is one's, and the switch's statement for it.
  void markThrowPoints(llvm::function_ref<bool(unsigned)> SpawnHasThrowPoint);
  bool hasThrowPoint(const ContinuationPoint &P) const { return ThrowPoints[&P - Frame.Points.data()]; }
  std::string throwCase(const ContinuationPoint &P) const;
  // A try block that holds points, or has a PointKind::Settle point, ends
  // in a settle point: where an exception leaving its statements waits, as
  // a sync, for the children still running, and the first of all in serial
  // order is thrown on to the handlers. Whether it has one, its entry (the
  // Settle point's, else after every other), and the entry switch's
  // statements for them all.
  bool hasSettlePoint(unsigned TryIndex) const;
  int settleEntry(unsigned TryIndex) const;
  std::string settleCases() const;
  // Labels before, and dispatches at the start of, the try blocks holding
  // points (resume clone only).
  void emitDispatch(clang::Rewriter &R) const;
  // Loc is inside the try block (not a handler) of some try statement.
  bool inTryBlock(clang::SourceLocation Loc) const;
  const std::vector<const clang::CXXTryStmt *> &statements() const { return Tries; }

 private:
  bool contains(const clang::CXXTryStmt *T, clang::SourceLocation Loc) const;

  const clang::SourceManager &SM;
  const FrameDescription &Frame;
  const std::vector<const clang::CXXTryStmt *> &Tries;  // Frame.Tries
  // Per try statement: its PointKind::Settle point, if it has one.
  std::vector<const ContinuationPoint *> SettlePoints;
  // Per point: indices into Tries of the try blocks holding it, outermost first.
  std::vector<std::vector<unsigned>> Chains;
  std::vector<bool> ThrowPoints;  // per point
  // The same for each try block's settle point (the block itself last).
  std::vector<std::vector<unsigned>> SettleChains;
  bool HoldPoints = false;
};

}  // namespace cilkpp
