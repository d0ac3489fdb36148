// What a cilk_for can count with: the types the runtime's parallel_for
// splits (runtime/include/cilkpp/rt/parallel_for.h).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

namespace cilkpp {

// An integer, an object pointer or a random-access iterator (a dependent
// type, or a class without an iterator_category of its own, is left to the
// runtime's check in each instantiation).
bool isParallelLoopIndexType(clang::ASTContext &Ctx, clang::QualType T);

}  // namespace cilkpp
