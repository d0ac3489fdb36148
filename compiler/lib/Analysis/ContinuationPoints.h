// Continuation points: every spawn, and every sync (explicit, or implicit at
// a return or at the closing brace) at which a spawned child may still be
// outstanding, and the settle point of every try block without points of
// its own in which one may be. A forward dataflow over Clang's CFG decides
// where children may be outstanding.
#pragma once

#include "Analysis/FrameDescription.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

// Fills Points, Tries, SpawnEntry, SyncEntry, ReturnEntry, EndEntry, FallsOffEnd.
bool findContinuationPoints(clang::ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame);

// Numbers Frame.Points (their Frame::entry values) in source order and fills
// the per-site entries; again whenever points are added or dropped.
void numberContinuationPoints(const clang::SourceManager &SM, FrameDescription &Frame);

}  // namespace cilkpp
