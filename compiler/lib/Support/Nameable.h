// Generated declarations live at namespace scope (frames, clones, outlined
// bodies), so every type they mention must be nameable there.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace cilkpp {

// False for types declared inside a function (local classes, enums,
// closure types), and pointers and arrays of them. A lambda's closure type
// is nameable only as a namespace-scope variable's type (below), and not
// inside a template argument.
bool isNameableOutsideFunction(clang::QualType T);

// The lambda's closure type or local class T is made of, under its
// pointers, references, arrays and template arguments (`filter_view<V,
// (lambda)>`); else null.
const clang::CXXRecordDecl *localClassIn(clang::QualType T);

// The enum declared in a function that T is (or points to, or holds).
const clang::EnumDecl *localEnumIn(clang::QualType T);

// The private or protected member class or enum that T names (itself, or
// in its pointees, elements or template arguments) where code of Function
// may name it but a frame at namespace scope may not: Function is not a
// member of the class that declares it. Else null.
const clang::TagDecl *hiddenMemberType(clang::QualType T, const clang::FunctionDecl *Function);
// Private or protected: what hides such a type (itself or a class around it).
clang::AccessSpecifier hiddenAccess(const clang::TagDecl *Hidden);

// The private member types of Function's locals (`auto it = bag.begin();`,
// a range-based for's iterator over a C++20 view) that `decltype` of a call
// can name outside the function (typeQualified), each with the call in a
// local's initializer that returns it, whose callee is public and whose
// object, parameter and template argument types are public or named by an
// earlier entry (the iterator of a `const std::vector<Bag::Item> &` that
// `bag.items()` returned). Copies of and references to such a local count,
// and a parameter whose declaration spells the type without naming it (an
// outlined cilk_for body's `::std::decay_t<decltype(...begin())> it`):
// Written is that spelling, and Source null.
struct HiddenTypeSource {
  clang::QualType Type;
  const clang::CallExpr *Source;
  std::string Written;
};
std::vector<HiddenTypeSource> hiddenTypeSources(const clang::FunctionDecl *Function);
bool hasHiddenTypeSource(const clang::VarDecl *V, const clang::FunctionDecl *Function);

// The namespace-scope variable a lambda initializes (`auto by_key = [](...)
// {...};`), through which `decltype` names its closure type; else null.
const clang::VarDecl *closureVariable(const clang::CXXRecordDecl *Closure);

// The names BodyOutlining gives the classes that replace lambdas which must be
// named (`__cilkpp_closure_12`). Their operator() passes the members on to
// the lambda's body and keeps no pointer to the object.
inline constexpr const char NamedClosurePrefix[] = "__cilkpp_closure_";
bool isNamedClosure(const clang::CXXRecordDecl *Class);
// A lambda's closure type or a named closure, trivially copyable: a copy of
// it more or less is unobservable, and nothing in it can point into the
// object itself (so a copy passed on outlives the original).
bool isPlainClosure(const clang::ASTContext &Ctx, clang::QualType T);

// Whether every class, enum and template that T names (under pointers,
// references, arrays, function types and template arguments) is declared
// before Loc, so that a declaration placed there can spell T.
bool declaredBefore(const clang::SourceManager &SM, clang::QualType T, clang::SourceLocation Loc);
bool declaredBefore(const clang::SourceManager &SM, llvm::ArrayRef<clang::TemplateArgument> Args,
                    clang::SourceLocation Loc);

}  // namespace cilkpp
