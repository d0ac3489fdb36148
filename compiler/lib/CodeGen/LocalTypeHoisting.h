// A class or scoped enum declared in a function and used as a template
// argument of a template that spawns has no name outside the function, so
// the instantiation's translation (an explicit specialization at the end of
// the file) could not spell it; nor could a frame, outside the function,
// hold a variable of such a type. Its definition moves, as written, into a
// namespace of its own just before the function, and a using-declaration
// takes its place:
//
//   long f() { struct Sq { long operator()(long i) const { return i * i; } }; return apply(Sq{}); }
//     -> namespace __cilkpp_local_12_<hash of the file> { struct Sq { ... }; }
//        long f() { using __cilkpp_local_12_<hash>::Sq; return apply(Sq{}); }
//
// Only when the definition uses nothing else local to the function and the
// function is an ordinary one (a member's local class shares its access).
#pragma once

#include "Dialect/Keywords.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace cilkpp {

// The rewritten main file when some definition moved, else nullopt.
std::optional<std::string> hoistLocalTypes(clang::ASTContext &Ctx, llvm::ArrayRef<KeywordUse> Uses,
                                                       llvm::StringRef FileName);

}  // namespace cilkpp
