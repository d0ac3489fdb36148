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

// `return f(...);` of a cilk procedure f needs no call point: the fast
// clone can call f's fast clone in its own place, with its own parent,
// result slot and number, so that f's frames are its parent's children and
// an escape of f is its own. Only where nothing of the caller's is still
// needed once f runs elsewhere: f returns the caller's type (trivially
// copyable, or void); the caller's frame is not on the heap, holds no
// object with a destructor, and the return is not in a try block; and the
// arguments cannot refer to the caller's locals (no address taken, no
// local array, pointers and references only from parameters the caller
// never changes, no local or by-value parameter bound to a reference
// parameter of f). A member f called on an object (`return p->f(...);`)
// too, when evaluating the object has no side effects and it cannot be the
// caller's own storage (CloneEmitter passes its address first).
//
// Adds the candidates to Frame.Calls and Frame.Points (PointKind::Call,
// numbered with the others), and fills Frame.TailCalls.
void findCallPoints(clang::ASTContext &Ctx, const CilkProcedureSet &CilkFunctions, FrameDescription &Frame);

// Whether Call can be a call point as far as its callee and arguments go (the
// second group of conditions above).
bool isCallPointCallee(const CilkProcedureSet &CilkFunctions, const clang::CallExpr *Call);

// Whether the procedure can make none of the tail calls above: it holds a
// local with a destructor (or has a goto).
bool makesNoTailCalls(const CilkProcedure &Proc);

}  // namespace cilkpp
