// Generated declarations live at namespace scope (frames, clones, outlined
// bodies), so every type they mention must be nameable there.
#pragma once

#include "clang/AST/Type.h"

namespace cilkpp {

// False for types declared inside a function (local classes, enums,
// closure types), and pointers and arrays of them.
bool isNameableOutsideFunction(clang::QualType T);

}  // namespace cilkpp
