// A local constant's value, written so that code moved out of its function
// (a moved body, a clone reading the frame) still has a constant: a copy in
// the frame or a reference parameter is none, and `std::array<long, n>` or
// `case n:` needs one.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>
#include <string>

namespace cilkpp {

// An expression of V's type with V's value (`3l`, `static_cast<E>(2)`,
// `0x1.8p+1`), where knownScalarValue knows it.
std::optional<std::string> constantValue(clang::ASTContext &Ctx, const clang::VarDecl &V);

// `constexpr long n = 3l;`: V declared again with its value, under its name,
// where its type can be named outside its function.
std::optional<std::string> constantRedeclaration(clang::ASTContext &Ctx, const clang::VarDecl &V);

}  // namespace cilkpp
