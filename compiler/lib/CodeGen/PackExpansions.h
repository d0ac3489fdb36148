// Pack expansions in an instantiation of a variadic template. A clone is the
// template's text, but its explicit specialization cannot declare a pack:
// where the template writes `pattern...` (`g(xs...)`), the clone writes the
// pattern once per element, with that element's parameter (`xs__1`) and
// types substituted. Sema admits expansions in the arguments of calls and
// constructors, in braced initializer lists, and of types in template
// argument lists (`std::tuple<Ts...>`, `f<Ts...>(...)`).
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cilkpp {

// Replacements in the main file's text: offset -> (length, text).
using TextSubstitutions = std::map<unsigned, std::pair<unsigned, std::string>>;

// One expansion: the pattern's text is [Begin, PatternEnd), End is past the
// ellipsis; the instantiation's expressions (or, expanding a type, types)
// for it, in element order, and (filled by the caller) their texts.
struct PackExpansion {
  unsigned Begin, PatternEnd, End;
  std::vector<const clang::Expr *> Elements;
  std::vector<clang::QualType> Types;
  std::vector<std::string> Texts;
  // `T x(xs...)` with an empty pack: written `T x{}` (`T x()` would declare
  // a function).
  bool EmptyDirectInit = false;
};

// The expansions of Instance's template, in text order, each matched with
// the arguments of Instance's calls that start where its pattern does. Empty
// for anything but an instantiation.
std::vector<PackExpansion> packExpansionsOf(const clang::SourceManager &SM, const clang::LangOptions &LO,
                                            const clang::FunctionDecl *Instance);

// The pattern's text for one element: the substitutions the clone makes
// anyway, with the element's pack parameters (as ParameterText names them)
// and its pack types written over them.
std::string renderPackElement(clang::ASTContext &Ctx, const PackExpansion &E, const clang::Expr *Element,
                              const TextSubstitutions &Substitutions,
                              llvm::function_ref<std::string(const clang::ParmVarDecl *)> ParameterText);

// The text the elements replace: the expansion, and for an empty pack also
// the comma that separated it from its neighbour (or the parentheses of a
// direct initialisation); and what replaces it.
std::pair<unsigned, unsigned> replacedRange(llvm::StringRef Buffer, const PackExpansion &E);
std::string replacementText(const PackExpansion &E);

}  // namespace cilkpp
