// Whether the translation may move an object of a class type: a by-value
// parameter moves into its procedure's frame, a spawn's by-value argument
// into the parameter.
#pragma once

#include "clang/AST/Type.h"

namespace cilkpp {

// True when T is not a class, or has a public move or copy constructor that
// is not deleted (declared, or implicit and not defined as deleted).
bool isMoveConstructible(clang::QualType T);

}  // namespace cilkpp
