// Static locals of cilk procedures. The fast and the resume clone each hold
// a copy of the procedure's code, so a `static` declared in it would be two
// objects, and a continuation resumed on a thief would see the other one.
// A rewriting round moves each into a function of its own, right before the
// procedure, which both clones call where the declaration stood:
//
//   static std::atomic<long> calls{0};
//     -> [[maybe_unused]] static auto &__cilkpp_static_calls_L() {
//          static std::atomic<long> calls{0}; return calls; }      (before)
//        auto &calls = __cilkpp_static_calls_L();                  (in place)
//
// so it is initialised where control first passes the declaration, as
// before. Only where the moved declaration means the same: a procedure that
// is not a template or a member, defined in the namespace that declares it,
// and a declaration that names nothing local (no parameter, local or local
// type). `constexpr` and constant `const` statics stay (copies of a constant
// cannot be told apart). The others are reported after the last round
// (reportSplitStatics).
#pragma once

#include "Sema/ProcedureFinder.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace cilkpp {

// The rewritten main file when some static was moved, else nullopt.
std::optional<std::string> hoistStaticLocals(clang::ASTContext &Ctx, const SemaResult &Sema);

// Reports the statics of Proc's own code that would be split between its
// clones (errors).
void reportSplitStatics(clang::ASTContext &Ctx, const CilkProcedure &Proc);

}  // namespace cilkpp
