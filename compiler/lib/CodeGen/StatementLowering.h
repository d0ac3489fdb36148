// Statements with variables of their own (a range-based for's range and
// iterators, the variables declared in a `for` header or in an `if`,
// `switch` or `while` condition, a structured binding's object) whose
// bodies hold a continuation point: rewritten into the plain blocks and
// loops the standard defines them as, so those variables become ordinary
// locals that a frame can hold.
//
//   for (auto &x : v) BODY
//     -> { auto &&__cilkpp_range_L = v; auto __cilkpp_begin_L = __cilkpp_range_L.begin();
//          auto __cilkpp_end_L = __cilkpp_range_L.end();
//          for (; __cilkpp_begin_L != __cilkpp_end_L; ++__cilkpp_begin_L) { auto &x = *__cilkpp_begin_L; BODY } }
//   (a temporary range is held by value, `{a, b}` as an array; an array's
//   bounds and an ADL begin()/end() as the loop would use them; in a
//   template, helpers written at the top of the file choose per instantiation)
//   if (init; T x = e) A else B   -> { init; T x = e; if (x) A else B }
//   switch (T x = e) BODY         -> { T x = e; switch (x) BODY }
//   while (T x = e) BODY          -> while (true) { T x = e; if (!x) break; BODY }
//   for (T i = a; U x = c; inc) BODY
//                                 -> { T i = a; for (; ; inc) { U x = c; if (!x) break; BODY } }
//
// Everything stays on its own line.
//
// With poll points on, a range-based for of a cilk procedure's own code that
// would poll at its back-edge (Analysis/PollPoints.h) is lowered too, though
// it holds no continuation point: its range and iterators become locals the
// frame can hold at the poll point.
#pragma once

#include "Dialect/Keywords.h"
#include "Dialect/Pragmas.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace cilkpp {

// The rewritten main file when some statement was lowered, else nullopt.
std::optional<std::string> lowerStatementsAroundContinuations(clang::ASTContext &Ctx,
                                                              llvm::ArrayRef<KeywordUse> Uses,
                                                              llvm::StringRef FileName, bool PollPoints);

// Each range-based cilk_for, rewritten as the standard defines a range-based
// for, into a cilk_for over the range's iterators (see
// Lowering::lowerParallelRangeFor); nullopt when there is none to rewrite.
// A range whose iterators are not random-access is left for
// Sema/ParallelLoops to report.
std::optional<std::string> lowerParallelRangeLoops(clang::ASTContext &Ctx, llvm::ArrayRef<KeywordUse> Uses,
                                                   llvm::ArrayRef<GrainPragma> Pragmas, llvm::StringRef FileName);

}  // namespace cilkpp
