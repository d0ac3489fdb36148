#include "CodeGen/ExplicitInstantiations.h"

#include "CodeGen/NamespaceScopes.h"
#include "CodeGen/SourceText.h"
#include "Dialect/MacroHistory.h"
#include "Support/Instantiations.h"
#include "Support/SourceRanges.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <fmt/format.h>

#include <map>
#include <optional>

using namespace clang;

namespace cilkpp {
namespace {

struct Written {
  unsigned Begin, End;       // main-file offsets of `template` and of the ';' after it
  const DeclContext *Scope;  // where it was written
};

class Finder {
 public:
  explicit Finder(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  // A class's explicit instantiation is a declaration of its own, which
  // records its `template` keyword.
  std::optional<Written> ofClass(const ClassTemplateSpecializationDecl *Spec) const {
    const SourceLocation Template = Spec->getTemplateKeywordLoc();
    const SourceLocation Semi = semicolonAfter(Ctx, Spec->getSourceRange().getEnd());
    if (Template.isInvalid() || !Template.isFileID() || Semi.isInvalid() || !SM.isWrittenInMainFile(Template))
      return std::nullopt;
    return Written{SM.getFileOffset(Template), SM.getFileOffset(Semi), Spec->getLexicalDeclContext()};
  }

  // A function's records only where it names the function: the statement
  // around that is found by lexing from the end of the declaration before
  // it in the same namespace.
  std::optional<Written> ofFunction(const FunctionDecl *FD) const {
    const SourceLocation Name = FD->getPointOfInstantiation();
    if (Name.isInvalid() || !Name.isFileID() || !SM.isWrittenInMainFile(Name)) return std::nullopt;
    const unsigned At = SM.getFileOffset(Name);
    const DeclContext *Scope = Ctx.getTranslationUnitDecl();
    std::optional<unsigned> From = innermostScope(Scope, At);
    if (!From) return std::nullopt;
    return statementAround(*From, At, Scope);
  }

 private:
  // Narrows Scope to the innermost namespace written around At; returns the
  // offset where the statements before At begin (after the declaration
  // before it, or the namespace's '{').
  std::optional<unsigned> innermostScope(const DeclContext *&Scope, unsigned At) const {
    std::optional<unsigned> From = 0;
    while (true) {
      const Decl *Before = nullptr;
      const NamespaceDecl *Around = nullptr;
      for (const Decl *D : Scope->decls()) {
        if (D->isImplicit()) continue;
        if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D);
            Spec && Spec->getSpecializationKind() == TSK_ImplicitInstantiation)
          continue;
        const SourceRange R = D->getSourceRange();
        if (!R.getBegin().isFileID() || !R.getEnd().isFileID() || !SM.isWrittenInMainFile(R.getBegin())) continue;
        const unsigned Begin = SM.getFileOffset(R.getBegin()), End = SM.getFileOffset(R.getEnd());
        if (Begin <= At && At <= End) {
          Around = dyn_cast<NamespaceDecl>(D);
          if (!Around) return std::nullopt;  // (in a class or a linkage block)
        } else if (End < At && (!Before || SM.getFileOffset(Before->getEndLoc()) < End)) {
          Before = D;
        }
      }
      if (Before) From = SM.getFileOffset(Before->getEndLoc()) + Lexer::MeasureTokenLength(Before->getEndLoc(), SM, Ctx.getLangOpts());
      if (!Around) return From;
      // Into the namespace: its statements begin after its '{'.
      std::optional<Token> Brace = Lexer::findNextToken(Around->getLocation(), SM, Ctx.getLangOpts());
      while (Brace && Brace->isNot(tok::l_brace)) Brace = Lexer::findNextToken(Brace->getLocation(), SM, Ctx.getLangOpts());
      if (!Brace) return std::nullopt;
      From = SM.getFileOffset(Brace->getLocation()) + 1;
      Scope = Around;
    }
  }

