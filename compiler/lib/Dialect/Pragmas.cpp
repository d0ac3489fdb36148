#include "Dialect/Pragmas.h"

#include "Support/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace cilkpp {

GrainsizePragmaHandler::GrainsizePragmaHandler(std::vector<GrainPragma> &Pragmas)
    : PragmaHandler("grainsize"), Pragmas(Pragmas) {}

void GrainsizePragmaHandler::HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &FirstToken) {
  const SourceManager &SM = PP.getSourceManager();
  // (A _Pragma's location is inside its string, or a macro: nothing ties it
  // to the loop after it.)
  if (Introducer.Kind != PIK_HashPragma && SM.isWrittenInMainFile(SM.getExpansionLoc(Introducer.Loc)))
    diag::report(PP.getDiagnostics(), SM.getExpansionLoc(Introducer.Loc), diag::GrainsizeOperator);
  const bool InMainFile = SM.isWrittenInMainFile(Introducer.Loc) && Introducer.Kind == PIK_HashPragma;
  Token Tok;
  PP.Lex(Tok);
  bool Parenthesized = false;
  if (Tok.is(tok::equal)) {
    PP.Lex(Tok);
  } else if (Tok.is(tok::l_paren)) {
    Parenthesized = true;
    PP.Lex(Tok);
  }
  std::uint64_t Value = 0;
  bool Ok = Tok.is(tok::numeric_constant) && PP.parseSimpleIntegerLiteral(Tok, Value) && Value > 0;
  // parseSimpleIntegerLiteral has lexed the token after the literal.
  if (Ok && Parenthesized) {
    Ok = Tok.is(tok::r_paren);
    if (Ok) PP.Lex(Tok);
  }
  Ok = Ok && Tok.is(tok::eod);
  if (!Ok) {
    if (InMainFile) diag::report(PP.getDiagnostics(), FirstToken.getLocation(), diag::GrainsizeMalformed);
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof)) PP.Lex(Tok);
    return;
  }
  if (InMainFile) Pragmas.push_back({CharSourceRange::getCharRange(Introducer.Loc, Tok.getLocation()), Value});
}

void UnknownCilkPragmaHandler::HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &FirstToken) {
  if (PP.getSourceManager().isWrittenInMainFile(Introducer.Loc))
    diag::report(PP.getDiagnostics(), FirstToken.getLocation(), diag::UnknownCilkPragma)
        << PP.getSpelling(FirstToken);
  Token Tok = FirstToken;
  while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof)) PP.Lex(Tok);
}

bool precedesLoop(const ASTContext &Ctx, const GrainPragma &Pragma, SourceLocation Keyword) {
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation From = Pragma.Range.getEnd(), To = Keyword;
  if (SM.getFileID(From) != SM.getFileID(To)) return false;
  const unsigned A = SM.getFileOffset(From), B = SM.getFileOffset(To);
  if (A > B) return false;
  const StringRef Buffer = SM.getBufferData(SM.getFileID(From));
  // (A raw lexer skips comments.)
  Lexer Raw(SM.getLocForStartOfFile(SM.getFileID(From)), Ctx.getLangOpts(), Buffer.begin(), Buffer.begin() + A,
            Buffer.end());
  Token Next;
  Raw.LexFromRawLexer(Next);
  return SM.getFileOffset(Next.getLocation()) >= B;
}

}  // namespace cilkpp
