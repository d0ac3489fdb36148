// What the semantic pass learns about each cilk procedure: where its spawns,
// syncs and returns are, bound to AST nodes. Later passes only read it.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cilkpp {

enum class SpawnForm {
  Discard,  // spawn f(...);
  Assign,   // x = spawn f(...);
  Declare,  // T x = spawn f(...);
};

struct SpawnSite {
  clang::SourceLocation KeywordLoc;
  // The statement the spawn forms: the assignment or call expression of an
  // expression statement, or the DeclStmt of the Declare form.
  const clang::Stmt *Statement = nullptr;
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  SpawnForm Form = SpawnForm::Discard;
  // The variable receiving the result (Declare, and Assign to a local).
  const clang::VarDecl *Target = nullptr;
  // Assign to any other lvalue (`a[i] = spawn f()`, `s.x = ...`, `*p = ...`):
  // its address is computed in the parent before the spawn.
  const clang::Expr *TargetLValue = nullptr;
  // False when the statement is the direct body of if/for/while/... (a
  // declaration there is scoped to it), true in a block, labels aside.
  bool InCompound = true;
};

struct SyncSite {
  clang::SourceLocation KeywordLoc;
  const clang::Expr *Marker = nullptr;  // the expression `sync` expanded to
};

// cilk_scope { ... }: every child spawned in the block is synced at its end.
// A try block that spawns syncs at its end too, so its handlers see what its
// children throw, as in the serial program.
struct ScopeSite {
  clang::SourceLocation KeywordLoc;  // of `cilk_scope` or `try`
  const clang::CompoundStmt *Block = nullptr;
  bool IsTryBlock = false;
};

struct ParallelLoop;

struct CilkProcedure {
  const clang::FunctionDecl *Definition = nullptr;
  // cilk_for loops in the body; lowered in both clones.
  std::vector<const ParallelLoop *> Loops;
  std::vector<SpawnSite> Spawns;
  std::vector<SyncSite> Syncs;
  std::vector<const clang::ReturnStmt *> Returns;
  std::vector<ScopeSite> Scopes;
  // Its body only passes its parameters on to a cilk procedure
  // (Sema/Forwarders.h).
  bool Forwards = false;
};

// A cilk_for, normalised so the loop variable is on the left of the test.
enum class LoopTest { Less, LessEqual, Greater, GreaterEqual, NotEqual };

struct ParallelLoop {
  clang::SourceLocation KeywordLoc;
  const clang::ForStmt *Loop = nullptr;
  const clang::DeclStmt *Init = nullptr;
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Bound = nullptr;
  LoopTest Test = LoopTest::Less;
  const clang::Expr *Step = nullptr;  // nullptr for ++ and --
  bool StepNegated = false;           // -- or -=
  std::uint64_t Grain = 0;            // 0: chosen at run time
  clang::CharSourceRange GrainPragma; // removed from the output when valid
  // `continue` statements of this loop (not of loops nested in it).
  std::vector<const clang::ContinueStmt *> Continues;
};

// Why a body could not move out of its function (BodyOutlining.h), by the
// main-file offset where it begins: a clause such as "it captures '*this' by
// copy". A lambda or cilk_for body that holds a keyword then runs its
// spawns serially; a lambda that had to become a named class stays unnamed.
using UnmovedBodyReasons = std::map<unsigned, std::string>;

}  // namespace cilkpp