  // The statement that holds At, lexing from From: it begins after the last
  // ';' or '}' at bracket depth 0 before At and ends at the first ';' at
  // depth 0 after it; preprocessor directives are passed over. Nothing
  // unless it begins with `template`.
  std::optional<Written> statementAround(unsigned From, unsigned At, const DeclContext *Scope) const {
    const FileID File = SM.getMainFileID();
    const StringRef Buffer = SM.getBufferData(File);
    Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(), Buffer.begin() + From, Buffer.end());
    std::optional<unsigned> Begin;
    int Depth = 0;
    bool AtStatementStart = true;
    Token T;
    bool Lexed = false;  // T holds a token not looked at yet
    while (true) {
      if (!Lexed) Raw.LexFromRawLexer(T);
      Lexed = false;
      if (T.is(tok::eof)) return std::nullopt;
      if (T.is(tok::hash) && T.isAtStartOfLine()) {
        do Raw.LexFromRawLexer(T);
        while (T.isNot(tok::eof) && !T.isAtStartOfLine());
        Lexed = true;
        continue;
      }
      const unsigned Offset = SM.getFileOffset(T.getLocation());
      if (AtStatementStart && Offset < At) Begin = Offset;
      AtStatementStart = false;
      if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace)) {
        ++Depth;
      } else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
        if (--Depth < 0) return std::nullopt;
        AtStatementStart = Depth == 0 && T.is(tok::r_brace);
      } else if (T.is(tok::semi) && Depth == 0) {
        if (Offset > At) break;
        AtStatementStart = true;
      }
    }
    if (!Begin) return std::nullopt;
    const Token First = firstTokenAt(*Begin);
    if (!First.is(tok::raw_identifier) || First.getRawIdentifier() != "template") return std::nullopt;
    return Written{*Begin, SM.getFileOffset(T.getLocation()), Scope};
  }

  Token firstTokenAt(unsigned Offset) const {
    Token T;
    Lexer::getRawToken(SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Offset), T, SM, Ctx.getLangOpts());
    return T;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
};

}  // namespace

void moveExplicitInstantiations(ASTContext &Ctx, Rewriter &Main, ArrayRef<const FunctionDecl *> Procedures,
                                const MacroHistory *Macros, StringRef FileName) {
  const Finder Find(Ctx);
  std::map<unsigned, Written> Moved;  // by offset: each once, in the file's order
  for (const FunctionDecl *FD : Procedures) {
    if (FD->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition)
      if (std::optional<Written> W = Find.ofFunction(FD)) Moved.emplace(W->Begin, *W);
    for (const ClassTemplateSpecializationDecl *Spec : enclosingSpecializations(FD))
      if (Spec->getSpecializationKind() == TSK_ExplicitInstantiationDefinition)
        if (std::optional<Written> W = Find.ofClass(Spec)) Moved.emplace(W->Begin, *W);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  const SourceLocation End = SM.getLocForEndOfFile(SM.getMainFileID());
  for (const auto &[Offset, W] : Moved) {
    const CharSourceRange Range =
        CharSourceRange::getCharRange(Start.getLocWithOffset(W.Begin), Start.getLocWithOffset(W.End + 1));
    const std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
    std::string Blanks = Text;
    for (char &C : Blanks)
      if (C != '\n') C = ' ';
    Main.ReplaceText(Range, Blanks);
    // (At its own column too, so that diagnostics' carets stay right.)
    const std::string Here = fmt::format("{}{:{}}{}\n", lineDirective(SM.getPresumedLineNumber(Range.getBegin()), FileName),
                                         "", SM.getSpellingColumnNumber(Range.getBegin()) - 1, Text);
    const std::string Scoped = inScope(W.Scope, Here);
    Main.InsertTextAfter(End, fmt::format("\n{}", Macros ? Macros->macrosAsAt(SM, Ctx.getLangOpts(), W.Begin, W.Begin,
                                                                              W.End, Scoped)
                                                        : Scoped));
  }
}

}  // namespace cilkpp
