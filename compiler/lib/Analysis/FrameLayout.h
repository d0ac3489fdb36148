// Which variables live in the frame: those in scope across a continuation
// point. Also decides which of them the fast clone keeps in the frame
// (address taken) and which it stores there only at spawns and poll points
// (live ones), and which poll points the fast path can afford.
#pragma once

#include "Analysis/FrameDescription.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

// Needs the continuation points; drops the poll points that would change the
// fast path (renumbering the points), fills Fields, FieldIndex, FastPathSaves
// and EagerFrame. Reports variables whose type cannot live in a frame yet.
bool computeFrameLayout(clang::ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame);

}  // namespace cilkpp
