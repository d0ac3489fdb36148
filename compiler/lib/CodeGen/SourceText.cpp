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

namespace {

// The sub-statement whose end ends S.
const Stmt *endingStatement(const Stmt *S) {
  while (true) {
    if (const auto *F = dyn_cast<ForStmt>(S)) S = F->getBody();
    else if (const auto *W = dyn_cast<WhileStmt>(S)) S = W->getBody();
    else if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) S = R->getBody();
    else if (const auto *I = dyn_cast<IfStmt>(S)) S = I->getElse() ? I->getElse() : I->getThen();
    else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) S = Sw->getBody();
    else if (const auto *L = dyn_cast<LabelStmt>(S)) S = L->getSubStmt();
    // (`case 2: r = 1;`, `[[likely]] r = 1;`, a loop under `#pragma GCC unroll`.)
    else if (const auto *C = dyn_cast<SwitchCase>(S)) S = C->getSubStmt();
    else if (const auto *A = dyn_cast<AttributedStmt>(S)) S = A->getSubStmt();
    else return S;
  }
}

bool needsSemicolon(const Stmt *S) {
  return isa<Expr, ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, DoStmt, AsmStmt>(S);
}

}  // namespace

SourceLocation statementEnd(ASTContext &Ctx, const Stmt *S) {
  S = endingStatement(S);
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = SM.getExpansionRange(S->getEndLoc()).getEnd();
  if (needsSemicolon(S))
    if (SourceLocation Semi = semicolonAfter(Ctx, S->getEndLoc()); Semi.isValid()) return Semi;
  return End;
}

bool endsAtItsSemicolon(ASTContext &Ctx, const Stmt *S) {
  S = endingStatement(S);
  return !needsSemicolon(S) || semicolonAfter(Ctx, S->getEndLoc()).isValid();
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
