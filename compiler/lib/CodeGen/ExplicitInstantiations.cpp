#include "CodeGen/ExplicitInstantiations.h"

#include "CodeGen/DeducedResults.h"
#include "CodeGen/NamespaceScopes.h"
#include "CodeGen/SourceText.h"
#include "Dialect/MacroHistory.h"
#include "Support/Instantiations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <vector>

using namespace clang;

namespace cilkpp {
namespace {

struct Written {
  unsigned Begin, End;  // main-file offsets of `template` and of the ';' that ends it
  llvm::StringSet<> Names;  // the identifiers in it
};

// The explicit instantiation definitions written in the main file: at
// namespace scope, statements that begin with `template` not followed by
// `<`. (Clang records a class's, but of a function's only the point of its
// first instantiation, which may be a use before it.) The lexer passes over
// preprocessor directives and the bodies of classes and functions.
std::vector<Written> writtenInstantiations(const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FileID File = SM.getMainFileID();
  const StringRef Buffer = SM.getBufferData(File);
  Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(), Buffer.begin(), Buffer.end());
  std::vector<Written> Found;
  std::vector<bool> Braces;  // open braces; true: a namespace's or linkage block's
  unsigned Parens = 0;
  std::vector<Token> Statement;  // the tokens of the namespace-scope statement so far
  auto AtNamespaceScope = [&] { return llvm::all_of(Braces, [](bool Namespace) { return Namespace; }); };
  auto IsWord = [](const Token &T, StringRef Word) {
    return T.is(tok::raw_identifier) && T.getRawIdentifier() == Word;
  };
  Token T;
  bool Lexed = false;  // T holds a token not looked at yet
  while (true) {
    if (!Lexed) Raw.LexFromRawLexer(T);
    Lexed = false;
    if (T.is(tok::eof)) break;
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      do Raw.LexFromRawLexer(T);
      while (T.isNot(tok::eof) && !T.isAtStartOfLine());
      Lexed = true;
      continue;
    }
    const bool Outside = AtNamespaceScope();
    if (Outside) Statement.push_back(T);
    if (T.isOneOf(tok::l_paren, tok::l_square)) {
      ++Parens;
    } else if (T.isOneOf(tok::r_paren, tok::r_square)) {
      Parens -= Parens > 0;
    } else if (T.is(tok::l_brace)) {
      // `namespace a {`, `inline namespace {`, `extern "C++" {`.
      const bool Opens = Outside && !Statement.empty() &&
                         (IsWord(Statement[0], "namespace") ||
                          (IsWord(Statement[0], "inline") && Statement.size() > 1 && IsWord(Statement[1], "namespace")) ||
                          (IsWord(Statement[0], "extern") && Statement.size() == 3 &&
                           Statement[1].is(tok::string_literal)));
      Braces.push_back(Opens);
      if (Opens) Statement.clear();
    } else if (T.is(tok::r_brace)) {
      if (Braces.empty()) break;
      Braces.pop_back();
      if (AtNamespaceScope()) Statement.clear();  // (`};` then ends an empty statement)
    } else if (T.is(tok::semi) && Outside && Parens == 0) {
      if (Statement.size() > 2 && IsWord(Statement[0], "template") && Statement[1].isNot(tok::less)) {
        Written W{SM.getFileOffset(Statement[0].getLocation()), SM.getFileOffset(T.getLocation()), {}};
        for (const Token &Word : Statement)
          if (Word.is(tok::raw_identifier)) W.Names.insert(Word.getRawIdentifier());
        Found.push_back(std::move(W));
      }
      Statement.clear();
    }
  }
  return Found;
}

// The namespace (or linkage block) written around Offset, innermost.
const DeclContext *scopeAround(const SourceManager &SM, const DeclContext *Scope, unsigned Offset) {
  for (const Decl *D : Scope->decls()) {
    if (!isa<NamespaceDecl, LinkageSpecDecl>(D)) continue;
    const SourceRange R = D->getSourceRange();
    if (!R.getBegin().isFileID() || !R.getEnd().isFileID() || !SM.isWrittenInMainFile(R.getBegin())) continue;
    if (SM.getFileOffset(R.getBegin()) <= Offset && Offset <= SM.getFileOffset(R.getEnd()))
      return scopeAround(SM, cast<DeclContext>(D), Offset);
  }
  return Scope;
}

}  // namespace

void moveExplicitInstantiations(ASTContext &Ctx, Rewriter &Main, ArrayRef<const FunctionDecl *> Procedures,
                                const MacroHistory *Macros, StringRef FileName) {
  // The names an explicit instantiation of a cilk procedure names.
  llvm::StringSet<> Instantiated;
  for (const FunctionDecl *FD : Procedures) {
    // (One of a template with a deduced result stays: g++ rejects an
    // explicit instantiation of such a template after its use, and its
    // public entry names the clones only where run_root is instantiated, at
    // the end of the file.)
    if (FD->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition && FD->getIdentifier() &&
        !(FD->getTemplateInstantiationPattern() && resultDeducedPerInstantiation(FD->getTemplateInstantiationPattern())))
      Instantiated.insert(FD->getName());
    for (const ClassTemplateSpecializationDecl *Spec : enclosingSpecializations(FD))
      if (Spec->getSpecializationKind() == TSK_ExplicitInstantiationDefinition) Instantiated.insert(Spec->getName());
  }
  if (Instantiated.empty()) return;
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  const SourceLocation End = SM.getLocForEndOfFile(SM.getMainFileID());
  for (const Written &W : writtenInstantiations(Ctx)) {
    if (llvm::none_of(W.Names, [&](const auto &Name) { return Instantiated.contains(Name.getKey()); })) continue;
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
    const std::string Scoped = inScope(scopeAround(SM, Ctx.getTranslationUnitDecl(), W.Begin), Here);
    Main.InsertTextAfter(End, fmt::format("\n{}", Macros ? Macros->macrosAsAt(SM, Ctx.getLangOpts(), W.Begin, W.Begin,
                                                                              W.End, Scoped)
                                                        : Scoped));
  }
}

}  // namespace cilkpp
