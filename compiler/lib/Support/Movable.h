// Whether the translation may move an object of a class type: a by-value
// parameter moves into its procedure's frame, a spawn's by-value argument
// into the parameter, a child's result into its target (by assignment).
#pragma once

#include "clang/AST/Type.h"

namespace cilkpp {

// True when T is not a class, or has a public move or copy constructor that
// is not deleted (declared, or implicit and not defined as deleted).
bool isMoveConstructible(clang::QualType T);

// True when T is not a class, or has a public move or copy assignment
// operator that is not deleted. (Where only overload resolution on its
// members could tell, assumed true.)
bool isMoveAssignable(clang::QualType T);

}  // namespace cilkpp
