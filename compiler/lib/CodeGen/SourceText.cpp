#include "CodeGen/SourceText.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cilkpp {

CharSourceRange statementRange(ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = fileRange(SM, S->getSourceRange());
  if (isa<Expr>(S))
    if (SourceLocation Semi = semicolonAfter(Ctx, S->getEndLoc()); Semi.isValid()) R.setEnd(Semi);
  return R;
}

SourceLocation statementEnd(ASTContext &Ctx, const Stmt *S) {
  // The statement that ends S.
  while (true) {
    if (const auto *F = dyn_cast<ForStmt>(S)) S = F->getBody();
    else if (const auto *W = dyn_cast<WhileStmt>(S)) S = W->getBody();
    else if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) S = R->getBody();
    else if (const auto *I = dyn_cast<IfStmt>(S)) S = I->getElse() ? I->getElse() : I->getThen();
    else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) S = Sw->getBody();
    else if (const auto *L = dyn_cast<LabelStmt>(S)) S = L->getSubStmt();
    else break;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = SM.getExpansionRange(S->getEndLoc()).getEnd();
  if (isa<Expr, ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, DoStmt>(S))
    if (SourceLocation Semi = semicolonAfter(Ctx, S->getEndLoc()); Semi.isValid()) return Semi;
  return End;
}

std::string cStringLiteral(llvm::StringRef Text) {
  std::string Quoted = "\"";
  for (char C : Text) {
    if (C == '\\' || C == '"') Quoted += '\\';
    Quoted += C;
  }
  return Quoted + "\"";
}

std::string lineDirective(unsigned Line, llvm::StringRef FileName) {
  return "#line " + std::to_string(Line) + " " + cStringLiteral(FileName) + "\n";
}

std::string generatedCodeLineDirective() { return lineDirective(1, "<cilkpp generated>"); }

}  // namespace cilkpp
