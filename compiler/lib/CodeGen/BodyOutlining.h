// Lambdas, cilk_for bodies, catch handlers and the bodies of constructors and
// destructors whose own code spawns, syncs or opens a cilk_scope become cilk
// procedures of their own, so their children run in parallel with the rest
// of the body (and a handler, which a resume clone could not jump back into,
// has no continuation points left; a constructor or destructor, which cannot
// be resumed either, calls its body's procedure, which returns once its
// children have).
//
// Each such body moves, as written, into a function defined just before the
// function that holds it (a member of the same class when that is a member
// function). Its parameters are what the body uses from around it: for a
// lambda, its captures (by reference, so the closure's members stay where
// they are) and its own parameters; for a loop, the variables it uses (by
// reference, as the `[&]` lambda the loop becomes would) and the loop
// variable (by value); for a handler, the variables it uses, its exception
// variable among them, by reference; for a constructor's or destructor's
// body, its parameters by reference (a member function of the class). The body left in place calls that
// function, and `#line` directives keep the moved text on its own lines.
#pragma once

#include "Dialect/Keywords.h"
#include "Dialect/Pragmas.h"
#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace cilkpp {

// The rewritten main file when some body was outlined, else nullopt. The
// translator parses the result again, where the moved bodies are ordinary
// cilk procedures; a body nested in a moved one moves in the next round.
// Bodies that cannot move (in templates, using local types, ...) stay where
// they are, and the semantic checks warn that they run serially, saying
// why: Refused receives the reason for each body that holds a keyword.
std::optional<std::string> outlineSpawningBodies(clang::ASTContext &Ctx, llvm::ArrayRef<KeywordUse> Uses,
                                                 llvm::ArrayRef<GrainPragma> Pragmas, llvm::StringRef FileName,
                                                 UnmovedBodyReasons &Refused);

}  // namespace cilkpp
