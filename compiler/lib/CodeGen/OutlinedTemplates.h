// The template head of an outlined body (BodyOutlining.h): a body moved out
// of a function template becomes a function template with the host's
// parameters, and a generic lambda's body one with a parameter for each
// `auto` of its parameter list.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <vector>

namespace cilkpp {

struct OutlinedTemplate {
  // "template <class T, class __cilkpp_auto_1> ", or empty for a plain
  // function.
  std::string Head;
  // What the call left in place names explicitly: the host's parameters
  // ("<T>"); a generic lambda's are deduced from its arguments.
  std::string Arguments;
  // For a member of a class template defined outside its class: the class's
  // head as that definition writes it ("template <class T> "), which the
  // moved body's definition outside the class repeats before Head.
  std::string ClassHead;
  // The head's parameters, as written there, and the names of those that
  // Arguments names.
  std::vector<std::string> Parameters, Named;
  // How many of Parameters (and of Named) are the host function template's;
  // a generic lambda's follow them.
  size_t HostParameters = 0;
  // Adds parameters after those of the head (and remakes it): also ones
  // that the call deduces from its arguments ("class __cilkpp_type_of_n").
  void appendParameters(const std::vector<std::string> &More);
};

// The name an `auto` parameter's invented template parameter gets where the
// translation spells it: `__cilkpp_auto_1` for the one at Index 0 of its
// template's parameter list.
std::string inventedName(unsigned Index);

// Where `std::integral auto k` writes its type-constraint, which moves to
// the template head as `template <std::integral __cilkpp_auto_1>` (a
// placeholder type stays `auto`); invalid without one, or where a macro
// writes it.
clang::CharSourceRange constraintRange(const clang::SourceManager &SM, const clang::TemplateTypeParmDecl *Invented);

// nullopt, with WhyNot saying why, when the body cannot move as a template:
// a host template with a parameter pack, a default argument (its prototype
// would repeat it) or a requires-clause, a member of a class template
// nested in another template, or defined outside its class naming the
// class's parameters otherwise, a lambda with an explicit template
// parameter list or an `auto...` pack. A member function template's body
// becomes a member function template with the host's parameters; a member
// of a class template needs no head of its own in the class. Lambda is null
// for a cilk_for body.
std::optional<OutlinedTemplate> outlinedTemplate(clang::ASTContext &Ctx, const clang::FunctionDecl *Host,
                                                 const clang::LambdaExpr *Lambda, std::string &WhyNot);

// A generic lambda's parameter declared for the outlined template:
// `const auto &k` becomes `const __cilkpp_auto_1 &k`. nullopt when the
// declaration is not plain text of the file.
std::optional<std::string> genericParameterDeclaration(clang::ASTContext &Ctx, const clang::ParmVarDecl *P);

// A parameter whose type depends on a template parameter passes on with
// its value category: `static_cast<decltype(k) &&>(k)`.
std::string forwardDependent(llvm::StringRef Name);

// True when no return statement of the lambda's own body returns a value, so
// its deduced return type is void even before an instantiation deduces it.
bool returnsNoValue(const clang::LambdaExpr &Lambda);

// A result type the lambda (in a template, or generic) deduces, when every
// instantiation of it in the file deduces the same one and it can be named
// outside the function: `long` for `[&](auto i) { ...; return a + b; }`
// called with ints and longs. nullopt otherwise.
std::optional<std::string> commonDeducedResult(clang::ASTContext &Ctx, const clang::FunctionDecl *Host,
                                               const clang::LambdaExpr &Lambda);

}  // namespace cilkpp
