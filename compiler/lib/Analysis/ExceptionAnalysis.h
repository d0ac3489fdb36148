// Which cilk procedures may throw. Only those pay for exceptions across
// spawns (a spawn counter, handlers around spawned calls, an unwinding path
// in the resume clone); fib and its kind stay as cheap as before.
#pragma once

#include "Analysis/FrameDescription.h"
#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

// Fills MayThrow and SpawnMayThrow of every frame. A procedure may throw when
// it is not declared noexcept and its body contains a throw, a call of a
// function not declared noexcept (cilk procedures of this file count as
// their own bodies say, found as a fixed point; those defined elsewhere as
// their declarations say), or another construct that can throw.
void analyseExceptions(const CilkProcedureSet &CilkFunctions, std::vector<FrameDescription> &Frames);

// Whether a function's declaration promises not to throw.
bool declaredNothrow(const clang::FunctionDecl *FD);

}  // namespace cilkpp
