// Local type aliases the translation may leave unused. Generated code spells
// the types it writes without the user's aliases (a variable moved into the
// frame is declared there by its type, a moved body declares the aliases it
// uses again), so an alias the user wrote and used can end up unused in a
// clone, and -Wunused-local-typedefs would warn about the user's line; the
// serial elision gives no such warning. Marking it [[maybe_unused]] keeps
// the translation as quiet as the serial elision.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <utility>

namespace cilkpp {

// Where [[maybe_unused]] goes in the statement declaring Alias, and its
// spelling there (`using A [[maybe_unused]] = T;`, `[[maybe_unused]]
// typedef T A;`).
std::pair<clang::SourceLocation, const char *> unusedAliasMark(const clang::ASTContext &Ctx,
                                                               const clang::TypedefNameDecl &Alias,
                                                               const clang::DeclStmt &Declaration);

// Calls Mark for every alias declared in Body, outside macros, that has no
// [[maybe_unused]] yet, once per declaring statement.
void forEachUnmarkedLocalAlias(const clang::ASTContext &Ctx, const clang::Stmt *Body,
                               llvm::function_ref<void(clang::SourceLocation, const char *)> Mark);

}  // namespace cilkpp
