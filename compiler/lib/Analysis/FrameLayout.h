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
// and EagerFrame. Reports variables whose type cannot live in a frame yet
// (a lambda's, with the reason it stayed unnamed from Unmoved).
bool computeFrameLayout(clang::ASTContext &Ctx, const CilkProcedure &Proc, FrameDescription &Frame,
                        const UnmovedBodyReasons &Unmoved);

// Whether the spawn's target has another type than the callee's result.
bool convertsResult(clang::ASTContext &Ctx, const SpawnSite &S);

// A spawn into an element or member of another scalar type (`a[i] = spawn
// f(i)`, `a` an array of int and f returning long). Spawns from one site may
// be outstanding together, each with its own target, so no frame field can
// hold their results (as ConvertedResults do for variables): the parent
// converts the result itself, after a plain call of the callee (a cilk
// procedure's is a nested root call), and writes it into the target even
// after a steal.
inline bool convertsIntoLValue(clang::ASTContext &Ctx, const SpawnSite &S) {
  return S.TargetLValue && convertsResult(Ctx, S);
}

}  // namespace cilkpp
