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
  // Every try statement of the body (not of lambdas), in source order.
  std::vector<const clang::CXXTryStmt *> Tries;
  // Per point: indices into Tries of the try blocks holding it, outermost first.
  std::vector<std::vector<unsigned>> Chains;
  bool HoldPoints = false;
};

}  // namespace cilkpp
