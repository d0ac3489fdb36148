// Whether a statement stands where a statement may be replaced by a block:
// directly in a compound statement or as the body of a control statement.
#pragma once

#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"

#include <string>

namespace cilkpp {

bool isStatementPosition(clang::ParentMap &PM, const clang::Stmt *S);

// Whether a declaration at S, a statement position, declares into the
// enclosing block: directly in it or after labels (`case 1: long q = ...;`),
// not as the body of a control statement.
bool declaresIntoBlock(clang::ParentMap &PM, const clang::Stmt *S);

// A short description of where an expression sits, for diagnostics.
std::string describePosition(clang::ParentMap &PM, const clang::Stmt *S);

}  // namespace cilkpp
