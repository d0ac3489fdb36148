// An abbreviated function template (a parameter declared `auto`) that is a
// cilk procedure: the translation spells each template's head, where an
// invented template parameter has no name. A rewriting round gives each one
// a name in a head of its own, as the standard defines the template, in
// every declaration of the template in the file:
//
//   cilk long sum(const auto &v, std::integral auto lo)
//     -> template <class __cilkpp_auto_1, std::integral __cilkpp_auto_2>
//        cilk long sum(const __cilkpp_auto_1 &v, __cilkpp_auto_2 lo)
//
// (after a written head, `template <class T> long f(T a, auto b)`, they are
// appended to it). A declaration the round cannot rewrite (an `auto` or a
// constraint a macro writes, a friend) keeps the template abbreviated, which
// ProcedureChecks then reports by name.
#pragma once

#include "Dialect/Keywords.h"
#include "Dialect/Pragmas.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace cilkpp {

// The rewritten main file when some template was rewritten, else nullopt.
std::optional<std::string> nameInventedTemplateParameters(clang::ASTContext &Ctx, llvm::ArrayRef<KeywordUse> Uses,
                                                          llvm::ArrayRef<GrainPragma> Pragmas);

}  // namespace cilkpp
