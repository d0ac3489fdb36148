// Text the translation writes at global scope (the end of the file) for a
// namespace scope, and the reverse.
#pragma once

#include "clang/AST/DeclBase.h"

#include <string>

namespace cilkpp {

// Text for global scope, emitted where Scope is open: its namespaces (and
// linkage blocks) close around the text and open again after it.
std::string atGlobalScope(const clang::DeclContext *Scope, const std::string &Text);

// Text for Scope, emitted at global scope: Scope's namespaces open around it.
std::string inScope(const clang::DeclContext *Scope, const std::string &Text);

}  // namespace cilkpp
