// Reads of a spawn's target before the sync that waits for the spawn: the
// child may not have written the variable yet (a determinacy race). Reported
// as warnings, each with a note at the spawn.
#pragma once

#include "Sema/CilkModel.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

void warnOutstandingReads(clang::ASTContext &Ctx, const CilkProcedure &Proc);

}  // namespace cilkpp
