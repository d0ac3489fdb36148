// What the semantic pass learns about each cilk procedure: where its spawns,
// syncs and returns are, bound to AST nodes. Later passes only read it.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

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
  const clang::VarDecl *Target = nullptr;
  // False when the statement is the direct body of if/for/while/... .
  bool InCompound = true;
};

struct SyncSite {
  clang::SourceLocation KeywordLoc;
  const clang::Expr *Marker = nullptr;  // the expression `sync` expanded to
};

struct CilkProcedure {
  const clang::FunctionDecl *Definition = nullptr;
  std::vector<SpawnSite> Spawns;
  std::vector<SyncSite> Syncs;
  std::vector<const clang::ReturnStmt *> Returns;
};

}  // namespace cilkpp
