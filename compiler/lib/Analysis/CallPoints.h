// Call points: plain calls of cilk procedures in a cilk procedure
// (`y = f(x);`, `T y = f(x);`, `f(x);`). The fast clone calls the callee's
// fast clone with its own frame as the parent (runtime/include/cilkpp/rt/
// calls.h), so the callee's frames join this chain instead of starting a
// nested root call: thieves can take their continuations and, meanwhile,
// the continuations above this frame; and when one is taken, this frame
// resumes at the call point once the callee completes, instead of its
// worker waiting there with the callee's frames on its stack.
//
// A call point is a continuation point the fast clone takes only if the
// callee escapes; like a poll point it is optional: FrameLayout drops one
// whose variables in scope would make the fast path pay more (a class type
// or address-taken variable living in the frame, one no frame can hold, a
// shadowed name), and the call stays a nested root call. Candidates:
// - the three statement forms above, the target a local of the result's
//   type, the result void or trivially copyable (and a declared class
//   target trivially default-constructible);
// - a callee that is a cilk procedure of this file, called directly (not
//   virtually, not through an object or pointer to function), with no
//   temporaries or default arguments among its arguments;
// - only where the resume clone can jump back in (the rules of
//   ProcedureChecks, and not in a try block), in the procedure's own code
//   (not lambdas, local classes, cilk_for bodies), and not in a procedure
//   with a goto.
#pragma once

#include "Analysis/FrameDescription.h"
#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

// Adds the candidates to Frame.Calls and Frame.Points (PointKind::Call,
// numbered with the others).
void findCallPoints(clang::ASTContext &Ctx, const CilkProcedureSet &CilkFunctions, FrameDescription &Frame);

}  // namespace cilkpp
