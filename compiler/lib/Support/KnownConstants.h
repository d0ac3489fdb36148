// Local constants whose value the translation knows: it can write the value
// where the variable itself is not at hand (a clone, a moved body).
#pragma once

#include "clang/AST/APValue.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace cilkpp {

// V's value, if V is usable in constant expressions and of integral,
// enumeration or floating type with a finite value; null otherwise, or where
// the value depends on template parameters.
const clang::APValue *knownScalarValue(clang::ASTContext &Ctx, const clang::VarDecl &V);

}  // namespace cilkpp
