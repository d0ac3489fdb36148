// cilk_for: ties each keyword to the ForStmt it introduced, checks that the
// loop has the shape the runtime's parallel_for can run (a loop variable, a
// comparison with a bound evaluated once, a constant-direction step), and
// that nothing in the body leaves it.
#pragma once

#include "Dialect/Keywords.h"
#include "Dialect/Pragmas.h"
#include "Sema/CilkModel.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace cilkpp {

// Appends the loops that passed the checks to Loops; reports the others.
void bindParallelLoops(clang::ASTContext &Ctx, llvm::ArrayRef<KeywordUse> Uses, llvm::ArrayRef<GrainPragma> Pragmas,
                       std::vector<ParallelLoop> &Loops);

// The loop whose body contains Loc, innermost first, or nullptr.
const ParallelLoop *enclosingLoop(const clang::SourceManager &SM, llvm::ArrayRef<ParallelLoop> Loops,
                                  clang::SourceLocation Loc);

}  // namespace cilkpp
