// cilk_for lowering: the loop header becomes a call of the runtime's
// parallel_for (runtime/include/cilkpp/rt/parallel_for.h) whose last argument
// is a lambda with the body, taking the loop variable by value; `continue`
// becomes `return`. Only the header, the end of the body and those keywords
// are edited, so the body's text goes through the clone emitter's own
// rewriting unchanged.
#pragma once

#include "Sema/CilkModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <functional>
#include <string>

namespace cilkpp {

// The text of a source range as the output should spell it (a clone
// substitutes frame accesses; elsewhere it is the source text).
using RenderFn = std::function<std::string(clang::SourceRange)>;

// The range the lowering replaces as a whole: the loop header.
clang::CharSourceRange loopHeaderRange(const clang::SourceManager &SM, const ParallelLoop &Loop);

// Lowers every loop in Loops; inner loops' insertions land before those of
// the loops around them.
void lowerParallelLoops(clang::ASTContext &Ctx, clang::Rewriter &R, llvm::ArrayRef<const ParallelLoop *> Loops,
                        const RenderFn &Render, llvm::StringRef FileName);

}  // namespace cilkpp
