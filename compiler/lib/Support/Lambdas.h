#pragma once

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

namespace cilkpp {

// The capture of `*this` by copy (`[*this]`) of a lambda, or null.
inline const clang::LambdaCapture *copyOfThisCapture(const clang::LambdaExpr &L) {
  const auto *Found = llvm::find_if(L.captures(), [](const clang::LambdaCapture &C) {
    return C.capturesThis() && C.getCaptureKind() == clang::LCK_StarThis;
  });
  return Found == L.capture_end() ? nullptr : Found;
}

}  // namespace cilkpp
