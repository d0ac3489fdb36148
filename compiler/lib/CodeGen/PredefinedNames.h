// `__func__` and its kin in a procedure's clones name the procedure.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace cilkpp {

// Macros that make `__func__`, `__FUNCTION__` and `__PRETTY_FUNCTION__`
// name Named in the text between Define and Undefine (the clones of a
// procedure, or a body moved into a function of its own), where the names
// would otherwise be those of the generated functions. Needed only where
// Body uses one of them from a macro's body (`assert`, a logging macro); the
// ones written in the body itself are rewritten where they stand. Both are
// empty when there are none. (`__PRETTY_FUNCTION__` is defined only where
// Named is not a template's pattern, in Clang's spelling.)
struct PredefinedNameMacros {
  std::string Define, Undefine;
};
PredefinedNameMacros predefinedNameMacros(const clang::Stmt *Body, const clang::Decl *Named);

// The string literal to write in place of E, which moves out of the function
// it names: Named's name where Clang has not computed E's (in a template),
// unless E is inside a lambda nested in that body. None where E must stay:
// in a macro's body, or a name not known.
std::optional<std::string> predefinedNameLiteral(const clang::SourceManager &SM, const clang::PredefinedExpr *E,
                                                 const clang::Decl *Named, bool InNestedLambda);

}  // namespace cilkpp
