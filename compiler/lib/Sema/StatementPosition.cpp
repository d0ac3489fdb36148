#include "Sema/StatementPosition.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cilkpp {

bool isStatementPosition(ParentMap &PM, const Stmt *S) {
  const Stmt *Parent = PM.getParent(const_cast<Stmt *>(S));
  if (!Parent) return false;
  if (isa<CompoundStmt, CaseStmt, DefaultStmt, LabelStmt, AttributedStmt>(Parent)) return true;
  if (const auto *If = dyn_cast<IfStmt>(Parent)) return If->getThen() == S || If->getElse() == S;
  if (const auto *For = dyn_cast<ForStmt>(Parent)) return For->getBody() == S;
  if (const auto *While = dyn_cast<WhileStmt>(Parent)) return While->getBody() == S;
  if (const auto *Do = dyn_cast<DoStmt>(Parent)) return Do->getBody() == S;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Parent)) return Range->getBody() == S;
  if (const auto *Switch = dyn_cast<SwitchStmt>(Parent)) return Switch->getBody() == S;
  return false;
}

bool declaresIntoBlock(ParentMap &PM, const Stmt *S) {
  const Stmt *Parent = PM.getParent(const_cast<Stmt *>(S));
  while (isa_and_nonnull<SwitchCase, LabelStmt, AttributedStmt>(Parent)) Parent = PM.getParent(const_cast<Stmt *>(Parent));
  return isa_and_nonnull<CompoundStmt>(Parent);
}

std::string describePosition(ParentMap &PM, const Stmt *S) {
  const Stmt *Parent = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(S));
  if (!Parent) return "spawn outside a statement";
  if (isa<ReturnStmt>(Parent)) return "spawn in a return statement";
  if (isa<CallExpr>(Parent)) return "spawn inside a call argument";
  if (isa<ConditionalOperator>(Parent)) return "spawn inside '?:'";
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
    if (BO->isCompoundAssignmentOp()) return "spawn in a compound assignment";
    if (BO->isAssignmentOp()) return "spawn in a nested assignment";
    return "spawn inside an expression";
  }
  if (isa<DeclStmt>(Parent)) return "spawn in a declaration of several variables";
  if (isa<IfStmt, WhileStmt, ForStmt, DoStmt, SwitchStmt>(Parent)) return "spawn in a condition";
  return "spawn inside an expression";
}

}  // namespace cilkpp
