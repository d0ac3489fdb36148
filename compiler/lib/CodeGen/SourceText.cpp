#include "CodeGen/SourceText.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cilkpp {

CharSourceRange fileRange(const SourceManager &SM, SourceRange R) {
  return CharSourceRange::getTokenRange(SM.getExpansionLoc(R.getBegin()), SM.getExpansionRange(R.getEnd()).getEnd());
}

SourceLocation semicolonAfter(ASTContext &Ctx, SourceLocation End) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<Token> Next = Lexer::findNextToken(SM.getExpansionRange(End).getEnd(), SM, Ctx.getLangOpts());
  if (Next && Next->is(tok::semi)) return Next->getLocation();
  return {};
}

CharSourceRange statementRange(ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = fileRange(SM, S->getSourceRange());
  if (isa<Expr>(S))
    if (SourceLocation Semi = semicolonAfter(Ctx, S->getEndLoc()); Semi.isValid()) R.setEnd(Semi);
  return R;
}

std::string lineDirective(unsigned Line, llvm::StringRef FileName) {
  std::string Escaped;
  for (char C : FileName) {
    if (C == '\\' || C == '"') Escaped += '\\';
    Escaped += C;
  }
  return "#line " + std::to_string(Line) + " \"" + Escaped + "\"\n";
}

}  // namespace cilkpp
