// The instantiations in the file of a templated function as written: a
// function template, a member of a class template, or a member function
// template of either kind of class.
#pragma once

#include "clang/AST/Decl.h"

#include <vector>

namespace cilkpp {

// The instantiations of Pattern that have bodies, in the order Clang made
// them; empty when Pattern is not templated or nothing instantiates it.
std::vector<const clang::FunctionDecl *> instantiationsOf(const clang::FunctionDecl *Pattern);

}  // namespace cilkpp
