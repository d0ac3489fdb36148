// The instantiations in the file of a templated function as written: a
// function template, a member of a class template, or a member function
// template of either kind of class.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <vector>

namespace cilkpp {

// The instantiations of Pattern that have bodies, in the order Clang made
// them; empty when Pattern is not templated or nothing instantiates it.
std::vector<const clang::FunctionDecl *> instantiationsOf(const clang::FunctionDecl *Pattern);

// The class template specializations that enclose an instantiated member,
// outermost first (`Outer<int>` for `Outer<int>::Inner::f`).
std::vector<const clang::ClassTemplateSpecializationDecl *> enclosingSpecializations(const clang::FunctionDecl *FD);

// The branches of `if constexpr` statements that Instance discards, as
// written in its template (their keywords bind to nothing there, and its
// clones replace them with `{}`).
std::vector<clang::SourceRange> discardedBranches(const clang::FunctionDecl *Instance);

// An instantiated parameter that is element K of the template's function
// parameter pack (`Ts... xs`), and the name that element gets in the
// translation (`xs__K`: the instantiation names them all `xs`).
std::optional<unsigned> packElementIndex(const clang::ParmVarDecl *P);
std::string parameterName(const clang::ParmVarDecl *P);

// The name a parameter has in the procedure's definition: an unnamed one
// gets `__cilkpp_param_N` there (ProcedureEmitter's nameUnnamedParameters),
// as the public entry passes it on.
std::string declaredParameterName(const clang::ParmVarDecl *P);

// The earliest declaration of Template written in the main file (where the
// fast clone's template is declared), or null.
const clang::FunctionTemplateDecl *firstDeclarationInMainFile(const clang::SourceManager &SM,
                                                              const clang::FunctionTemplateDecl *Template);

}  // namespace cilkpp
