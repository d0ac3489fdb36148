// A spawn's target variable used before the sync that waits for the spawn.
// Read or written: the child may not have written it yet (a determinacy
// race), a warning. Out of scope: the child would assign an object that no
// longer exists, an error for a type with a destructor, else a warning (the
// result is lost). Each with a note at the spawn.
#pragma once

#include "Sema/CilkModel.h"

#include "clang/AST/ASTContext.h"

namespace cilkpp {

void checkOutstandingTargets(clang::ASTContext &Ctx, const CilkProcedure &Proc);

}  // namespace cilkpp
